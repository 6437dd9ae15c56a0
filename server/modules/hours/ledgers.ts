// Ledgers loaded from the database for many students at once (ledger.ts computes one, purely).
import { POLICY_DEFAULTS } from '../../../common/program-policy.ts';
import { addDays, daysBetween } from '../../../common/dates.ts';
import type { Db, DbOrTx } from '../../db/client.ts';
import { heldMeetings, type ClassWindow } from '../attendance/service.ts';
import { closedDates as closedDatesOf } from '../calendar/service.ts';
import { programPolicy, timeClockVersions } from '../programs/service.ts';
import type { Settings } from '../../../common/settings.ts';
import { getSettings } from '../settings/service.ts';
import { computeLedger } from './ledger.ts';
import type { Ledger, LedgerCarry, LedgerSchedule } from './ledger-types.ts';
import { recordsStartDate, toLedgerOpening } from './opening-balances.ts';
import type { Interval } from './time-clock.ts';
import { freezeExitedStudents, ledgerOfTranscript, transcriptsOf } from './transcripts.ts';
import {
  selectLedgerBreaks,
  selectLedgerLeaves,
  selectLedgerMakeUps,
  selectLedgerRecords,
  selectLedgerRosters,
  selectLedgerWithdrawals,
  selectMeetingBreaks,
  selectSchedulesById,
  type LedgerStudentRow,
} from './queries.ts';
import { selectLedgerOpenings } from './balance-queries.ts';
import { sliceYielder } from '../../lib/event-loop-turns.ts';
import { inTurns } from '../../lib/in-turns.ts';

/** The policy that applies to a student: their program's, or the defaults (no payment periods) without a program. */
const NO_PROGRAM_POLICY = {
  paymentPeriods: [],
  excusedCapPercent: POLICY_DEFAULTS.excusedCapPercent,
  minimumAttendancePercent: POLICY_DEFAULTS.minimumAttendancePercent,
  sapCheckpointHours: [],
};

const NO_LEAVE_DAYS: ReadonlySet<string> = new Set();

/** Every date of the leaves. */
function leaveDays(leaves: { startDate: string; endDate: string }[]): ReadonlySet<string> {
  if (leaves.length === 0) return NO_LEAVE_DAYS;
  const dates = new Set<string>();
  for (const l of leaves) for (let d = l.startDate; d <= l.endDate; d = addDays(d, 1)) dates.add(d);
  return dates;
}

/** Statements one batch has in flight at once: the rest of the pool stays free for check-ins. */
const READ_CONNECTIONS = 3;

/** Up to this many records, their breaks are read by record id. */
const BREAKS_BY_ID_RECORDS = 20_000;

/** Before any meeting a school could have kept: where reads of a whole history start. */
const EARLIEST_DATE = '1900-01-01';

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
  /** Where the walk stood at asOf (none for a transcript). */
  carry?: LedgerCarry;
  /** The opening balance's LDA: the last date of attendance before the walk's first day. */
  openingLastDateOfAttendance?: string | null;
  /** The days of the student's leaves of absence. */
  leaveDates?: ReadonlySet<string>;
  withdrawalDate: string | null;
  expectedEndDate: string | null;
  /** Set when retention removed the records: the figures are the ones frozen at the exit. */
  transcript?: { exitDate: string; frozenAt: string };
};

/**
 * Students per ledgersFor call when a read walks many (the compliance reads, the hours export, the
 * refresher): kept ledgers walk a few days each, so a batch's statements are shared by many
 * students; the walk yields to waiting I/O every few milliseconds whatever the batch.
 */
export const LEDGER_BATCH_STUDENTS = 1000;

/**
 * `resume`: each student's kept carry (kept-ledgers.ts); given for all of them, only the days after
 * the carries are read and walked. `schoolSettings`: when the caller has read them already.
 */
export async function ledgersFor(
  db: DbOrTx,
  list: LedgerStudentRow[],
  asOf: string,
  timeZone: string,
  now: Date,
  resume?: ReadonlyMap<number, LedgerCarry>,
  schoolSettings?: Settings,
): Promise<Map<number, StudentLedger>> {
  const ids = list.map((s) => s.id);
  const carries = resume && list.every((s) => resume.has(s.id)) ? resume : undefined;
  const from = carries ? list.reduce((d, s) => (d == null || carries.get(s.id)!.through < d ? carries.get(s.id)!.through : d), null as string | null) : null;
  const since = from == null ? undefined : addDays(from, 1);
  const programIds = [...new Set(list.map((s) => s.programId))];
  const [rosterRows, recordRows, makeUpRows, leaveRows, withdrawalRows, openingRows, policyList, timeClockList, settings, transcripts] = await inTurns(
    READ_CONNECTIONS,
    [
      () => selectLedgerRosters(db, ids),
      () => selectLedgerRecords(db, ids, asOf, since),
      () => selectLedgerMakeUps(db, ids, asOf, since),
      () => selectLedgerLeaves(db, ids),
      () => selectLedgerWithdrawals(db, ids),
      () => selectLedgerOpenings(db, ids),
      () => Promise.all(programIds.map((id) => (id == null ? undefined : programPolicy(db, id)))),
      // The program's time-clock rules by date; a student without a program keeps the rules before them.
      () => Promise.all(programIds.map((id) => (id == null ? undefined : timeClockVersions(db, id)))),
      () => (schoolSettings ? Promise.resolve(schoolSettings) : getSettings(db)),
      () => transcriptsOf(db, ids),
    ],
  );
  const openingOf = new Map(openingRows.map((o) => [o.studentId, toLedgerOpening(o)]));
  // Which meetings anybody took attendance at: the others are for review, not absences.
  const rosteredIds = [...new Set(rosterRows.map((r) => r.scheduleId))];
  const scheduleIds = [...new Set([...rosteredIds, ...recordRows.map((r) => r.scheduleId)])];
  const [held, breaksOf, ledBreaks, scheduleRows] = await inTurns(READ_CONNECTIONS, [
    () => heldMeetings(db, rosteredIds, since ?? EARLIEST_DATE, asOf),
    // A few days' records: their breaks by id; a whole history: by student, rather than half a million ids.
    () =>
      selectLedgerBreaks(db, recordRows.length <= BREAKS_BY_ID_RECORDS ? { recordIds: recordRows.map((r) => r.id) } : { studentIds: ids, asOf, from: since }),
    () => selectMeetingBreaks(db, scheduleIds, asOf, since),
    () => selectSchedulesById(db, scheduleIds),
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
  // One object per schedule, shared by every student on its roster (the walk only reads them); records
  // in classes the student is not on the roster of still count as attended: those schedules off it.
  const ledgerSchedule = (r: (typeof scheduleRows)[number], onRoster: boolean): LedgerSchedule => ({
    scheduleId: r.id,
    dayOfWeek: r.dayOfWeek,
    startTime: r.startTime,
    endTime: r.endTime,
    courseStartDate: r.courseStartDate,
    courseEndDate: r.courseEndDate,
    holidayExceptions: r.holidayExceptions,
    makeupDates: r.makeupDates,
    onRoster,
    breaks: r.breaks,
  });
  const onRoster = new Map(scheduleRows.map((r) => [r.id, ledgerSchedule(r, true)]));
  const offRoster = new Map(scheduleRows.map((r) => [r.id, ledgerSchedule(r, false)]));
  const rosterOf = new Map<number, number[]>();
  for (const r of rosterRows) (rosterOf.get(r.studentId) ?? rosterOf.set(r.studentId, []).get(r.studentId)!).push(r.scheduleId);
  const recordsOf = group(recordRows);
  const makeUpsOf = group(makeUpRows);
  const leavesOf = group(leaveRows);
  const withdrawalOf = new Map(withdrawalRows.map((w) => [w.studentId, w]));
  // Closed days per program and first date: loaded once, then read without an await per student.
  const closures = new Map<string, Set<string>>();
  if (classWindows.size > CLASS_WINDOWS_MAX) classWindows.clear();
  const result = new Map<number, StudentLedger>();
  const pause = sliceYielder();
  for (const s of list) {
    await pause();
    // Retention removed this student's records: their hours are the ones frozen at their exit.
    const transcript = transcripts.get(s.id);
    if (transcript) {
      result.set(s.id, ledgerOfTranscript(transcript));
      continue;
    }
    const roster = rosterOf.get(s.id) ?? [];
    const records = recordsOf.get(s.id) ?? [];
    const schedules: LedgerSchedule[] = roster.flatMap((id) => onRoster.get(id) ?? []);
    for (const id of new Set(records.map((r) => r.scheduleId))) if (!roster.includes(id) && offRoster.has(id)) schedules.push(offRoster.get(id)!);
    const from = earliestDate(s.enrollmentDate, schedules, asOf);
    const closureKey = `${s.programId}|${from}`;
    let closedDates = closures.get(closureKey);
    if (!closedDates) closures.set(closureKey, (closedDates = await closedDatesOf(db, { from, to: asOf, programId: s.programId })));
    const policy = policies.get(s.programId);
    const leaves = leavesOf.get(s.id) ?? [];
    const leaveDates = leaveDays(leaves);
    const withdrawal = withdrawalOf.get(s.id);
    const ledger = computeLedger(
      {
        enrollmentDate: s.enrollmentDate,
        asOf,
        timeZone,
        schedules,
        closedDates,
        records,
        makeUps: makeUpsOf.get(s.id) ?? [],
        policy: policy ?? NO_PROGRAM_POLICY,
        timeClock: timeClocks.get(s.programId),
        windowCache: classWindows,
        leaveDates,
        withdrawalDate: withdrawal?.withdrawalDate ?? null,
        now,
        recordsFrom: recordsStartDate(settings.attendance.recordsStartDate, policy),
        opening: openingOf.get(s.id) ?? null,
        heldMeetings: held,
        meetingBreaks: meetingBreaksOf,
      },
      carries?.get(s.id),
    );
    const leaveLength = leaves.reduce((n, l) => n + daysBetween(l.startDate, l.endDate) + 1, 0);
    // Onto the computed ledger itself: a compliance read makes thousands of these.
    result.set(
      s.id,
      Object.assign(ledger, {
        openingLastDateOfAttendance: openingOf.get(s.id)?.lastDateOfAttendance ?? null,
        leaveDates,
        // Once a withdrawal is recorded, its LDA is the one frozen with it.
        lastDateOfAttendance: withdrawal ? withdrawal.lastDateOfAttendance : ledger.lastDateOfAttendance,
        withdrawalDate: withdrawal?.withdrawalDate ?? null,
        expectedEndDate: ledger.startDate && policy ? addDays(ledger.startDate, Math.ceil(policy.programWeeks * 7) - 1 + leaveLength) : null,
      }),
    );
  }
  return result;
}

/**
 * Retention's first step: freeze the hours of students who left before `before` (their ledger at
 * exit, kept for good) so that their attendance detail can go. Returns how many were frozen.
 */
export async function freezeHoursOfExitedStudents(db: Db, before: string, now: Date): Promise<number> {
  const { timeZone } = (await getSettings(db)).attendance;
  return freezeExitedStudents(db, before, now, async (student, asOf) => (await ledgersFor(db, [student], asOf, timeZone, now)).get(student.id)!);
}
