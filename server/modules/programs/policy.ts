// A program's clock-hour policy (COMPLIANCE.md): read with every default filled in, and replaced by PUT /api/programs/{id}/policy.
import { POLICY_DEFAULTS, defaultProgramWeeks, paymentPeriodPlan, type ProgramPolicy, type ProgramPolicyInput } from '../../../common/program-policy.ts';
import type { Db, DbOrTx } from '../../db/client.ts';
import { notFound } from '../../lib/errors.ts';
import { changedFields, recordAudit } from '../audit-logs/service.ts';
import { assertCheckpointsWithin, assertProgramHours, num } from './program-hours.ts';
import {
  selectActiveCourseHours,
  selectPolicyRow,
  selectProgram,
  selectProgramForUpdate,
  updateProgramHours,
  upsertPolicyRow,
  type ProgramPolicyRow,
} from './queries.ts';

type Ctx = { actorId: number; ip: string | null };

const numOrNull = (v: string | null | undefined) => (v == null ? null : Number(v));

/**
 * A program's clock-hour policy with every default filled in (COMPLIANCE.md), and the payment
 * periods it gives; undefined when there is no such program.
 */
export async function programPolicy(db: DbOrTx, programId: number): Promise<ProgramPolicy | undefined> {
  // One after the other: inside a transaction the three share one connection (pg deprecates overlapping queries on it).
  const program = await selectProgram(db, programId);
  if (!program) return undefined;
  const row = await selectPolicyRow(db, programId);
  // programHours is the program's own hours, one figure (decision 040); without them, its active courses'.
  const ownHours = num(program.durationHours);
  const programHours = ownHours ?? (await selectActiveCourseHours(db, programId));
  const academicYearHours = numOrNull(row?.academicYearHours) ?? POLICY_DEFAULTS.academicYearHours;
  const academicYearWeeks = numOrNull(row?.academicYearWeeks) ?? POLICY_DEFAULTS.academicYearWeeks;
  const programWeeks = numOrNull(row?.programWeeks) ?? defaultProgramWeeks(programHours, academicYearHours, academicYearWeeks);
  const paymentPeriods = paymentPeriodPlan(programHours, programWeeks, academicYearHours, academicYearWeeks);
  return {
    programId,
    programHours,
    programWeeks,
    academicYearHours,
    academicYearWeeks,
    excusedCapPercent: numOrNull(row?.excusedCapPercent) ?? POLICY_DEFAULTS.excusedCapPercent,
    minimumAttendancePercent: numOrNull(row?.minimumAttendancePercent) ?? POLICY_DEFAULTS.minimumAttendancePercent,
    sapCheckpointHours: row?.sapCheckpointHours?.map(Number) ?? paymentPeriods.map((p) => p.endHours),
    withdrawAfterDays: row?.withdrawAfterDays ?? POLICY_DEFAULTS.withdrawAfterDays,
    makeUpDeadlineDays: row?.makeUpDeadlineDays ?? POLICY_DEFAULTS.makeUpDeadlineDays,
    makeUpThresholdMinutes: row?.makeUpThresholdMinutes ?? POLICY_DEFAULTS.makeUpThresholdMinutes,
    makeUpCapPercent: numOrNull(row?.makeUpCapPercent),
    attendanceEditLockDays: row?.attendanceEditLockDays ?? null,
    consecutiveAbsenceAlert: row?.consecutiveAbsenceAlert ?? null,
    alertCopyToStudent: row?.alertCopyToStudent ?? false,
    recordsStartDate: row?.recordsStartDate ?? null,
    isSet: { programHours: ownHours != null, programWeeks: row?.programWeeks != null, sapCheckpointHours: row?.sapCheckpointHours != null },
    paymentPeriods,
    updatedAt: row?.updatedAt.toISOString() ?? null,
  };
}

/**
 * The policy as stored: what PUT sets and the audit log compares. null means "the default" for the
 * values whose default is derived (program hours and weeks, checkpoints) and for the make-up cap
 * (no cap); the others are stored with their default filled in.
 */
type PolicySettings = Pick<
  ProgramPolicy,
  | 'academicYearHours'
  | 'academicYearWeeks'
  | 'excusedCapPercent'
  | 'minimumAttendancePercent'
  | 'withdrawAfterDays'
  | 'makeUpDeadlineDays'
  | 'makeUpThresholdMinutes'
  | 'makeUpCapPercent'
  | 'attendanceEditLockDays'
  | 'consecutiveAbsenceAlert'
  | 'alertCopyToStudent'
  | 'recordsStartDate'
> & {
  programHours: number | null;
  programWeeks: number | null;
  sapCheckpointHours: number[] | null;
};

function storedSettings(row: ProgramPolicyRow | undefined, programHours: number | null): PolicySettings {
  return {
    programHours,
    programWeeks: numOrNull(row?.programWeeks),
    academicYearHours: numOrNull(row?.academicYearHours) ?? POLICY_DEFAULTS.academicYearHours,
    academicYearWeeks: numOrNull(row?.academicYearWeeks) ?? POLICY_DEFAULTS.academicYearWeeks,
    excusedCapPercent: numOrNull(row?.excusedCapPercent) ?? POLICY_DEFAULTS.excusedCapPercent,
    minimumAttendancePercent: numOrNull(row?.minimumAttendancePercent) ?? POLICY_DEFAULTS.minimumAttendancePercent,
    sapCheckpointHours: row?.sapCheckpointHours?.map(Number) ?? null,
    withdrawAfterDays: row?.withdrawAfterDays ?? POLICY_DEFAULTS.withdrawAfterDays,
    makeUpDeadlineDays: row?.makeUpDeadlineDays ?? POLICY_DEFAULTS.makeUpDeadlineDays,
    makeUpThresholdMinutes: row?.makeUpThresholdMinutes ?? POLICY_DEFAULTS.makeUpThresholdMinutes,
    makeUpCapPercent: numOrNull(row?.makeUpCapPercent),
    attendanceEditLockDays: row?.attendanceEditLockDays ?? null,
    consecutiveAbsenceAlert: row?.consecutiveAbsenceAlert ?? null,
    alertCopyToStudent: row?.alertCopyToStudent ?? false,
    recordsStartDate: row?.recordsStartDate ?? null,
  };
}

function settingsFromInput(i: ProgramPolicyInput, programHours: number | null): PolicySettings {
  return {
    programHours,
    programWeeks: i.programWeeks ?? null,
    academicYearHours: i.academicYearHours ?? POLICY_DEFAULTS.academicYearHours,
    academicYearWeeks: i.academicYearWeeks ?? POLICY_DEFAULTS.academicYearWeeks,
    excusedCapPercent: i.excusedCapPercent ?? POLICY_DEFAULTS.excusedCapPercent,
    minimumAttendancePercent: i.minimumAttendancePercent ?? POLICY_DEFAULTS.minimumAttendancePercent,
    sapCheckpointHours: i.sapCheckpointHours ?? null,
    withdrawAfterDays: i.withdrawAfterDays ?? POLICY_DEFAULTS.withdrawAfterDays,
    makeUpDeadlineDays: i.makeUpDeadlineDays ?? POLICY_DEFAULTS.makeUpDeadlineDays,
    makeUpThresholdMinutes: i.makeUpThresholdMinutes ?? POLICY_DEFAULTS.makeUpThresholdMinutes,
    makeUpCapPercent: i.makeUpCapPercent ?? POLICY_DEFAULTS.makeUpCapPercent,
    attendanceEditLockDays: i.attendanceEditLockDays ?? POLICY_DEFAULTS.attendanceEditLockDays,
    consecutiveAbsenceAlert: i.consecutiveAbsenceAlert ?? POLICY_DEFAULTS.consecutiveAbsenceAlert,
    alertCopyToStudent: i.alertCopyToStudent ?? POLICY_DEFAULTS.alertCopyToStudent,
    recordsStartDate: i.recordsStartDate ?? null,
  };
}

const str = (n: number | null) => (n == null ? null : String(n));

/** A policy read, 404 when there is no such program. */
export async function getProgramPolicy(db: DbOrTx, programId: number): Promise<ProgramPolicy> {
  const policy = await programPolicy(db, programId);
  if (!policy) throw notFound('Program');
  return policy;
}

/**
 * PUT /api/programs/{id}/policy: replaces the program's policy (a value left out or null takes its
 * default) and answers the new effective policy. Audited with the settings that changed.
 * programHours is the program's durationHours (decision 040): a value sets the program's hours, null
 * clears them (the active courses' hours count), and left out they stay as they are.
 */
export async function setProgramPolicy(db: Db, programId: number, input: ProgramPolicyInput, ctx: Ctx): Promise<ProgramPolicy> {
  return db.transaction(async (tx) => {
    // Locks the program, so two saves of the same policy apply one after the other.
    const program = await selectProgramForUpdate(tx, programId);
    if (!program) throw notFound('Program');
    const currentHours = num(program.durationHours);
    const hours = input.programHours === undefined ? currentHours : input.programHours;
    assertProgramHours(hours, currentHours, 'programHours');
    const next = settingsFromInput(input, hours);
    const programHours = hours ?? (await selectActiveCourseHours(tx, programId));
    assertCheckpointsWithin(next.sapCheckpointHours, programHours, 'sapCheckpointHours');
    const before = storedSettings(await selectPolicyRow(tx, programId), currentHours);
    if (hours !== currentHours) {
      // The program's own record changes too: its history says so.
      await updateProgramHours(tx, programId, str(hours));
      await recordAudit(tx, {
        userId: ctx.actorId,
        action: 'Update',
        tableName: 'programs',
        recordId: programId,
        ipAddress: ctx.ip,
        oldValues: { durationHours: currentHours },
        newValues: { durationHours: hours },
      });
    }
    await upsertPolicyRow(tx, programId, {
      programWeeks: str(next.programWeeks),
      academicYearHours: String(next.academicYearHours),
      academicYearWeeks: String(next.academicYearWeeks),
      excusedCapPercent: String(next.excusedCapPercent),
      minimumAttendancePercent: String(next.minimumAttendancePercent),
      sapCheckpointHours: next.sapCheckpointHours?.map(String) ?? null,
      withdrawAfterDays: next.withdrawAfterDays,
      makeUpDeadlineDays: next.makeUpDeadlineDays,
      makeUpThresholdMinutes: next.makeUpThresholdMinutes,
      makeUpCapPercent: str(next.makeUpCapPercent),
      attendanceEditLockDays: next.attendanceEditLockDays,
      consecutiveAbsenceAlert: next.consecutiveAbsenceAlert,
      alertCopyToStudent: next.alertCopyToStudent,
      recordsStartDate: next.recordsStartDate,
      updatedBy: ctx.actorId,
    });
    const diff = changedFields(before as Record<string, unknown>, next as Record<string, unknown>);
    await recordAudit(tx, { userId: ctx.actorId, action: 'Update', tableName: 'program_policies', recordId: programId, ipAddress: ctx.ip, ...diff });
    return (await programPolicy(tx, programId))!;
  });
}
