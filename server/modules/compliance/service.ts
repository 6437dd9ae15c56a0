// The compliance module's door, and the leaves and withdrawals the student's status follows.
import type { z } from 'zod';
import {
  MAX_LEAVE_DAYS_IN_12_MONTHS,
  leaveLength,
  worstLeaveWindow,
  type Leave,
  type LeaveInput,
  type Withdrawal,
  type leaveUpdateSchema,
  type withdrawalInputSchema,
} from '../../../common/compliance.ts';
import type { StudentStatus } from '../../../common/constants.ts';
import { addDays } from '../../../common/dates.ts';
import type { Role } from '../../../common/roles.ts';
import type { Db, DbOrTx } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import { badRequest, conflict, notFound } from '../../lib/errors.ts';
import { recordAudit } from '../audit-logs/service.ts';
import { assertMayReadStudent } from '../access/service.ts';
import { ledgersFor, type StudentLedger } from '../hours/service.ts';
import { lockStudentStatus, setStudentStatus } from '../students/service.ts';
import { hours, percent, schoolToday } from './enrolled-ledgers.ts';
import {
  deleteWithdrawalRow,
  insertLeave,
  insertWithdrawal,
  selectLeaves,
  selectLeavesCovering,
  selectStatusBeforeLatestLeave,
  selectStudentsBatch,
  selectStudentsWithStatus,
  selectWithdrawal,
  updateLeaveRow,
  type CandidateRow,
  type LeaveRow,
} from './queries.ts';

type User = { id: number; role: Role };
type Ctx = { clock: Clock; ip: string | null };

const fieldError = (field: string, message: string) => badRequest(message, [{ field, message }]);

// ---- Leaves ----

const toLeave = (r: LeaveRow): Leave => ({
  id: r.id,
  studentId: r.studentId,
  startDate: r.startDate,
  endDate: r.endDate,
  reason: r.reason,
  days: leaveLength(r),
  createdAt: r.createdAt.toISOString(),
});

export async function listLeaves(db: DbOrTx, user: User, studentId: number): Promise<Leave[]> {
  await assertMayReadStudent(db, user, studentId);
  return (await selectLeaves(db, studentId)).map(toLeave);
}

/** Leaves may not overlap, and together may not exceed 180 days in any 12 months (400s naming the field). */
function checkLeaves(others: LeaveRow[], candidate: { startDate: string; endDate: string }) {
  const overlap = others.find((l) => l.startDate <= candidate.endDate && l.endDate >= candidate.startDate);
  if (overlap) throw fieldError('startDate', `This leave overlaps the leave of ${overlap.startDate} to ${overlap.endDate}`);
  const worst = worstLeaveWindow([...others, candidate]);
  if (worst.days > MAX_LEAVE_DAYS_IN_12_MONTHS) {
    const used = worstLeaveWindow(others.filter((l) => l.startDate <= addDays(worst.from!, 364) && l.endDate >= worst.from!)).days;
    throw fieldError(
      'endDate',
      `Leaves may not exceed ${MAX_LEAVE_DAYS_IN_12_MONTHS} days in any 12 months: ${used} days are already used in the 12 months from ${worst.from}, and this leave of ${leaveLength(candidate)} days would make ${worst.days}`,
    );
  }
}

/**
 * The student's status follows the leave that covers today: `loa` during it (the status before
 * is kept with the leave), given back when no leave covers today any more.
 */
async function syncLeaveStatus(tx: DbOrTx, studentId: number, current: StudentStatus, today: string, leaves: LeaveRow[]): Promise<StudentStatus> {
  const covering = leaves.find((l) => l.startDate <= today && l.endDate >= today);
  if (covering && current !== 'loa' && current !== 'withdrawn') {
    await updateLeaveRow(tx, covering.id, { statusBefore: current });
    await setStudentStatus(tx, studentId, 'loa');
    return 'loa';
  }
  if (!covering && current === 'loa') {
    const back = ((await selectStatusBeforeLatestLeave(tx, studentId, today)) ?? 'active') as StudentStatus;
    await setStudentStatus(tx, studentId, back);
    return back;
  }
  return current;
}

export async function createLeave(db: Db, user: User, studentId: number, input: LeaveInput, ctx: Ctx): Promise<Leave> {
  const { today } = await schoolToday(db, ctx.clock);
  return db.transaction(async (tx) => {
    const status = await lockStudentStatus(tx, studentId);
    if (status == null) throw notFound('Student');
    if (status === 'withdrawn') throw conflict('The student is withdrawn; reverse the withdrawal before recording a leave');
    const existing = await selectLeaves(tx, studentId);
    checkLeaves(existing, input);
    const row = await insertLeave(tx, { studentId, ...input, createdBy: user.id, createdAt: ctx.clock.now(), updatedAt: ctx.clock.now() });
    await syncLeaveStatus(tx, studentId, status, today, [...existing, row]);
    await recordAudit(tx, {
      userId: user.id,
      action: 'Create',
      tableName: 'student_leaves',
      recordId: row.id,
      ipAddress: ctx.ip,
      newValues: { studentId, ...input },
      at: ctx.clock.now(),
    });
    return toLeave(row);
  });
}

export async function updateLeave(db: Db, user: User, studentId: number, leaveId: number, input: z.output<typeof leaveUpdateSchema>, ctx: Ctx): Promise<Leave> {
  const { today } = await schoolToday(db, ctx.clock);
  return db.transaction(async (tx) => {
    const status = await lockStudentStatus(tx, studentId);
    if (status == null) throw notFound('Student');
    const leaves = await selectLeaves(tx, studentId);
    const before = leaves.find((l) => l.id === leaveId);
    if (!before) throw notFound('Leave');
    const changed = { startDate: input.startDate ?? before.startDate, endDate: input.endDate, reason: input.reason ?? before.reason };
    if (changed.endDate < changed.startDate) throw fieldError('endDate', 'endDate must not be before startDate');
    checkLeaves(
      leaves.filter((l) => l.id !== leaveId),
      changed,
    );
    const row = await updateLeaveRow(tx, leaveId, { ...changed, updatedAt: ctx.clock.now() });
    await syncLeaveStatus(
      tx,
      studentId,
      status,
      today,
      leaves.map((l) => (l.id === leaveId ? row : l)),
    );
    await recordAudit(tx, {
      userId: user.id,
      action: 'Update',
      tableName: 'student_leaves',
      recordId: leaveId,
      ipAddress: ctx.ip,
      oldValues: { startDate: before.startDate, endDate: before.endDate, reason: before.reason },
      newValues: changed,
      at: ctx.clock.now(),
    });
    return toLeave(row);
  });
}

/** The daily job: statuses follow the calendar (a leave that starts today, one that ended yesterday). */
export async function syncLeaveStatuses(db: Db, clock: Clock): Promise<number> {
  const { today } = await schoolToday(db, clock);
  let changed = 0;
  const covering = await selectLeavesCovering(db, today);
  const onLeave = new Set(covering.map((c) => c.studentId));
  const ids = new Set([...onLeave, ...(await selectStudentsWithStatus(db, 'loa')).map((s) => s.id)]);
  for (const studentId of ids) {
    await db.transaction(async (tx) => {
      const status = await lockStudentStatus(tx, studentId);
      if (status == null) return;
      const after = await syncLeaveStatus(tx, studentId, status, today, await selectLeaves(tx, studentId));
      if (after !== status) changed++;
    });
  }
  return changed;
}

// ---- Withdrawal ----

/**
 * The refund inputs of a clock-hour withdrawal (COMPLIANCE.md): the payment period the student was
 * in on the withdrawal date, and the hours scheduled in it from its start through that date.
 */
function refundInputs(ledger: StudentLedger, withdrawalDate: string) {
  const period = ledger.paymentPeriods.find((p) => p.status !== 'completed') ?? null;
  if (!period)
    return { paymentPeriod: null, periodHours: null, scheduledHoursInPeriodToWithdrawal: 0, percentOfPeriodScheduled: null, creditedHoursInPeriod: 0 };
  const from = period.startedOn ?? ledger.startDate ?? withdrawalDate;
  const scheduled = ledger.days.reduce((n, d) => (d.date >= from && d.date <= withdrawalDate ? n + d.scheduledMinutes : n), 0);
  const periodHours = Math.round((period.endHours - period.startHours) * 100) / 100;
  return {
    paymentPeriod: period.number,
    periodHours,
    scheduledHoursInPeriodToWithdrawal: hours(scheduled),
    percentOfPeriodScheduled: percent(scheduled, periodHours * 60),
    creditedHoursInPeriod: hours(period.creditedMinutes),
  };
}

async function studentRow(db: DbOrTx, studentId: number): Promise<CandidateRow | undefined> {
  return (await selectStudentsBatch(db, { afterId: studentId - 1, limit: 1 })).find((s) => s.id === studentId);
}

/**
 * Record a withdrawal: status `withdrawn`, the LDA frozen with the record, nothing scheduled after
 * the withdrawal date; the answer carries the refund inputs as of the withdrawal date.
 */
export async function recordWithdrawal(db: Db, user: User, studentId: number, input: z.output<typeof withdrawalInputSchema>, ctx: Ctx): Promise<Withdrawal> {
  const { today, timeZone } = await schoolToday(db, ctx.clock);
  const student = await studentRow(db, studentId);
  if (!student) throw notFound('Student');
  const current = (await ledgersFor(db, [student], today, timeZone, ctx.clock.now())).get(studentId)!;
  const lda = current.lastDateOfAttendance;
  const withdrawalDate = input.withdrawalDate ?? lda;
  if (!withdrawalDate) throw fieldError('withdrawalDate', 'The student has no date of attendance: give the withdrawal date');
  const determinationDate = input.determinationDate ?? today;
  if (withdrawalDate > today) throw fieldError('withdrawalDate', 'The withdrawal date cannot be in the future');
  if (determinationDate < withdrawalDate) throw fieldError('determinationDate', 'The determination date cannot be before the withdrawal date');
  const atWithdrawal = (await ledgersFor(db, [student], withdrawalDate, timeZone, ctx.clock.now())).get(studentId)!;
  const refund = refundInputs(atWithdrawal, withdrawalDate);
  return db.transaction(async (tx) => {
    const status = await lockStudentStatus(tx, studentId);
    if (status == null) throw notFound('Student');
    if (await selectWithdrawal(tx, studentId)) throw conflict('A withdrawal is already recorded for this student');
    await insertWithdrawal(tx, {
      studentId,
      withdrawalDate,
      determinationDate,
      lastDateOfAttendance: lda,
      reason: input.reason,
      statusBefore: status,
      recordedBy: user.id,
      recordedAt: ctx.clock.now(),
    });
    await setStudentStatus(tx, studentId, 'withdrawn');
    const answer = { studentId, status: 'withdrawn', withdrawalDate, determinationDate, lastDateOfAttendance: lda, reason: input.reason, ...refund };
    await recordAudit(tx, {
      userId: user.id,
      action: 'Create',
      tableName: 'student_withdrawals',
      recordId: studentId,
      ipAddress: ctx.ip,
      oldValues: { status },
      newValues: answer,
      at: ctx.clock.now(),
    });
    return answer;
  });
}

/** Reverse a withdrawal recorded by mistake: the status before it comes back; the reason is audited. */
export async function reverseWithdrawal(db: Db, user: User, studentId: number, reason: string, ctx: Ctx): Promise<void> {
  await db.transaction(async (tx) => {
    const status = await lockStudentStatus(tx, studentId);
    if (status == null) throw notFound('Student');
    const row = await selectWithdrawal(tx, studentId);
    if (!row) throw notFound('Withdrawal');
    await deleteWithdrawalRow(tx, studentId);
    await setStudentStatus(tx, studentId, row.statusBefore);
    await recordAudit(tx, {
      userId: user.id,
      action: 'Delete',
      tableName: 'student_withdrawals',
      recordId: studentId,
      ipAddress: ctx.ip,
      oldValues: {
        withdrawalDate: row.withdrawalDate,
        determinationDate: row.determinationDate,
        lastDateOfAttendance: row.lastDateOfAttendance,
        reason: row.reason,
        status,
      },
      newValues: { status: row.statusBefore, reason },
      at: ctx.clock.now(),
    });
  });
}

// The module's door: the watch and the Compliance screen's lists (watch.ts) and the reports
// (reports.ts, the monthly report's rows in monthly-hours.ts) live in their own files.
export { complianceOverview, withdrawalWatch } from './watch.ts';
export { monthlyHoursReport, sapReportCsv } from './reports.ts';
