import { POLICY_DEFAULTS, defaultProgramWeeks, paymentPeriodPlan, type ProgramPolicy, type ProgramPolicyInput } from '../../../common/program-policy.ts';
import { programHoursProblem, programHoursWarning, type FieldWarning, type Program, type ProgramInput, type ProgramSaved } from '../../../common/programs.ts';
import {
  NEW_PROGRAM_TIME_CLOCK,
  TIME_CLOCK_PRESETS,
  type MissingCheckOutPolicy,
  type RoundingMode,
  type TimeClockInput,
  type TimeClockPolicy,
  type TimeClockPreset,
  type TimeClockRules,
  type TimeClockSaved,
  type TimeClockVersion,
} from '../../../common/time-clock.ts';
import type { Db, DbOrTx } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import { withUniqueFields } from '../../lib/db-errors.ts';
import { badRequest, notFound } from '../../lib/errors.ts';
import { localDate } from '../../lib/school-time.ts';
import { changedFields, recordAudit } from '../audit-logs/service.ts';
import { getSettings } from '../settings/service.ts';
import {
  countStudentsWithRecordsFrom,
  selectTimeClockVersions,
  upsertTimeClockVersion,
  type TimeClockVersionRow,
  insertProgram,
  selectActiveCourseHours,
  selectPolicyRow,
  selectProgram,
  selectProgramForUpdate,
  selectProgramName,
  selectProgramNames,
  selectPrograms,
  selectProgramHoursBySisId,
  updateProgramHours,
  updateProgramRow,
  upsertPolicyRow,
  type ProgramPolicyRow,
  type ProgramRow,
} from './queries.ts';

type Input = ProgramInput;
type Ctx = { actorId: number; ip: string | null };
const UNIQUE = {
  programs_sis_program_id_unique: { field: 'sisProgramId', message: 'Another program already has this SIS program ID' },
  programs_program_code_unique: { field: 'programCode', message: 'Another program already has this program code' },
};

const num = (v: string | null) => (v == null ? null : Number(v));
function toProgram(r: ProgramRow): Program {
  return {
    id: r.id,
    programName: r.programName,
    programCode: r.programCode,
    sisProgramId: r.sisProgramId,
    durationHours: num(r.durationHours),
    credentialType: r.credentialType,
    description: r.description,
    status: r.status,
    startDate: r.startDate,
    endDate: r.endDate,
    accreditationBody: r.accreditationBody,
    programDirector: r.programDirector,
    tuitionCost: num(r.tuitionCost),
    capacity: r.capacity,
    campusLocation: r.campusLocation,
    externalProgramId: r.externalProgramId,
    regulatoryCode: r.regulatoryCode,
    syncStatus: r.syncStatus,
  };
}
const toColumns = (i: Input, hours: number | null) => ({ ...i, durationHours: hours?.toString() ?? null, tuitionCost: i.tuitionCost?.toString() ?? null });

/**
 * Hours someone enters for a program, as durationHours or as its policy's programHours (one figure,
 * decision 040): the rule of common/programs.ts, a 400 naming the field. The stored value is kept as it is.
 */
function assertProgramHours(value: number | null, current: number | null, field: 'durationHours' | 'programHours'): void {
  const problem = programHoursProblem(value, current, field === 'durationHours' ? 'Duration hours' : 'programHours');
  if (problem) throw badRequest(problem, [{ field, message: problem }]);
}

/** The note an answer carries when the program's hours are outside SPEC's documented range. */
function hoursWarnings(hours: number | null): FieldWarning[] {
  const message = programHoursWarning(hours);
  return message ? [{ field: 'durationHours', message }] : [];
}

/** SAP checkpoints the policy set must stay within the program's hours, whichever place changes them. */
function assertCheckpointsWithin(checkpoints: readonly number[] | null | undefined, hours: number, field: 'durationHours' | 'sapCheckpointHours'): void {
  const beyond = checkpoints?.find((h) => h > hours);
  if (beyond === undefined) return;
  const message =
    field === 'sapCheckpointHours'
      ? `sapCheckpointHours must not go beyond the program's ${hours} hours (${beyond} does)`
      : `Duration hours must not be below the clock-hour policy's SAP checkpoint at ${beyond} hours; change the checkpoints first`;
  throw badRequest(message, [{ field, message }]);
}

export async function listPrograms(db: DbOrTx): Promise<Program[]> {
  return (await selectPrograms(db)).map(toProgram);
}

export async function getProgram(db: DbOrTx, id: number): Promise<Program> {
  const row = await selectProgram(db, id);
  if (!row) throw notFound('Program');
  return toProgram(row);
}

export async function createProgram(db: Db, input: Input, ctx: Ctx): Promise<ProgramSaved> {
  const hours = input.durationHours ?? null;
  assertProgramHours(hours, null, 'durationHours');
  return db.transaction(async (tx) => {
    const row = await withUniqueFields(() => insertProgram(tx, toColumns(input, hours)), UNIQUE);
    await recordAudit(tx, { userId: ctx.actorId, action: 'Create', tableName: 'programs', recordId: row.id, ipAddress: ctx.ip, newValues: { ...input, durationHours: hours } });
    return { ...toProgram(row), warnings: hoursWarnings(hours) };
  });
}

/**
 * PUT /api/programs/{id}: replaces the program. durationHours left out keeps the program's hours
 * (they are its policy's programHours, which the ledger counts); null clears them.
 */
export async function updateProgram(db: Db, id: number, input: Input, ctx: Ctx): Promise<ProgramSaved> {
  return db.transaction(async (tx) => {
    const before = await selectProgramForUpdate(tx, id);
    if (!before) throw notFound('Program');
    const current = num(before.durationHours);
    const hours = input.durationHours === undefined ? current : input.durationHours;
    assertProgramHours(hours, current, 'durationHours');
    if (hours != null && hours !== current) assertCheckpointsWithin((await selectPolicyRow(tx, id))?.sapCheckpointHours?.map(Number), hours, 'durationHours');
    const row = await withUniqueFields(() => updateProgramRow(tx, id, toColumns(input, hours)), UNIQUE);
    const diff = changedFields(toProgram(before) as unknown as Record<string, unknown>, { ...input, durationHours: hours } as Record<string, unknown>);
    await recordAudit(tx, { userId: ctx.actorId, action: 'Update', tableName: 'programs', recordId: id, ipAddress: ctx.ip, ...diff });
    return { ...toProgram(row!), warnings: hoursWarnings(hours) };
  });
}

/** The stored hours of the programs with these SIS ids (the program import keeps them when a cell is blank). */
export async function programHoursBySisId(db: DbOrTx, sisIds: readonly string[]): Promise<Map<string, number | null>> {
  if (sisIds.length === 0) return new Map();
  return new Map((await selectProgramHoursBySisId(db, sisIds)).map((r) => [r.sisProgramId!, num(r.durationHours)]));
}

/** Program names by id, for the courses list. */
export async function listProgramNames(db: DbOrTx): Promise<Map<number, string>> {
  return new Map((await selectProgramNames(db)).map((p) => [p.id, p.programName]));
}

/** The program's name, or undefined when there is no program with this id. */
export async function findProgramName(db: DbOrTx, id: number): Promise<string | undefined> {
  return (await selectProgramName(db, id))?.programName;
}

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
type PolicySettings = Pick<ProgramPolicy, 'academicYearHours' | 'academicYearWeeks' | 'excusedCapPercent' | 'minimumAttendancePercent' | 'withdrawAfterDays' | 'makeUpDeadlineDays' | 'makeUpThresholdMinutes' | 'makeUpCapPercent' | 'attendanceEditLockDays' | 'consecutiveAbsenceAlert' | 'alertCopyToStudent' | 'recordsStartDate'> & {
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
      await recordAudit(tx, { userId: ctx.actorId, action: 'Update', tableName: 'programs', recordId: programId, ipAddress: ctx.ip, oldValues: { durationHours: currentHours }, newValues: { durationHours: hours } });
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

// ---- Time-clock rules (issue 29; decision 050) ----

function toVersion(r: TimeClockVersionRow): TimeClockVersion {
  return {
    missingCheckOut: r.missingCheckOut as MissingCheckOutPolicy,
    rounding: r.rounding as RoundingMode,
    roundingMinutes: r.roundingMinutes,
    graceMinutes: r.graceMinutes,
    mealDeduction: r.mealAfterMinutes != null && r.mealMinutes != null ? { afterMinutes: r.mealAfterMinutes, minutes: r.mealMinutes } : null,
    dailyMaxMinutes: r.dailyMaxMinutes,
    weeklyMaxMinutes: r.weeklyMaxMinutes,
    effectiveFrom: r.effectiveFrom,
    createdAt: r.createdAt.toISOString(),
    createdByName: r.createdByName,
  };
}

const rulesOf = (v: TimeClockRules): TimeClockRules => ({
  missingCheckOut: v.missingCheckOut,
  rounding: v.rounding,
  roundingMinutes: v.roundingMinutes,
  graceMinutes: v.graceMinutes,
  mealDeduction: v.mealDeduction,
  dailyMaxMinutes: v.dailyMaxMinutes,
  weeklyMaxMinutes: v.weeklyMaxMinutes,
});

/**
 * A program's time-clock rules by date, for the ledger: its versions in date order, led by the
 * rules from the beginning: its own (programs that existed at migration 0026 have Muster's old
 * behaviour there) or, without one, the new-program defaults. One read per program.
 */
export async function timeClockVersions(db: DbOrTx, programId: number): Promise<(TimeClockRules & { effectiveFrom: string | null })[]> {
  const versions = (await selectTimeClockVersions(db, programId)).map((r) => ({ ...rulesOf(toVersion(r)), effectiveFrom: r.effectiveFrom }));
  return versions[0]?.effectiveFrom === null ? versions : [{ ...NEW_PROGRAM_TIME_CLOCK, effectiveFrom: null }, ...versions];
}

async function schoolToday(db: DbOrTx, clock: Clock): Promise<string> {
  return localDate(clock.now(), (await getSettings(db)).attendance.timeZone);
}

/** The rules in force on the date among versions in date order (none in force: the new-program defaults). */
function inForceOn(versions: TimeClockVersion[], date: string): TimeClockVersion | null {
  let found: TimeClockVersion | null = null;
  for (const v of versions) if (v.effectiveFrom == null || v.effectiveFrom <= date) found = v;
  return found;
}

async function timeClockPolicyOf(db: DbOrTx, programId: number, today: string): Promise<TimeClockPolicy> {
  const versions = (await selectTimeClockVersions(db, programId)).map(toVersion);
  const current = inForceOn(versions, today);
  return {
    programId,
    ...rulesOf(current ?? NEW_PROGRAM_TIME_CLOCK),
    effectiveFrom: current?.effectiveFrom ?? null,
    isSet: current != null,
    versions: [...versions].reverse(),
    today,
  };
}

/** GET /api/programs/{id}/time-clock: the rules in force today (school time) and every version; 404 for no such program. */
export async function getTimeClockPolicy(db: DbOrTx, programId: number, clock: Clock): Promise<TimeClockPolicy> {
  if (!(await selectProgram(db, programId))) throw notFound('Program');
  return timeClockPolicyOf(db, programId, await schoolToday(db, clock));
}

/** GET /api/programs/{id}/time-clock/impact: how many students' days saving from that date recomputes. */
export async function timeClockImpact(db: DbOrTx, programId: number, effectiveFrom: string): Promise<{ effectiveFrom: string; recomputedStudents: number }> {
  if (!(await selectProgram(db, programId))) throw notFound('Program');
  return { effectiveFrom, recomputedStudents: await countStudentsWithRecordsFrom(db, programId, effectiveFrom) };
}

/**
 * PUT /api/programs/{id}/time-clock: a version of the rules from effectiveFrom (default today in the
 * school's time zone), replacing one saved for the same date. The ledger recomputes on read, so
 * nothing else is written; back-dated, it recomputes the days of the program's students with
 * records from that date, and the audit entry says how many (old values: the rules in force on
 * that date until now).
 */
export async function setTimeClockPolicy(db: Db, programId: number, input: TimeClockInput, ctx: Ctx & { clock: Clock }): Promise<TimeClockSaved> {
  const today = await schoolToday(db, ctx.clock);
  const effectiveFrom = input.effectiveFrom ?? today;
  return db.transaction(async (tx) => {
    // Locks the program: two saves apply one after the other.
    if (!(await selectProgramForUpdate(tx, programId))) throw notFound('Program');
    const before = inForceOn((await selectTimeClockVersions(tx, programId)).map(toVersion), effectiveFrom);
    const rules = rulesOf(input);
    await upsertTimeClockVersion(tx, programId, effectiveFrom, {
      missingCheckOut: rules.missingCheckOut,
      rounding: rules.rounding,
      roundingMinutes: rules.roundingMinutes,
      graceMinutes: rules.graceMinutes,
      mealAfterMinutes: rules.mealDeduction?.afterMinutes ?? null,
      mealMinutes: rules.mealDeduction?.minutes ?? null,
      dailyMaxMinutes: rules.dailyMaxMinutes,
      weeklyMaxMinutes: rules.weeklyMaxMinutes,
      createdBy: ctx.actorId,
    });
    const recomputedStudents = await countStudentsWithRecordsFrom(tx, programId, effectiveFrom);
    await recordAudit(tx, {
      userId: ctx.actorId,
      action: 'Update',
      tableName: 'program_time_clock_versions',
      recordId: programId,
      ipAddress: ctx.ip,
      oldValues: { ...rulesOf(before ?? NEW_PROGRAM_TIME_CLOCK), effectiveFrom: before?.effectiveFrom ?? null, isSet: before != null },
      newValues: { ...rules, effectiveFrom, recomputedStudents },
    });
    return { ...(await timeClockPolicyOf(tx, programId, today)), recomputedStudents };
  });
}

/** GET /api/time-clock/presets: named starting points; the school confirms its own board's rules. */
export function listTimeClockPresets(): TimeClockPreset[] {
  return [...TIME_CLOCK_PRESETS];
}
