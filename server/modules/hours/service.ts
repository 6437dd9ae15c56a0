import type { z } from 'zod';
import {
  HOURS_EXPORT_COLUMNS,
  POLICY_DEFAULTS,
  addDays,
  daysBetween,
  timeClockHours,
  type AttendanceHistory,
  type HoursSummaryRow,
  type MakeUpInput,
  type MakeUpSession,
  type OpeningBalance,
  type OpeningBalanceInput,
  type StudentHours,
  type hoursListQuerySchema,
  type studentRecordSchema,
} from '../../../common/hours.ts';
import type { Role } from '../../../common/roles.ts';
import type { Db, DbOrTx } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import { csvDownloadHeaders, csvFromRows } from '../../lib/csv.ts';
import { badRequest, notFound } from '../../lib/errors.ts';
import { localDate, localTimeOfDay } from '../../lib/school-time.ts';
import {
  assertMayDeleteMakeUp,
  assertMayReadAttendanceRecord,
  assertMayReadStudent,
  mayNameMakeUpSupervisor,
  maySuperviseMakeUps,
  viewerScope,
  WHOLE_SCHOOL,
} from '../access/service.ts';
import { heldMeetings, recordHistoryUnchecked, type ClassWindow } from '../attendance/service.ts';
import { recordAudit } from '../audit-logs/service.ts';
import { closedDates as closedDatesOf } from '../calendar/service.ts';
import { programPolicy, timeClockVersions } from '../programs/service.ts';
import { getSettings, schoolName } from '../settings/service.ts';
import { computeLedger, type Ledger, type LedgerSchedule } from './ledger.ts';
import type { Interval } from './time-clock.ts';
import { importOpeningBalanceFile, openingBalanceOf, recordsStartDate, removeOpeningBalance, saveOpeningBalance, toLedgerOpening, type TabularFile } from './opening-balances.ts';
import { renderTimeCard, timeCardDays, timeCardTotals } from './time-card.ts';
import { freezeExitedStudents, ledgerOfTranscript, transcriptsOf } from './transcripts.ts';
import {
  countHoursStudents,
  courseExists,
  selectLedgerOpenings,
  deleteMakeUpRow,
  insertMakeUp,
  lockStudentMakeUpMinutes,
  selectHoursStudents,
  selectLedgerBreaks,
  selectLedgerLeaves,
  selectLedgerMakeUps,
  selectLedgerWithdrawals,
  selectMeetingBreaks,
  selectLedgerRecords,
  selectLedgerSchedules,
  selectLedgerStudent,
  selectMakeUp,
  selectSchedulesById,
  selectMakeUps,
  selectStudentRecords,
  selectSupervisor,
  type LedgerStudentRow,
  type MakeUpRow,
} from './queries.ts';

export { computeLedger } from './ledger.ts';

type User = { id: number; role: Role };
type Ctx = { clock: Clock; ip: string | null };

/** The student a ledger is computed for, for a reader the access module lets see them (403/404 as it decides). */
function readableStudent(db: DbOrTx, user: User, studentId: number): Promise<LedgerStudentRow> {
  return assertMayReadStudent(db, user, studentId, selectLedgerStudent);
}

async function schoolToday(db: DbOrTx, clock: Clock): Promise<{ today: string; timeZone: string }> {
  const { timeZone } = (await getSettings(db)).attendance;
  return { today: localDate(clock.now(), timeZone), timeZone };
}

/**
 * The day a ledger read stands at: the date asked for (`field` names it in the error), default
 * today in the school's time zone, never after today. Hours are counted only for days that have
 * happened, and a ledger's cost grows with its days: a date in 2200 would walk and keep every day
 * to it for every student (issue 27). Every read that takes such a date comes through here.
 */
export async function ledgerAsOf(db: DbOrTx, clock: Clock, date: string | undefined, field = 'asOf'): Promise<{ asOf: string; today: string; timeZone: string }> {
  const { today, timeZone } = await schoolToday(db, clock);
  if (date != null && date > today) {
    const message = `${field} must not be after today (${today} in the school's time zone): hours are counted only for days that have happened`;
    throw badRequest(message, [{ field, message }]);
  }
  return { asOf: date ?? today, today, timeZone };
}

/** The policy that applies to a student: their program's, or the defaults (no payment periods) without a program. */
const NO_PROGRAM_POLICY = {
  paymentPeriods: [],
  excusedCapPercent: POLICY_DEFAULTS.excusedCapPercent,
  minimumAttendancePercent: POLICY_DEFAULTS.minimumAttendancePercent,
  sapCheckpointHours: [],
};

/** Every date of the leaves. */
export function leaveDays(leaves: { startDate: string; endDate: string }[]): Set<string> {
  const dates = new Set<string>();
  for (const l of leaves) for (let d = l.startDate; d <= l.endDate; d = addDays(d, 1)) dates.add(d);
  return dates;
}

/** The earliest date a ledger of these schedules can start (for loading closures). */
function earliestDate(enrollmentDate: string | null, schedules: LedgerSchedule[], asOf: string): string {
  let from = enrollmentDate ?? asOf;
  for (const s of schedules) {
    if (s.courseStartDate < from) from = s.courseStartDate;
    for (const d of s.makeupDates) if (d < from) from = d;
  }
  return from;
}

/**
 * Class windows (the real instants of a meeting) by time zone, date and times, kept between
 * requests: computing one asks Intl for the zone's offset four times, which was most of the time
 * of one student's ledger (bench/hours.ts). Bounded: cleared when it grows past a few years of a
 * school's distinct class times.
 */
const classWindows = new Map<string, ClassWindow>();
const CLASS_WINDOWS_MAX = 50_000;

/**
 * Ledgers of several students as of a date, loaded in a few set-based reads (schedules, records,
 * make-ups of all of them at once, with the programs' policies alongside) and computed in memory;
 * closures once per program.
 */
export type StudentLedger = Ledger & {
  withdrawalDate: string | null;
  expectedEndDate: string | null;
  /** Set when retention removed the records: the figures are the ones frozen at the exit. */
  transcript?: { exitDate: string; frozenAt: string };
};

export async function ledgersFor(db: DbOrTx, list: LedgerStudentRow[], asOf: string, timeZone: string, now: Date): Promise<Map<number, StudentLedger>> {
  const ids = list.map((s) => s.id);
  const programIds = [...new Set(list.map((s) => s.programId))];
  const [[scheduleRows, recordRows, makeUpRows, leaveRows, withdrawalRows, openingRows], policyList, timeClockList, settings, transcripts] = await Promise.all([
    Promise.all([
      selectLedgerSchedules(db, ids),
      selectLedgerRecords(db, ids, asOf),
      selectLedgerMakeUps(db, ids, asOf),
      selectLedgerLeaves(db, ids),
      selectLedgerWithdrawals(db, ids),
      selectLedgerOpenings(db, ids),
    ]),
    Promise.all(programIds.map((id) => (id == null ? undefined : programPolicy(db, id)))),
    // The program's time-clock rules by date; a student without a program keeps the rules before them.
    Promise.all(programIds.map((id) => (id == null ? undefined : timeClockVersions(db, id)))),
    getSettings(db),
    transcriptsOf(db, ids),
  ]);
  const openingOf = new Map(openingRows.map((o) => [o.studentId, toLedgerOpening(o)]));
  // Which meetings anybody took attendance at: the others are for review, not absences.
  const rosteredIds = [...new Set(scheduleRows.filter((r) => r.onRoster).map((r) => r.id))];
  const firstDate = list.reduce((d, s) => (s.enrollmentDate && s.enrollmentDate < d ? s.enrollmentDate : d), asOf);
  const [held, breaksOf, ledBreaks] = await Promise.all([
    heldMeetings(db, rosteredIds, scheduleRows.reduce((d, r) => (r.courseStartDate < d ? r.courseStartDate : d), firstDate), asOf),
    selectLedgerBreaks(db, ids, asOf),
    selectMeetingBreaks(db, [...new Set([...scheduleRows.map((r) => r.id), ...recordRows.map((r) => r.scheduleId)])], asOf),
  ]);
  for (const r of recordRows) {
    const breaks = breaksOf.get(r.id);
    if (breaks) r.breaks = breaks;
  }
  // An instructor-led break still open when its class ended lasted to the end: not class time.
  const meetingBreaksOf = new Map([...ledBreaks].map(([key, list]) => [key, list.map((b): Interval => [b.start, b.end ?? Number.MAX_SAFE_INTEGER])]));
  const policies = new Map(programIds.map((id, i) => [id, policyList[i]]));
  const timeClocks = new Map(programIds.map((id, i) => [id, timeClockList[i]]));
  const group = <T extends { studentId: number }>(rows: T[]) => {
    const m = new Map<number, T[]>();
    for (const r of rows) (m.get(r.studentId) ?? m.set(r.studentId, []).get(r.studentId)!).push(r);
    return m;
  };
  // Records in classes the student is not on the roster of still count as attended: their schedules too.
  const rostered = new Set(scheduleRows.map((r) => `${r.studentId}|${r.id}`));
  const offRoster = new Map<string, { studentId: number; scheduleId: number }>();
  for (const r of recordRows) if (!rostered.has(`${r.studentId}|${r.scheduleId}`)) offRoster.set(`${r.studentId}|${r.scheduleId}`, r);
  if (offRoster.size > 0) {
    const byId = new Map((await selectSchedulesById(db, [...new Set([...offRoster.values()].map((o) => o.scheduleId))])).map((s) => [s.id, s]));
    for (const o of offRoster.values()) {
      const s = byId.get(o.scheduleId);
      if (s) scheduleRows.push({ ...s, studentId: o.studentId, onRoster: false });
    }
  }
  const schedulesOf = group(scheduleRows);
  const recordsOf = group(recordRows);
  const makeUpsOf = group(makeUpRows);
  const leavesOf = group(leaveRows);
  const withdrawalOf = new Map(withdrawalRows.map((w) => [w.studentId, w]));
  const closures = new Map<string, Promise<Set<string>>>();
  if (classWindows.size > CLASS_WINDOWS_MAX) classWindows.clear();
  const result = new Map<number, StudentLedger>();
  for (const s of list) {
    // Retention removed this student's records: their hours are the ones frozen at their exit.
    const transcript = transcripts.get(s.id);
    if (transcript) {
      result.set(s.id, ledgerOfTranscript(transcript));
      continue;
    }
    const schedules: LedgerSchedule[] = (schedulesOf.get(s.id) ?? []).map((r) => ({
      scheduleId: r.id,
      dayOfWeek: r.dayOfWeek,
      startTime: r.startTime,
      endTime: r.endTime,
      courseStartDate: r.courseStartDate,
      courseEndDate: r.courseEndDate,
      holidayExceptions: r.holidayExceptions,
      makeupDates: r.makeupDates,
      onRoster: r.onRoster,
      breaks: r.breaks,
    }));
    const from = earliestDate(s.enrollmentDate, schedules, asOf);
    const closureKey = `${s.programId}|${from}`;
    if (!closures.has(closureKey)) closures.set(closureKey, closedDatesOf(db, { from, to: asOf, programId: s.programId }));
    const closedDates = await closures.get(closureKey)!;
    const policy = policies.get(s.programId);
    const leaves = leavesOf.get(s.id) ?? [];
    const withdrawal = withdrawalOf.get(s.id);
    const ledger = computeLedger({
      enrollmentDate: s.enrollmentDate,
      asOf,
      timeZone,
      schedules,
      closedDates,
      records: recordsOf.get(s.id) ?? [],
      makeUps: makeUpsOf.get(s.id) ?? [],
      policy: policy ?? NO_PROGRAM_POLICY,
      timeClock: timeClocks.get(s.programId),
      windowCache: classWindows,
      leaveDates: leaveDays(leaves),
      withdrawalDate: withdrawal?.withdrawalDate ?? null,
      now,
      recordsFrom: recordsStartDate(settings.attendance.recordsStartDate, policy),
      opening: openingOf.get(s.id) ?? null,
      heldMeetings: held,
      meetingBreaks: meetingBreaksOf,
    });
    const leaveLength = leaves.reduce((n, l) => n + daysBetween(l.startDate, l.endDate) + 1, 0);
    result.set(s.id, {
      ...ledger,
      // Once a withdrawal is recorded, its LDA is the one frozen with it.
      lastDateOfAttendance: withdrawal ? withdrawal.lastDateOfAttendance : ledger.lastDateOfAttendance,
      withdrawalDate: withdrawal?.withdrawalDate ?? null,
      expectedEndDate: ledger.startDate && policy ? addDays(ledger.startDate, Math.ceil(policy.programWeeks * 7) - 1 + leaveLength) : null,
    });
  }
  return result;
}

/** GET /api/students/{id}/hours: the ledger as it stood at the end of asOf (default today), with the days of from–to (default the last 31). */
export async function studentHours(db: DbOrTx, user: User, studentId: number, q: { asOf?: string; from?: string; to?: string }, clock: Clock): Promise<StudentHours> {
  return hoursOfStudentUnchecked(db, await readableStudent(db, user, studentId), q, clock);
}

/**
 * One student's ledger. Unchecked: for a caller that has already decided the reader may see it (a
 * staff member through the access module's assertMayReadStudent, a student through the link e-mailed to them).
 */
export async function hoursOfStudentUnchecked(db: DbOrTx, student: LedgerStudentRow, q: { asOf?: string; from?: string; to?: string }, clock: Clock): Promise<StudentHours> {
  const studentId = student.id;
  const { asOf, timeZone } = await ledgerAsOf(db, clock, q.asOf);
  const ledger = (await ledgersFor(db, [student], asOf, timeZone, clock.now())).get(studentId)!;
  const to = q.to ?? asOf;
  const from = q.from ?? addDays(to, -30);
  return {
    studentId,
    programId: student.programId,
    asOf,
    enrollmentDate: student.enrollmentDate,
    lastDateOfAttendance: ledger.lastDateOfAttendance,
    expectedEndDate: ledger.expectedEndDate,
    withdrawalDate: ledger.withdrawalDate,
    totals: ledger.totals,
    attendancePercent: ledger.attendancePercent,
    paymentPeriods: ledger.paymentPeriods,
    sapCheckpoints: ledger.sapCheckpoints,
    days: ledger.days.filter((d) => d.date >= from && d.date <= to),
    ...(ledger.transcript ? { transcript: ledger.transcript } : {}),
  };
}

function summaryRow(s: LedgerStudentRow, l: Ledger): HoursSummaryRow {
  const current = l.paymentPeriods.find((p) => p.status !== 'completed') ?? null;
  const evaluated = l.sapCheckpoints.filter((c) => c.status !== 'pending');
  return {
    studentId: s.id,
    sisStudentId: s.sisStudentId,
    firstName: s.firstName,
    lastName: s.lastName,
    programId: s.programId,
    programName: s.programName,
    status: s.status,
    totals: l.totals,
    attendancePercent: l.attendancePercent,
    currentPaymentPeriod: current?.number ?? null,
    hoursRemaining: current?.hoursRemaining ?? null,
    sapStatus: evaluated.at(-1)?.status ?? 'pending',
    lastDateOfAttendance: l.lastDateOfAttendance,
  };
}

type HoursListQuery = z.output<typeof hoursListQuerySchema>;

/**
 * GET /api/hours: one page of students (sorted and paged in SQL by name or SIS id), each with its
 * ledger computed for that page only, so the page costs the same with 50 students or 50,000.
 */
export async function hoursSummary(db: DbOrTx, user: User, q: HoursListQuery, clock: Clock): Promise<{ items: HoursSummaryRow[]; total: number }> {
  const { asOf, timeZone } = await ledgerAsOf(db, clock, q.asOf);
  const filter = { programId: q.programId, search: q.search, scope: viewerScope(user) };
  const pageSize = q.pageSize ?? 50;
  const page = q.page ?? 1;
  const [list, total] = await Promise.all([
    selectHoursStudents(db, { ...filter, sort: q.sort ?? 'lastName', order: q.order ?? 'asc', limit: pageSize, offset: (page - 1) * pageSize }),
    countHoursStudents(db, filter),
  ]);
  const ledgers = await ledgersFor(db, list, asOf, timeZone, clock.now());
  return { items: list.map((s) => summaryRow(s, ledgers.get(s.id)!)), total };
}

const hours = (minutes: number) => Math.round((minutes / 60) * 100) / 100;
const EXPORT_BATCH = 200;

async function* hoursExportRows(db: DbOrTx, q: { programId?: number; from?: string; to: string }, timeZone: string, now: Date) {
  let afterId = 0;
  for (;;) {
    const list = await selectHoursStudents(db, { programId: q.programId, scope: WHOLE_SCHOOL, sort: 'lastName', order: 'asc', limit: EXPORT_BATCH, afterId });
    if (list.length === 0) return;
    const ledgers = await ledgersFor(db, list, q.to, timeZone, now);
    for (const s of list) {
      const l = ledgers.get(s.id)!;
      const days = q.from ? l.days.filter((d) => d.date >= q.from!) : l.days;
      const sum = (k: 'scheduledMinutes' | 'attendedMinutes' | 'excusedMinutes' | 'makeUpMinutes') => days.reduce((n, d) => n + d[k], 0);
      // Credited within the range: what the ledger credited by `to` less what it had credited the day before `from`.
      const credited = q.from ? creditedBetween(l, q.from) : l.totals.creditedMinutes;
      const scheduled = sum('scheduledMinutes');
      const current = l.paymentPeriods.find((p) => p.status !== 'completed');
      yield {
        sisStudentId: s.sisStudentId,
        studentId: s.id,
        firstName: s.firstName,
        lastName: s.lastName,
        programName: s.programName,
        from: q.from ?? l.startDate,
        to: q.to,
        scheduledHours: hours(scheduled),
        attendedHours: hours(sum('attendedMinutes')),
        excusedHours: hours(sum('excusedMinutes')),
        makeUpHours: hours(sum('makeUpMinutes')),
        creditedHours: hours(credited),
        attendancePercent: scheduled > 0 ? Math.round((credited / scheduled) * 1000) / 10 : null,
        paymentPeriod: current?.number ?? null,
        hoursToNextPaymentPeriod: current?.hoursRemaining ?? null,
        lastDateOfAttendance: l.lastDateOfAttendance,
        ...timeClockHours(days),
      } satisfies Record<(typeof HOURS_EXPORT_COLUMNS)[number], unknown>;
    }
    if (list.length < EXPORT_BATCH) return;
    afterId = list[list.length - 1]!.id;
  }
}

/** Credited minutes on the days from `from` on (the ledger credits each day as it walks them). */
function creditedBetween(l: Ledger, from: string): number {
  return l.days.reduce((n, d) => (d.date >= from ? n + d.creditedMinutes : n), 0);
}

/** GET /api/export/hours: audited as it starts, streamed in batches of students. */
export async function exportHours(db: DbOrTx, q: { programId?: number; from?: string; to?: string }, ctx: Ctx & { actorId: number }) {
  const { asOf: to, timeZone } = await ledgerAsOf(db, ctx.clock, q.to, 'to');
  const fileName = `hours_export_${to}.csv`;
  await recordAudit(db, { userId: ctx.actorId, action: 'Export', tableName: 'hours', ipAddress: ctx.ip, newValues: { ...q, to, fileName } });
  return { headers: csvDownloadHeaders(fileName), stream: csvFromRows(HOURS_EXPORT_COLUMNS, hoursExportRows(db, { ...q, to }, timeZone, ctx.clock.now())) };
}

// ---- Opening balances (opening-balances.ts): the doors, after the reader's need-to-know ----

/** GET /api/students/{id}/opening-balance: the hours before Muster (404 when none was entered). */
export async function getOpeningBalance(db: DbOrTx, user: User, studentId: number): Promise<OpeningBalance> {
  return openingBalanceOf(db, await readableStudent(db, user, studentId));
}

/** PUT /api/students/{id}/opening-balance (administrators): audited with the old and new values. */
export async function setOpeningBalance(db: Db, user: User, studentId: number, input: OpeningBalanceInput, ctx: Ctx): Promise<OpeningBalance> {
  return saveOpeningBalance(db, await readableStudent(db, user, studentId), input, { userId: user.id, ...ctx });
}

/** DELETE /api/students/{id}/opening-balance (administrators), with a reason kept in the audit log. */
export async function deleteOpeningBalance(db: Db, user: User, studentId: number, reason: string, ctx: Ctx): Promise<void> {
  await assertMayReadStudent(db, user, studentId);
  await removeOpeningBalance(db, studentId, reason, { userId: user.id, ...ctx });
}

/** POST /api/students/opening-balances/import: every row checked as the form is; all or nothing. */
export function importOpeningBalances(db: Db, user: User, file: TabularFile, dryRun: boolean, ctx: Ctx) {
  return importOpeningBalanceFile(db, file, dryRun, { userId: user.id, ...ctx });
}

/** The school's upload limit (Settings › System), for the opening-balance file. */
export async function uploadLimitMB(db: DbOrTx): Promise<number> {
  return (await getSettings(db)).system.maxFileUploadSizeMB;
}

// ---- Make-up sessions ----

function toMakeUp(r: MakeUpRow): MakeUpSession {
  return {
    id: r.id,
    studentId: r.studentId,
    date: r.sessionDate,
    startTime: r.startTime.slice(0, 5),
    endTime: r.endTime.slice(0, 5),
    minutes: r.minutes,
    supervisorId: r.supervisorId,
    supervisorName: r.supervisorName,
    courseId: r.courseId,
    courseCode: r.courseCode,
    note: r.note,
    createdAt: r.createdAt.toISOString(),
  };
}

export async function listMakeUps(db: DbOrTx, user: User, studentId: number): Promise<MakeUpSession[]> {
  await assertMayReadStudent(db, user, studentId);
  return (await selectMakeUps(db, studentId)).map(toMakeUp);
}

const minutesOfDay = (t: string) => Number(t.slice(0, 2)) * 60 + Number(t.slice(3, 5));

/**
 * Record a make-up session: the supervisor is an active instructor or administrator (instructors
 * name themselves, for students on their own rosters); not in the future; within the program's
 * make-up cap (checked with the student's make-up minutes locked).
 */
export async function recordMakeUp(db: Db, user: User, studentId: number, input: MakeUpInput, ctx: Ctx): Promise<MakeUpSession> {
  const student = await readableStudent(db, user, studentId);
  const fieldError = (field: string, message: string) => badRequest(message, [{ field, message }]);
  if (!mayNameMakeUpSupervisor(user, input.supervisorId)) throw fieldError('supervisorId', 'Instructors record make-up sessions they supervise themselves');
  const supervisor = await selectSupervisor(db, input.supervisorId);
  if (!supervisor || !supervisor.isActive || !maySuperviseMakeUps(supervisor)) {
    throw fieldError('supervisorId', 'The supervisor must be an active instructor or administrator');
  }
  if (input.courseId != null && !(await courseExists(db, input.courseId))) throw fieldError('courseId', `No course with id ${input.courseId}`);
  const { today } = await schoolToday(db, ctx.clock);
  if (input.date > today) throw fieldError('date', 'A make-up session cannot be recorded for a future date');
  if (student.enrollmentDate && input.date < student.enrollmentDate) throw fieldError('date', `The student enrolled on ${student.enrollmentDate}; ${input.date} is before that`);
  const minutes = minutesOfDay(input.endTime) - minutesOfDay(input.startTime);
  const policy = student.programId == null ? undefined : await programPolicy(db, student.programId);
  return db.transaction(async (tx) => {
    const used = await lockStudentMakeUpMinutes(tx, studentId);
    if (policy?.makeUpCapPercent != null) {
      const capMinutes = Math.floor(policy.programHours * 60 * (policy.makeUpCapPercent / 100));
      if (used + minutes > capMinutes) {
        throw fieldError(
          'endTime',
          `This make-up would bring the student to ${hours(used + minutes)} make-up hours, over the program's cap of ${hours(capMinutes)} hours (${policy.makeUpCapPercent}% of ${policy.programHours})`,
        );
      }
    }
    const id = await insertMakeUp(tx, {
      studentId,
      sessionDate: input.date,
      startTime: input.startTime,
      endTime: input.endTime,
      minutes,
      supervisorId: input.supervisorId,
      courseId: input.courseId,
      note: input.note,
      createdBy: user.id,
      createdAt: ctx.clock.now(),
    });
    await recordAudit(tx, { userId: user.id, action: 'Create', tableName: 'make_up_sessions', recordId: id, ipAddress: ctx.ip, newValues: { studentId, ...input, minutes }, at: ctx.clock.now() });
    return toMakeUp((await selectMakeUps(tx, studentId)).find((m) => m.id === id)!);
  });
}

/** Delete a make-up session with a reason kept in the audit log (administrators; instructors their own). */
export async function deleteMakeUp(db: Db, user: User, studentId: number, sessionId: number, reason: string, ctx: Ctx): Promise<void> {
  await assertMayReadStudent(db, user, studentId);
  await db.transaction(async (tx) => {
    const row = await selectMakeUp(tx, studentId, sessionId);
    if (!row) throw notFound('Make-up session');
    assertMayDeleteMakeUp(user, row);
    await deleteMakeUpRow(tx, sessionId);
    await recordAudit(tx, {
      userId: user.id,
      action: 'Delete',
      tableName: 'make_up_sessions',
      recordId: sessionId,
      ipAddress: ctx.ip,
      oldValues: { studentId, date: row.sessionDate, startTime: row.startTime, endTime: row.endTime, minutes: row.minutes, supervisorId: row.supervisorId, reason },
      at: ctx.clock.now(),
    });
  });
}

// ---- A student's records ----

async function recordsOf(db: DbOrTx, studentId: number, from: string | undefined, to: string | undefined): Promise<z.infer<typeof studentRecordSchema>[]> {
  const rows = await selectStudentRecords(db, studentId, from, to);
  return rows.map(({ corrections, ...r }) => ({
    ...r,
    status: r.status as z.infer<typeof studentRecordSchema>['status'],
    source: r.source as z.infer<typeof studentRecordSchema>['source'],
    scanInTime: r.scanInTime?.toISOString() ?? null,
    scanOutTime: r.scanOutTime?.toISOString() ?? null,
    corrected: corrections > 0,
    // json_build_object writes PostgreSQL's timestamp text: the API speaks ISO.
    breaks: r.breaks.map((b) => ({ kind: b.kind, startedAt: new Date(b.startedAt).toISOString(), endedAt: b.endedAt == null ? null : new Date(b.endedAt).toISOString() })),
  }));
}

export async function studentRecords(db: DbOrTx, user: User, studentId: number, q: { from?: string; to?: string }): Promise<z.infer<typeof studentRecordSchema>[]> {
  await assertMayReadStudent(db, user, studentId);
  return recordsOf(db, studentId, q.from, q.to);
}

// ---- The time card ----

const TIME_CARD_MAX_DAYS = 731;

/**
 * GET /api/students/{id}/time-card.pdf: the student's days from–to (default: this month in the
 * school's time zone, up to today; a `to` after today is today: the card shows what happened) with
 * in/out times, minutes, status, make-up, corrections, totals and signature lines. Same
 * need-to-know as the hours; audited as an export.
 */
export async function studentTimeCard(
  db: DbOrTx,
  user: User,
  studentId: number,
  q: { from?: string; to?: string },
  ctx: Ctx,
): Promise<{ fileName: string; headers: Record<string, string>; body: Buffer }> {
  const student = await readableStudent(db, user, studentId);
  const { today, timeZone } = await schoolToday(db, ctx.clock);
  const to = q.to && q.to < today ? q.to : today;
  const from = q.from ?? `${to.slice(0, 8)}01`;
  const fieldError = (field: string, message: string) => badRequest(message, [{ field, message }]);
  if (from > to) throw fieldError('from', `from must not be after ${to} (the time card ends today, ${today}, at the latest)`);
  if (daysBetween(from, to) > TIME_CARD_MAX_DAYS) throw fieldError('from', 'from–to may span at most two years');

  const [ledger, records, makeUps] = await Promise.all([
    ledgersFor(db, [student], to, timeZone, ctx.clock.now()).then((m) => m.get(studentId)!),
    recordsOf(db, studentId, from, to),
    selectMakeUps(db, studentId),
  ]);
  const days = ledger.days.filter((d) => d.date >= from && d.date <= to);
  const byDate = <T>(key: (x: T) => string) => (a: T, b: T) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0);
  const now = ctx.clock.now();
  const body = await renderTimeCard({
    schoolName: await schoolName(db),
    generatedAt: `${localDate(now, timeZone)} ${localTimeOfDay(now, timeZone)}`,
    timeZone,
    student: { id: student.id, firstName: student.firstName, lastName: student.lastName, sisStudentId: student.sisStudentId },
    programName: student.programName,
    startDate: ledger.startDate,
    from,
    to,
    days: timeCardDays(
      days,
      // Oldest first; a day's records stay in class order (the query sorts them by start time).
      records.sort(byDate((r) => r.sessionDate)).map((r) => ({ ...r, scanInTime: r.scanInTime ? new Date(r.scanInTime) : null, scanOutTime: r.scanOutTime ? new Date(r.scanOutTime) : null })),
      makeUps
        .filter((m) => m.sessionDate >= from && m.sessionDate <= to)
        .sort(byDate((m) => `${m.sessionDate} ${m.startTime}`))
        .map((m) => ({ date: m.sessionDate, startTime: m.startTime, endTime: m.endTime, courseCode: m.courseCode })),
      timeZone,
    ),
    totals: timeCardTotals(days),
    sinceStart: { scheduledMinutes: ledger.totals.scheduledMinutes, creditedMinutes: ledger.totals.creditedMinutes, attendancePercent: ledger.attendancePercent },
    paymentPeriods: ledger.paymentPeriods,
  });
  // The SIS id goes into a header: keep it to characters every browser saves as they are.
  const who = (student.sisStudentId || String(student.id)).replace(/[^A-Za-z0-9._-]/g, '_');
  const fileName = `time-card-${who}-${from}-${to}.pdf`;
  await recordAudit(db, { userId: user.id, action: 'Export', tableName: 'time_card', recordId: studentId, ipAddress: ctx.ip, newValues: { studentId, from, to, fileName }, at: now });
  return { fileName, body, headers: { 'content-type': 'application/pdf', 'content-disposition': `attachment; filename="${fileName}"` } };
}

/** A record's history, for those who may read its student's hours (instructors: unknown ids get the same 403). */
export async function attendanceHistory(db: DbOrTx, user: User, recordId: number): Promise<AttendanceHistory> {
  await assertMayReadAttendanceRecord(db, user, recordId);
  return recordHistoryUnchecked(db, recordId);
}

/**
 * The student row a ledger is computed for (name and program included); undefined when there is
 * none. Unchecked: for a reader who is not staff (the student's own hours link).
 */
export function ledgerStudentUnchecked(db: DbOrTx, studentId: number): Promise<LedgerStudentRow | undefined> {
  return selectLedgerStudent(db, studentId);
}

/**
 * Retention's first step: freeze the hours of students who left before `before` (their ledger at
 * exit, kept for good) so that their attendance detail can go. Returns how many were frozen.
 */
export async function freezeHoursOfExitedStudents(db: Db, before: string, now: Date): Promise<number> {
  const { timeZone } = (await getSettings(db)).attendance;
  return freezeExitedStudents(db, before, now, async (student, asOf) => (await ledgersFor(db, [student], asOf, timeZone, now)).get(student.id)!);
}
