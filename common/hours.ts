import { z } from 'zod';
import { breakPunchSchema } from './attendance.ts';
import { ATTENDANCE_SOURCES, ATTENDANCE_STATUSES } from './constants.ts';
import { daysBetween } from './dates.ts';

import { dbId, queryDate, queryInt } from './validation.ts';

// The clock-hour ledger's contracts (decision 014; terms from COMPLIANCE.md). Minutes are exact
// integers everywhere; hours appear only where the contract names them (policy, periods, CSV).
// The program policy is in program-policy.ts, closures in calendar.ts, dates in dates.ts, the
// meeting rule in meeting-rule.ts, make-up sessions in make-ups.ts and opening balances in
// opening-balances.ts.

// ---- The ledger ----

export const PERIOD_STATUSES = ['not_started', 'in_progress', 'completed'] as const;
export const SAP_STATUSES = ['pending', 'met', 'not_met'] as const;
export type PeriodStatus = (typeof PERIOD_STATUSES)[number];
export type SapStatus = (typeof SAP_STATUSES)[number];

export const ledgerDaySchema = z.object({
  date: z.string(),
  scheduledMinutes: z.number().int(),
  attendedMinutes: z.number().int(),
  excusedMinutes: z.number().int(),
  makeUpMinutes: z.number().int(),
  /** Attended + make-up + the excused minutes the cap let count, that day. */
  creditedMinutes: z.number().int(),
  /** The school or the student's program was closed. */
  closed: z.boolean(),
  /** The student was on an approved leave of absence. */
  onLeave: z.boolean(),
  /**
   * Minutes of that day's meetings that have not ended yet (today's later or running classes):
   * not scheduled, attended or absent until they end.
   */
  pendingMinutes: z.number().int(),
  /**
   * Minutes of that day's meetings that ended with nothing recorded for anyone and no QR session:
   * not scheduled nor absent until attendance is taken or the meeting cancelled (decision 043; the list
   * to review is GET /api/attendance/meetings-to-review).
   */
  unrecordedMinutes: z.number().int(),
  // The time-clock rules' steps (decision 050; common/time-clock.ts): attendedMinutes = rounded − deducted − capped.
  /** The punches as recorded, inside the classes; a check-in without a check-out adds nothing here. */
  rawMinutes: z.number().int(),
  /** After grace, rounding and the missed-punch rule. */
  roundedMinutes: z.number().int(),
  /** The meal deduction. */
  deductedMinutes: z.number().int(),
  /** Over the daily or weekly cap: kept and shown, not counted. */
  cappedMinutes: z.number().int(),
  /** What meetings without a check-out would earn under no_credit: counted once an exception is approved. */
  pendingExceptionMinutes: z.number().int(),
  /** Of attended, minutes credited to the class end for a missing check-out (auto_check_out_flagged): for review. */
  autoCheckOutMinutes: z.number().int(),
});
export type LedgerDay = z.infer<typeof ledgerDaySchema>;

export const ledgerTotalsSchema = z.object({
  /** Scheduled and credited include the opening balance's (hours before Muster kept attendance). */
  scheduledMinutes: z.number().int(),
  attendedMinutes: z.number().int(),
  excusedMinutes: z.number().int(),
  excusedCreditedMinutes: z.number().int(),
  excusedUncreditedMinutes: z.number().int(),
  makeUpMinutes: z.number().int(),
  creditedMinutes: z.number().int(),
  /** Of those, the opening balance's: scheduled and credited before the date Muster keeps attendance from. */
  openingScheduledMinutes: z.number().int(),
  openingCreditedMinutes: z.number().int(),
  /** The days' time-clock steps added up (ledgerDaySchema); 0 in transcripts frozen before they existed. */
  rawMinutes: z.number().int().default(0),
  roundedMinutes: z.number().int().default(0),
  deductedMinutes: z.number().int().default(0),
  cappedMinutes: z.number().int().default(0),
  pendingExceptionMinutes: z.number().int().default(0),
  autoCheckOutMinutes: z.number().int().default(0),
});
export type LedgerTotals = z.infer<typeof ledgerTotalsSchema>;

export const paymentPeriodProgressSchema = z.object({
  number: z.number().int(),
  startHours: z.number(),
  endHours: z.number(),
  weeks: z.number(),
  creditedMinutes: z.number().int(),
  excusedCreditedMinutes: z.number().int(),
  excusedCapMinutes: z.number().int(),
  status: z.enum(PERIOD_STATUSES),
  /** The first day the period's hours were reached and its weeks had elapsed. */
  completedOn: z.string().nullable(),
  /** When the period began for this student: their start, or the day after the previous period was completed. */
  startedOn: z.string().nullable(),
  /** The day the period's weeks elapse (from startedOn). */
  weeksEndOn: z.string().nullable(),
  hoursRemaining: z.number(),
});
export type PaymentPeriodProgress = z.infer<typeof paymentPeriodProgressSchema>;

export const sapCheckpointSchema = z.object({
  atHours: z.number(),
  status: z.enum(SAP_STATUSES),
  evaluatedOn: z.string().nullable(),
  attendancePercent: z.number().nullable(),
});
export type SapCheckpoint = z.infer<typeof sapCheckpointSchema>;

export const studentHoursSchema = z.object({
  studentId: z.number().int(),
  programId: z.number().int().nullable(),
  asOf: z.string(),
  enrollmentDate: z.string().nullable(),
  lastDateOfAttendance: z.string().nullable(),
  /** The student's start plus the program's weeks, pushed out by the days of their leaves. */
  expectedEndDate: z.string().nullable(),
  /** A recorded withdrawal: nothing is scheduled after it, and its LDA is frozen. */
  withdrawalDate: z.string().nullable(),
  totals: ledgerTotalsSchema,
  /** credited ÷ scheduled minutes × 100, one decimal; null before anything was scheduled. */
  attendancePercent: z.number().nullable(),
  paymentPeriods: z.array(paymentPeriodProgressSchema),
  sapCheckpoints: z.array(sapCheckpointSchema),
  days: z.array(ledgerDaySchema),
  /**
   * Set once retention removed the student's attendance detail (COMPLIANCE.md, "Retention"): the
   * figures above are the ones frozen at their exit, and there are no days. Absent otherwise.
   */
  transcript: z.object({ exitDate: z.string(), frozenAt: z.string() }).optional(),
});
export type StudentHours = z.infer<typeof studentHoursSchema>;

/** What a transcript keeps of a ledger: everything but its days (server/db/schema/transcripts.ts). */
export const frozenHoursSchema = z.object({
  startDate: z.string().nullable(),
  lastDateOfAttendance: z.string().nullable(),
  withdrawalDate: z.string().nullable(),
  expectedEndDate: z.string().nullable(),
  totals: ledgerTotalsSchema,
  attendancePercent: z.number().nullable(),
  paymentPeriods: z.array(paymentPeriodProgressSchema),
  sapCheckpoints: z.array(sapCheckpointSchema),
});
export type FrozenHours = z.infer<typeof frozenHoursSchema>;

export const studentHoursQuerySchema = z
  .object({ asOf: queryDate('asOf'), from: queryDate('from'), to: queryDate('to') })
  .refine((q) => !q.from || !q.to || q.from <= q.to, { path: ['to'], message: 'to must not be before from' })
  .refine((q) => !q.from || !q.to || daysBetween(q.from, q.to) <= 731, { path: ['to'], message: 'from–to may span at most two years' });

export const HOURS_SORT_KEYS = ['lastName', 'firstName', 'sisStudentId'] as const;
export const hoursListQuerySchema = z.object({
  programId: dbId('programId').optional(),
  asOf: queryDate('asOf'),
  search: z.string().trim().max(200).optional(),
  sort: z.enum(HOURS_SORT_KEYS, { error: `sort must be one of ${HOURS_SORT_KEYS.join(', ')}` }).optional(),
  order: z.enum(['asc', 'desc'], { error: 'order must be asc or desc' }).optional(),
  page: queryInt('page', 1, 1_000_000).optional(),
  pageSize: queryInt('pageSize', 1, 200).optional(),
});

export const hoursSummaryRowSchema = z.object({
  studentId: z.number().int(),
  sisStudentId: z.string().nullable(),
  firstName: z.string(),
  lastName: z.string(),
  programId: z.number().int().nullable(),
  programName: z.string().nullable(),
  status: z.string(),
  totals: ledgerTotalsSchema,
  attendancePercent: z.number().nullable(),
  /** The first payment period not yet completed (null: all completed, or no policy periods). */
  currentPaymentPeriod: z.number().int().nullable(),
  hoursRemaining: z.number().nullable(),
  /** The latest evaluated checkpoint's status, `pending` before the first. */
  sapStatus: z.enum(SAP_STATUSES),
  lastDateOfAttendance: z.string().nullable(),
});
export type HoursSummaryRow = z.infer<typeof hoursSummaryRowSchema>;

export const hoursExportQuerySchema = z
  .object({ programId: dbId('programId').optional(), from: queryDate('from'), to: queryDate('to') })
  .refine((q) => !q.from || !q.to || q.from <= q.to, { path: ['to'], message: 'to must not be before from' });

/**
 * The ledger's time-clock steps as CSV columns (the hours export, the monthly report), in hours to
 * two decimals like their other hour columns.
 */
export const TIME_CLOCK_HOURS_COLUMNS = ['rawHours', 'roundedHours', 'deductedHours', 'cappedHours', 'pendingExceptionHours', 'autoCheckOutHours'] as const;

type TimeClockHours = Record<(typeof TIME_CLOCK_HOURS_COLUMNS)[number], number>;

/** Each of those columns and the ledger day's minutes it adds up. */
const TIME_CLOCK_HOURS_MINUTES = {
  rawHours: 'rawMinutes',
  roundedHours: 'roundedMinutes',
  deductedHours: 'deductedMinutes',
  cappedHours: 'cappedMinutes',
  pendingExceptionHours: 'pendingExceptionMinutes',
  autoCheckOutHours: 'autoCheckOutMinutes',
} as const satisfies Record<(typeof TIME_CLOCK_HOURS_COLUMNS)[number], keyof LedgerDay>;

/** The time-clock columns of some ledger days: each step's minutes added up, then as hours (two decimals). */
export function timeClockHours(days: readonly Pick<LedgerDay, (typeof TIME_CLOCK_HOURS_MINUTES)[keyof typeof TIME_CLOCK_HOURS_MINUTES]>[]): TimeClockHours {
  const out = {} as TimeClockHours;
  for (const column of TIME_CLOCK_HOURS_COLUMNS) {
    const key = TIME_CLOCK_HOURS_MINUTES[column];
    out[column] = hoursOfMinutes(days.reduce((n, d) => n + d[key], 0));
  }
  return out;
}

export const HOURS_EXPORT_COLUMNS = [
  'sisStudentId',
  'studentId',
  'firstName',
  'lastName',
  'programName',
  'from',
  'to',
  'scheduledHours',
  'attendedHours',
  'excusedHours',
  'makeUpHours',
  'creditedHours',
  'attendancePercent',
  'paymentPeriod',
  'hoursToNextPaymentPeriod',
  'lastDateOfAttendance',
  // The time-clock rules' steps (decision 050), appended so that files read by position keep their
  // columns: attendedHours = roundedHours − deductedHours − cappedHours.
  ...TIME_CLOCK_HOURS_COLUMNS,
] as const;

export const timeCardQuerySchema = z
  .object({ from: queryDate('from'), to: queryDate('to') })
  .refine((q) => !q.from || !q.to || q.from <= q.to, { path: ['to'], message: 'to must not be before from' })
  .refine((q) => !q.from || !q.to || daysBetween(q.from, q.to) <= 731, { path: ['to'], message: 'from–to may span at most two years' });

// ---- A student's records ----

export const studentRecordSchema = z.object({
  id: z.number().int(),
  scheduleId: z.number().int(),
  courseCode: z.string(),
  courseName: z.string(),
  sessionDate: z.string(),
  status: z.enum(ATTENDANCE_STATUSES),
  scanInTime: z.string().nullable(),
  scanOutTime: z.string().nullable(),
  minutesAttended: z.number().int().nullable(),
  source: z.enum(ATTENDANCE_SOURCES),
  isManualOverride: z.boolean(),
  /** Staff changed it after it was captured: GET /api/attendance/{id}/history has the original. */
  corrected: z.boolean(),
  /** The breaks punched between the check-in and the check-out, in order (decision 051). */
  breaks: z.array(breakPunchSchema),
});
export type StudentRecord = z.infer<typeof studentRecordSchema>;
export const studentRecordsQuerySchema = z
  .object({ from: queryDate('from'), to: queryDate('to') })
  .refine((q) => !q.from || !q.to || q.from <= q.to, { path: ['to'], message: 'to must not be before from' });

// ---- Record history ----

export const recordValuesSchema = z.object({
  status: z.enum(ATTENDANCE_STATUSES),
  scanInTime: z.string().nullable(),
  scanOutTime: z.string().nullable(),
  minutesAttended: z.number().int().nullable(),
  source: z.enum(ATTENDANCE_SOURCES),
  overrideReason: z.string().nullable(),
});
export type RecordValues = z.infer<typeof recordValuesSchema>;

export const attendanceHistorySchema = z.object({
  recordId: z.number().int(),
  studentId: z.number().int(),
  scheduleId: z.number().int(),
  sessionDate: z.string(),
  /** The record as first captured: by a scan, the auto-absent job, or the staff member who wrote it. */
  original: recordValuesSchema.extend({ capturedAt: z.string(), capturedBy: z.string().nullable() }),
  changes: z.array(
    z.object({
      at: z.string(),
      by: z.string().nullable(),
      reason: z.string(),
      before: recordValuesSchema,
      after: recordValuesSchema,
    }),
  ),
  current: recordValuesSchema,
});
export type AttendanceHistory = z.infer<typeof attendanceHistorySchema>;

const round2 = (n: number) => Math.round(n * 100) / 100;
/** Minutes as clock hours to two decimals, as every CSV and report gives them. */
export const hoursOfMinutes = (minutes: number) => round2(minutes / 60);

/**
 * Where a ledger's walk stood at the end of a day (`through`): enough to walk on from the next day
 * and answer exactly what walking from the start would (the server keeps it per student,
 * docs/decisions/056-kept-ledger-totals.md). Plain JSON.
 */
export type LedgerCarry = {
  through: string;
  totals: LedgerTotals;
  lastDateOfAttendance: string | null;
  /** The first payment period whose hours are not reached. */
  current: number;
  periods: { credited: number; excusedCredited: number; hoursReachedOn: string | null }[];
  checkpoints: { evaluatedOn: string | null; percent: number | null; met: boolean | null }[];
  /** Minutes counted so far in the week of `through` (the weekly cap). */
  countedThisWeek: number;
  firstScheduledDate: string | null;
  /** The first day with scheduled time neither attended nor credited as excused (make-up owed). */
  firstGapDate: string | null;
  /** That time, over all days walked. */
  gapMinutes: number;
};

/** GET /api/hours/recomputing: students whose kept hours are being recomputed (a policy change, a new installation). */
export const recomputingHoursSchema = z.object({ students: z.number().int() });
