import type { z } from 'zod';
import {
  BREAK_MIN_DAYS,
  DETERMINATION_DAYS,
  MAX_LEAVE_DAYS_IN_12_MONTHS,
  MONTHLY_HOURS_COLUMNS,
  SAP_REPORT_COLUMNS,
  leaveLength,
  worstLeaveWindow,
  type ComplianceOverview,
  type Leave,
  type LeaveInput,
  type WatchRow,
  type Withdrawal,
  type leaveUpdateSchema,
  type withdrawalInputSchema,
} from '../../../common/compliance.ts';
import type { StudentStatus } from '../../../common/constants.ts';
import { POLICY_DEFAULTS, addDays, daysBetween, timeClockHours, type ProgramPolicy } from '../../../common/hours.ts';
import type { Role } from '../../../common/roles.ts';
import type { Db, DbOrTx } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import { csvDownloadHeaders, csvFromRows } from '../../lib/csv.ts';
import { badRequest, conflict, notFound } from '../../lib/errors.ts';
import { localDate, localTimeOfDay } from '../../lib/school-time.ts';
import { recordAudit } from '../audit-logs/service.ts';
import { listClosures } from '../calendar/service.ts';
import { assertMayReadStudent, ledgerAsOf, ledgersFor, type StudentLedger } from '../hours/service.ts';
import { renderMonthlyReport } from './monthly-report-pdf.ts';
import { findProgramName, programPolicy } from '../programs/service.ts';
import { getSettings, schoolName } from '../settings/service.ts';
import { lockStudentStatus, setStudentStatus } from '../students/service.ts';
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

/** Students still expected in class: the watch and the compliance lists are about them. */
const ENROLLED: StudentStatus[] = ['enrolled', 'active', 'loa'];
const BATCH = 200;

async function schoolToday(db: DbOrTx, clock: Clock): Promise<{ today: string; timeZone: string }> {
  const { timeZone } = (await getSettings(db)).attendance;
  return { today: localDate(clock.now(), timeZone), timeZone };
}

const fieldError = (field: string, message: string) => badRequest(message, [{ field, message }]);
const hours = (minutes: number) => Math.round((minutes / 60) * 100) / 100;
const percent = (part: number, whole: number) => (whole > 0 ? Math.round((part / whole) * 1000) / 10 : null);

// ---- Leaves ----

const toLeave = (r: LeaveRow): Leave => ({ id: r.id, studentId: r.studentId, startDate: r.startDate, endDate: r.endDate, reason: r.reason, days: leaveLength(r), createdAt: r.createdAt.toISOString() });

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
async function syncLeaveStatus(tx: DbOrTx, studentId: number, current: string, today: string, leaves: LeaveRow[]): Promise<string> {
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
    await recordAudit(tx, { userId: user.id, action: 'Create', tableName: 'student_leaves', recordId: row.id, ipAddress: ctx.ip, newValues: { studentId, ...input }, at: ctx.clock.now() });
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
    await syncLeaveStatus(tx, studentId, status, today, leaves.map((l) => (l.id === leaveId ? row : l)));
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
  if (!period) return { paymentPeriod: null, periodHours: null, scheduledHoursInPeriodToWithdrawal: 0, percentOfPeriodScheduled: null, creditedHoursInPeriod: 0 };
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
    await insertWithdrawal(tx, { studentId, withdrawalDate, determinationDate, lastDateOfAttendance: lda, reason: input.reason, statusBefore: status, recordedBy: user.id, recordedAt: ctx.clock.now() });
    await setStudentStatus(tx, studentId, 'withdrawn');
    const answer = { studentId, status: 'withdrawn', withdrawalDate, determinationDate, lastDateOfAttendance: lda, reason: input.reason, ...refund };
    await recordAudit(tx, { userId: user.id, action: 'Create', tableName: 'student_withdrawals', recordId: studentId, ipAddress: ctx.ip, oldValues: { status }, newValues: answer, at: ctx.clock.now() });
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
    await setStudentStatus(tx, studentId, row.statusBefore as StudentStatus);
    await recordAudit(tx, {
      userId: user.id,
      action: 'Delete',
      tableName: 'student_withdrawals',
      recordId: studentId,
      ipAddress: ctx.ip,
      oldValues: { withdrawalDate: row.withdrawalDate, determinationDate: row.determinationDate, lastDateOfAttendance: row.lastDateOfAttendance, reason: row.reason, status },
      newValues: { status: row.statusBefore, reason },
      at: ctx.clock.now(),
    });
  });
}

// ---- Walking the enrolled students ----

async function* enrolledLedgers(db: DbOrTx, f: { programId?: number; asOf: string; timeZone: string; now: Date; statuses?: string[] }) {
  let afterId = 0;
  for (;;) {
    const batch = await selectStudentsBatch(db, { statuses: f.statuses ?? ENROLLED, programId: f.programId, afterId, limit: BATCH });
    if (batch.length === 0) return;
    const ledgers = await ledgersFor(db, batch, f.asOf, f.timeZone, f.now);
    for (const s of batch) yield { student: s, ledger: ledgers.get(s.id)! };
    if (batch.length < BATCH) return;
    afterId = batch[batch.length - 1]!.id;
  }
}

function cached<K, V>(load: (k: K) => Promise<V>): (k: K) => Promise<V> {
  const m = new Map<K, Promise<V>>();
  return (k) => {
    if (!m.has(k)) m.set(k, load(k));
    return m.get(k)!;
  };
}

/** Days of closures of 5 days or more (scheduled breaks) for a program, through asOf. */
async function breakDates(db: DbOrTx, programId: number | null, asOf: string): Promise<Set<string>> {
  const closures = await listClosures(db, { to: asOf, programId: programId ?? undefined });
  const dates = new Set<string>();
  for (const c of closures) {
    if (c.programId != null && c.programId !== programId) continue;
    if (daysBetween(c.startDate, c.endDate) + 1 < BREAK_MIN_DAYS) continue;
    for (let d = c.startDate; d <= c.endDate; d = addDays(d, 1)) dates.add(d);
  }
  return dates;
}

const URGENCY = { overdue: 0, due: 1, watch: 2 } as const;

/**
 * GET /api/compliance/withdrawal-watch: enrolled students without attendance for at least half the
 * program's withdrawAfterDays, counted in calendar days since the LDA (or from the first scheduled
 * day for those who never came) without scheduled breaks of 5+ days and leave days. Students on a
 * leave today are not listed; a leave that ended without a return counts again from its end.
 * `timeZone`: the watch as it would be on another clock, today included (Settings' preview of a
 * time-zone change); absent, the school's.
 */
export async function withdrawalWatch(db: DbOrTx, q: { asOf?: string; programId?: number; timeZone?: string }, clock: Clock): Promise<WatchRow[]> {
  const { asOf, timeZone } = q.timeZone ? { asOf: localDate(clock.now(), q.timeZone), timeZone: q.timeZone } : await ledgerAsOf(db, clock, q.asOf);
  const policyOf = cached((programId: number | null) => (programId == null ? Promise.resolve(undefined) : programPolicy(db, programId)));
  const breaksOf = cached((programId: number | null) => breakDates(db, programId, asOf));
  const rows: WatchRow[] = [];
  for await (const { student, ledger } of enrolledLedgers(db, { programId: q.programId, asOf, timeZone, now: clock.now() })) {
    const todayRow = ledger.days.at(-1);
    if (todayRow?.date === asOf && todayRow.onLeave) continue;
    const firstScheduled = ledger.days.find((d) => d.scheduledMinutes > 0)?.date ?? null;
    const base = ledger.lastDateOfAttendance ?? firstScheduled;
    if (!base || base > asOf) continue;
    const breaks = await breaksOf(student.programId);
    const leaveDays = new Set(ledger.days.filter((d) => d.onLeave).map((d) => d.date));
    // Since the LDA: the days after it. Never attended: from the first scheduled day, which was missed too.
    let days = 0;
    for (let d = ledger.lastDateOfAttendance ? addDays(base, 1) : base; d <= asOf; d = addDays(d, 1)) if (!breaks.has(d) && !leaveDays.has(d)) days++;
    const withdrawAfterDays = (await policyOf(student.programId))?.withdrawAfterDays ?? 14;
    if (days < withdrawAfterDays / 2) continue;
    const determinationDueBy = addDays(base, DETERMINATION_DAYS);
    const state = days < withdrawAfterDays ? 'watch' : asOf <= determinationDueBy ? 'due' : 'overdue';
    rows.push({
      studentId: student.id,
      sisStudentId: student.sisStudentId,
      firstName: student.firstName,
      lastName: student.lastName,
      programName: student.programName,
      lastDateOfAttendance: ledger.lastDateOfAttendance,
      daysWithoutAttendance: days,
      determinationDueBy,
      state,
    });
  }
  return rows.sort((a, b) => URGENCY[a.state] - URGENCY[b.state] || b.daysWithoutAttendance - a.daysWithoutAttendance || a.lastName.localeCompare(b.lastName));
}

/** Credited minutes per day over the last 28 days: the pace a projection uses. */
function recentPace(ledger: StudentLedger, asOf: string): number {
  const from = addDays(asOf, -27);
  return ledger.days.reduce((n, d) => (d.date >= from ? n + d.creditedMinutes : n), 0) / 28;
}

/** The Compliance screen's lists (SAP, excused cap, make-up owed) and the counts of its tabs. */
export async function complianceOverview(db: DbOrTx, q: { asOf?: string; programId?: number }, clock: Clock): Promise<ComplianceOverview> {
  const { asOf, timeZone } = await ledgerAsOf(db, clock, q.asOf);
  const policyOf = cached((programId: number | null) => (programId == null ? Promise.resolve(undefined as ProgramPolicy | undefined) : programPolicy(db, programId)));
  const out: ComplianceOverview = { asOf, counts: { watch: 0, due: 0, overdue: 0, sapNotMet: 0, sapUpcoming: 0, excusedCap: 0, makeUpOwed: 0 }, sap: [], excusedCap: [], makeUpOwed: [] };
  for await (const { student, ledger } of enrolledLedgers(db, { programId: q.programId, asOf, timeZone, now: clock.now() })) {
    const ref = { studentId: student.id, sisStudentId: student.sisStudentId, firstName: student.firstName, lastName: student.lastName, programName: student.programName };
    const pace = recentPace(ledger, asOf);
    for (const c of ledger.sapCheckpoints) {
      if (c.status === 'not_met') out.sap.push({ ...ref, ...c, projectedOn: null });
      else if (c.status === 'pending' && pace > 0) {
        const daysToGo = Math.ceil((c.atHours * 60 - ledger.totals.creditedMinutes) / pace);
        if (daysToGo <= 30) out.sap.push({ ...ref, ...c, attendancePercent: ledger.attendancePercent, projectedOn: addDays(asOf, Math.max(0, daysToGo)) });
      }
    }
    for (const p of ledger.paymentPeriods) {
      if (p.excusedCapMinutes > 0 && p.excusedCreditedMinutes >= p.excusedCapMinutes * 0.8 && p.status !== 'completed') {
        const uncredited = ledger.totals.excusedUncreditedMinutes;
        out.excusedCap.push({ ...ref, paymentPeriod: p.number, excusedCreditedMinutes: p.excusedCreditedMinutes, excusedCapMinutes: p.excusedCapMinutes, excusedUncreditedMinutes: uncredited });
      }
    }
    const programPolicyOf = await policyOf(student.programId);
    const deadlineDays = programPolicyOf?.makeUpDeadlineDays ?? POLICY_DEFAULTS.makeUpDeadlineDays;
    const threshold = programPolicyOf?.makeUpThresholdMinutes ?? POLICY_DEFAULTS.makeUpThresholdMinutes;
    const cutoff = addDays(asOf, -deadlineDays);
    let missed = 0;
    let oldest: string | null = null;
    for (const d of ledger.days) {
      if (d.date > cutoff) continue;
      // Excused time the cap credited is not owed (what the day credited beyond attendance and make-up).
      const excusedCredited = d.creditedMinutes - d.attendedMinutes - d.makeUpMinutes;
      const gap = Math.max(0, d.scheduledMinutes - d.attendedMinutes - excusedCredited);
      if (gap > 0) {
        missed += gap;
        oldest ??= d.date;
      }
    }
    const owed = missed - ledger.totals.makeUpMinutes;
    // A few minutes late here and there is not a make-up case: the program's threshold says from when.
    if (owed > 0 && owed >= threshold) out.makeUpOwed.push({ ...ref, owedMinutes: owed, oldestMissedOn: oldest, makeUpDeadlineDays: deadlineDays, dueBy: oldest ? addDays(oldest, deadlineDays) : null });
  }
  const watch = await withdrawalWatch(db, { asOf, programId: q.programId }, clock);
  for (const w of watch) out.counts[w.state]++;
  out.counts.sapNotMet = out.sap.filter((s) => s.status === 'not_met').length;
  out.counts.sapUpcoming = out.sap.length - out.counts.sapNotMet;
  out.counts.excusedCap = out.excusedCap.length;
  out.counts.makeUpOwed = out.makeUpOwed.length;
  return out;
}

// ---- Reports ----

/** The month's first and last days. */
export function monthRange(month: string): { from: string; to: string } {
  const [y, m] = month.split('-').map(Number) as [number, number];
  const last = new Date(Date.UTC(y, m, 0)).getUTCDate();
  return { from: `${month}-01`, to: `${month}-${String(last).padStart(2, '0')}` };
}

export type MonthlyHoursRow = Record<(typeof MONTHLY_HOURS_COLUMNS)[number], string | number | null>;

/**
 * One row per student enrolled during the month (started by its end, not withdrawn before it):
 * the month's hours and the cumulative credited hours at its end, from the same ledger.
 */
export async function* monthlyHoursRows(db: DbOrTx, q: { month: string; programId?: number }, clock: Clock): AsyncGenerator<MonthlyHoursRow> {
  const { today, timeZone } = await schoolToday(db, clock);
  const { from, to } = monthRange(q.month);
  const asOf = to < today ? to : today;
  for await (const { student, ledger } of enrolledLedgers(db, { programId: q.programId, asOf, timeZone, now: clock.now(), statuses: ['enrolled', 'active', 'loa', 'withdrawn', 'graduated', 'suspended', 'inactive'] })) {
    if (!ledger.startDate || ledger.startDate > to) continue;
    if (ledger.withdrawalDate && ledger.withdrawalDate < from) continue;
    const inMonth = ledger.days.filter((d) => d.date >= from && d.date <= to);
    const sum = (k: 'scheduledMinutes' | 'attendedMinutes' | 'makeUpMinutes' | 'creditedMinutes') => inMonth.reduce((n, d) => n + d[k], 0);
    if (student.status !== 'enrolled' && student.status !== 'active' && student.status !== 'loa' && sum('scheduledMinutes') + sum('creditedMinutes') === 0) continue;
    yield {
      sisStudentId: student.sisStudentId,
      firstName: student.firstName,
      lastName: student.lastName,
      programName: student.programName,
      month: q.month,
      scheduledHours: hours(sum('scheduledMinutes')),
      attendedHours: hours(sum('attendedMinutes')),
      makeUpHours: hours(sum('makeUpMinutes')),
      creditedHours: hours(sum('creditedMinutes')),
      cumulativeCreditedHours: hours(ledger.totals.creditedMinutes),
      attendancePercent: percent(sum('creditedMinutes'), sum('scheduledMinutes')),
      status: student.status,
      lastDateOfAttendance: ledger.lastDateOfAttendance,
      // What Credited holds besides Attended and Make-up (excused time within the cap), taken from
      // the rounded figures so that each line adds up as printed.
      excusedCreditedHours: Math.round((hours(sum('creditedMinutes')) - hours(sum('attendedMinutes')) - hours(sum('makeUpMinutes'))) * 100) / 100,
      ...timeClockHours(inMonth),
    };
  }
}

/** GET /api/reports/monthly-hours: the CSV streamed, or (format=pdf) the signed-off PDF; audited as an export. */
export async function monthlyHoursReport(db: DbOrTx, q: { month: string; programId?: number; format?: 'csv' | 'pdf' }, ctx: Ctx & { actorId: number }) {
  const pdf = q.format === 'pdf';
  const fileName = `monthly-hours-${q.month}${q.programId ? `-program-${q.programId}` : ''}.${pdf ? 'pdf' : 'csv'}`;
  await recordAudit(db, { userId: ctx.actorId, action: 'Export', tableName: 'monthly_hours_report', ipAddress: ctx.ip, newValues: { ...q, fileName } });
  if (!pdf) return { headers: csvDownloadHeaders(fileName), body: csvFromRows(MONTHLY_HOURS_COLUMNS, monthlyHoursRows(db, q, ctx.clock)) };
  const rows: MonthlyHoursRow[] = [];
  for await (const r of monthlyHoursRows(db, q, ctx.clock)) rows.push(r);
  const { timeZone } = (await getSettings(db)).attendance;
  const now = ctx.clock.now();
  const body = await renderMonthlyReport({
    schoolName: await schoolName(db),
    month: q.month,
    programName: q.programId ? ((await findProgramName(db, q.programId)) ?? null) : null,
    generatedAt: `${localDate(now, timeZone)} ${localTimeOfDay(now, timeZone)} (${timeZone})`,
    rows,
  });
  return { headers: { 'content-type': 'application/pdf', 'content-disposition': `attachment; filename="${fileName}"`, 'cache-control': 'no-store' }, body };
}

async function* sapRows(db: DbOrTx, q: { programId?: number; asOf: string; timeZone: string; now: Date }) {
  const { asOf, timeZone } = q;
  for await (const { student, ledger } of enrolledLedgers(db, { programId: q.programId, asOf, timeZone, now: q.now })) {
    for (const c of ledger.sapCheckpoints) {
      yield { sisStudentId: student.sisStudentId, firstName: student.firstName, lastName: student.lastName, programName: student.programName, asOf, ...c };
    }
  }
}

export async function sapReportCsv(db: DbOrTx, q: { programId?: number; asOf?: string }, ctx: Ctx & { actorId: number }) {
  // Decided before the file starts: a refused date is a 400, not a broken download.
  const { asOf, timeZone } = await ledgerAsOf(db, ctx.clock, q.asOf);
  const fileName = `sap-report-${q.asOf ?? 'today'}.csv`;
  await recordAudit(db, { userId: ctx.actorId, action: 'Export', tableName: 'sap_report', ipAddress: ctx.ip, newValues: { ...q, fileName } });
  return { headers: csvDownloadHeaders(fileName), stream: csvFromRows(SAP_REPORT_COLUMNS, sapRows(db, { programId: q.programId, asOf, timeZone, now: ctx.clock.now() })) };
}
