// What the ledger is computed from (a student's schedules, records, make-ups, policy and opening balance) and what it answers.
import type { AttendanceStatus } from '../../../common/constants.ts';
import type { LedgerCarry, LedgerDay, LedgerTotals, PaymentPeriodProgress, SapCheckpoint } from '../../../common/hours.ts';
import type { PaymentPeriodPlan } from '../../../common/program-policy.ts';
import type { ClassWindow, MeetingCalendar } from '../attendance/service.ts';
import type { Interval, TimeClockVersionRules } from './time-clock.ts';

export type LedgerSchedule = MeetingCalendar & {
  scheduleId: number;
  startTime: string;
  endTime: string;
  /** On the student's roster: its meetings are scheduled for the student. Off it, only its records count. */
  onRoster: boolean;
  /** Scheduled breaks in school time ('HH:MM'): not class time, so neither scheduled nor credited. */
  breaks?: readonly { start: string; end: string }[];
};

export type LedgerRecord = {
  scheduleId: number;
  sessionDate: string;
  status: AttendanceStatus;
  scanInTime: Date | null;
  scanOutTime: Date | null;
  minutesAttended: number | null;
  /**
   * The student's breaks between check-in and check-out (ms since the epoch, in order; end null:
   * never came back): the record's punch pairs are [in, b1.start], [b1.end, b2.start] … [bn.end, out].
   */
  breaks?: readonly { startedAt: number; endedAt: number | null }[];
};

export type LedgerPolicy = {
  paymentPeriods: PaymentPeriodPlan[];
  excusedCapPercent: number;
  minimumAttendancePercent: number;
  sapCheckpointHours: number[];
};

/**
 * Hours from before the school kept attendance in Muster (a school that adopted it mid-program):
 * scheduled and credited before `beforeDate`, by payment period where the school knows them.
 */
export type LedgerOpening = {
  beforeDate: string;
  scheduledMinutes: number;
  creditedMinutes: number;
  /** Null: the credited minutes fill the payment periods in order. */
  periodCredits: { number: number; creditedMinutes: number; completedOn: string | null }[] | null;
  lastDateOfAttendance: string | null;
};

export type LedgerInput = {
  /** The student's enrolment date; null: the first meeting of their roster. */
  enrollmentDate: string | null;
  asOf: string;
  timeZone: string;
  schedules: LedgerSchedule[];
  /** School-local dates the school (or the student's program) is closed. */
  closedDates: ReadonlySet<string>;
  /** Days of the student's approved leaves of absence: neither scheduled nor absent (decision 016). */
  leaveDates?: ReadonlySet<string>;
  /** A recorded withdrawal: nothing is scheduled after it. */
  withdrawalDate?: string | null;
  records: LedgerRecord[];
  makeUps: { date: string; minutes: number }[];
  policy: LedgerPolicy;
  /**
   * The program's time-clock rules, in date order (time-clock.ts rulesOn): how punches become
   * minutes. Absent: Muster's behaviour before time-clock rules (a student without a program).
   */
  timeClock?: readonly TimeClockVersionRules[];
  /** Shared between students and requests: a class window per time zone, date and class times. */
  windowCache?: Map<string, ClassWindow>;
  /**
   * The moment the ledger is read. A meeting counts (scheduled, attended, excused or absent) once
   * it has ended; before that its minutes are the day's pendingMinutes. Absent: every meeting up
   * to asOf has ended.
   */
  now?: Date;
  /**
   * The date from which Muster keeps attendance (the school's or the program's): nothing before it
   * is scheduled or absent. A student's opening balance brings its own date and the hours before.
   */
  recordsFrom?: string | null;
  opening?: LedgerOpening | null;
  /**
   * Meetings at which anything was recorded for anyone, or a QR session ran (`scheduleId|date`).
   * Given, an ended meeting outside it is unrecorded: shown for review, never counted as absences.
   */
  heldMeetings?: ReadonlySet<string>;
  /** Instructor-led breaks by meeting (`scheduleId|date`): not class time, for anyone. */
  meetingBreaks?: ReadonlyMap<string, readonly Interval[]>;
};

export type LedgerDayRow = LedgerDay;
export type { LedgerCarry };

export type Ledger = {
  startDate: string | null;
  lastDateOfAttendance: string | null;
  totals: LedgerTotals;
  attendancePercent: number | null;
  paymentPeriods: PaymentPeriodProgress[];
  sapCheckpoints: SapCheckpoint[];
  /**
   * Every day from the first one anything can happen on (never before startDate) to asOf, in order;
   * resumed from a carry, only the days after it.
   */
  days: LedgerDayRow[];
  firstScheduledDate: string | null;
  firstGapDate: string | null;
};

/** A ledger as computeLedger answers it: with where its walk stood at asOf. */
export type ComputedLedger = Ledger & { carry: LedgerCarry };
