import { z } from 'zod';
import { breakPunchSchema } from './attendance.ts';
import { ATTENDANCE_SOURCES, ATTENDANCE_STATUSES, PROGRAM_HOURS } from './constants.ts';
import { DAY_NAMES } from './schedules.ts';
import { clockTime, dbId, isoDate, optionalDbId, optionalIsoDate, queryDate, queryInt } from './validation.ts';

// The clock-hour ledger's contracts (issue 12; terms from COMPLIANCE.md). Minutes are exact
// integers everywhere; hours appear only where the contract names them (policy, periods, CSV).

// ---- Program policy ----

export const POLICY_DEFAULTS = {
  academicYearHours: 900,
  academicYearWeeks: 26,
  excusedCapPercent: 10,
  minimumAttendancePercent: 80,
  withdrawAfterDays: 14,
  makeUpDeadlineDays: 14,
  makeUpThresholdMinutes: 30,
  makeUpCapPercent: null,
  attendanceEditLockDays: null,
  consecutiveAbsenceAlert: null,
  alertCopyToStudent: false,
} as const;
/** The federal ceiling on excused absences that count toward a payment period. */
export const EXCUSED_CAP_CEILING_PERCENT = 10;

const numIn = (label: string, min: number, max: number, step?: number) => {
  let n = z.number({ error: `${label} must be a number` }).min(min, `${label} must be at least ${min}`).max(max, `${label} must be at most ${max}`);
  if (step) n = n.multipleOf(step, `${label} must be a multiple of ${step}`);
  return n;
};
const intIn = (label: string, min: number, max: number) =>
  z.number({ error: `${label} must be a whole number` }).int(`${label} must be a whole number`).min(min, `${label} must be at least ${min}`).max(max, `${label} must be at most ${max}`);

/**
 * PUT /api/programs/{id}/policy. Every field may be left out or null: it then takes its default
 * (programHours from the active courses, programWeeks from the academic year, checkpoints at the
 * payment periods' ends). programHours is the program's durationHours, one figure (decision 040):
 * left out it stays as it is, null clears it, and its bound and steps are the program's.
 */
export const programPolicyInputSchema = z
  .object({
    programHours: numIn('programHours', PROGRAM_HOURS.min, PROGRAM_HOURS.max).nullish(),
    programWeeks: numIn('programWeeks', 1, 520, 0.5).nullish(),
    academicYearHours: numIn('academicYearHours', 900, 10_000, 0.5).nullish(),
    academicYearWeeks: numIn('academicYearWeeks', 26, 104, 0.5).nullish(),
    excusedCapPercent: numIn('excusedCapPercent', 0, EXCUSED_CAP_CEILING_PERCENT, 0.1).nullish(),
    minimumAttendancePercent: numIn('minimumAttendancePercent', 0, 100, 0.1).nullish(),
    sapCheckpointHours: z
      .array(numIn('sapCheckpointHours', 1, 10_000, 0.5), { error: 'sapCheckpointHours must be a list of hours' })
      .max(40, 'sapCheckpointHours may have at most 40 checkpoints')
      .refine((a) => a.every((h, i) => i === 0 || h > a[i - 1]!), 'sapCheckpointHours must be in increasing order')
      .nullish(),
    withdrawAfterDays: intIn('withdrawAfterDays', 1, 14).nullish(),
    makeUpDeadlineDays: intIn('makeUpDeadlineDays', 0, 365).nullish(),
    makeUpCapPercent: numIn('makeUpCapPercent', 0, 100, 0.1).nullish(),
    /** Make-up owed is listed from this many minutes on (default 30). */
    makeUpThresholdMinutes: intIn('makeUpThresholdMinutes', 0, 600).nullish(),
    attendanceEditLockDays: intIn('attendanceEditLockDays', 1, 3650).nullish(),
    /** E-mail staff when a student misses this many meetings of a class in a row (null: off). */
    consecutiveAbsenceAlert: intIn('consecutiveAbsenceAlert', 2, 30).nullish(),
    /** Also tell the student (their e-mail on file; SMS where switched on). */
    alertCopyToStudent: z.boolean({ error: 'alertCopyToStudent must be true or false' }).nullish(),
    /** The date from which Muster keeps this program's attendance (null: the school's, Settings › Attendance). */
    recordsStartDate: optionalIsoDate('recordsStartDate'),
  })
  .strict();
export type ProgramPolicyInput = z.output<typeof programPolicyInputSchema>;

export const paymentPeriodPlanSchema = z.object({
  number: z.number().int(),
  startHours: z.number(),
  endHours: z.number(),
  weeks: z.number(),
});
export type PaymentPeriodPlan = z.infer<typeof paymentPeriodPlanSchema>;

export const programPolicySchema = z.object({
  programId: z.number().int(),
  programHours: z.number(),
  programWeeks: z.number(),
  academicYearHours: z.number(),
  academicYearWeeks: z.number(),
  excusedCapPercent: z.number(),
  minimumAttendancePercent: z.number(),
  sapCheckpointHours: z.array(z.number()),
  withdrawAfterDays: z.number().int(),
  makeUpDeadlineDays: z.number().int(),
  makeUpCapPercent: z.number().nullable(),
  makeUpThresholdMinutes: z.number().int(),
  /** Records older than this many days can be changed by super_admin only, with a reason (null: never locked). */
  attendanceEditLockDays: z.number().int().nullable(),
  consecutiveAbsenceAlert: z.number().int().nullable(),
  alertCopyToStudent: z.boolean(),
  /** This program's own records start date; null: the school's applies. */
  recordsStartDate: z.string().nullable(),
  /** Which values were set for this program (false: the default shown is in force). */
  isSet: z.object({ programHours: z.boolean(), programWeeks: z.boolean(), sapCheckpointHours: z.boolean() }),
  /** The payment periods these values give (COMPLIANCE.md). */
  paymentPeriods: z.array(paymentPeriodPlanSchema),
  updatedAt: z.string().nullable(),
});
export type ProgramPolicy = z.infer<typeof programPolicySchema>;

/** programWeeks' default: the program's share of an academic year's weeks, rounded up. */
export function defaultProgramWeeks(programHours: number, academicYearHours: number, academicYearWeeks: number): number {
  return Math.ceil((programHours / academicYearHours) * academicYearWeeks);
}

/**
 * Payment periods of a clock-hour program (COMPLIANCE.md): each full academic year is two periods of
 * half its hours and weeks; a remainder over half a year is two halves, a smaller one is one period;
 * a program of a year or less is two halves. Hours and weeks may be halves (450.5, 13.5).
 */
export function paymentPeriodPlan(programHours: number, programWeeks: number, academicYearHours: number, academicYearWeeks: number): PaymentPeriodPlan[] {
  if (!(programHours > 0) || !(programWeeks > 0)) return [];
  const parts: { hours: number; weeks: number }[] = [];
  const half = (h: number, w: number) => parts.push({ hours: h / 2, weeks: w / 2 }, { hours: h / 2, weeks: w / 2 });
  if (programHours <= academicYearHours) {
    half(programHours, programWeeks);
  } else {
    const fullYears = Math.floor(programHours / academicYearHours);
    for (let y = 0; y < fullYears; y++) half(academicYearHours, academicYearWeeks);
    const restHours = programHours - fullYears * academicYearHours;
    const restWeeks = Math.max(0, programWeeks - fullYears * academicYearWeeks);
    if (restHours > academicYearHours / 2) half(restHours, restWeeks);
    else if (restHours > 0) parts.push({ hours: restHours, weeks: restWeeks });
  }
  let start = 0;
  return parts.map((p, i) => {
    const period = { number: i + 1, startHours: round2(start), endHours: round2(start + p.hours), weeks: round2(p.weeks) };
    start += p.hours;
    return period;
  });
}

const round2 = (n: number) => Math.round(n * 100) / 100;

// ---- School calendar ----

export const closureInputSchema = z
  .object({
    startDate: isoDate('startDate'),
    endDate: isoDate('endDate'),
    name: z.string({ error: 'name is required' }).trim().min(1, 'name is required').max(200, 'name must be at most 200 characters'),
    programId: optionalDbId('programId'),
  })
  .strict()
  .refine((c) => c.endDate >= c.startDate, { path: ['endDate'], message: 'endDate must not be before startDate' })
  .refine((c) => daysBetween(c.startDate, c.endDate) < 366, { path: ['endDate'], message: 'A closure may last at most a year' });

export const closureSchema = z.object({
  id: z.number().int(),
  startDate: z.string(),
  endDate: z.string(),
  name: z.string(),
  programId: z.number().int().nullable(),
  programName: z.string().nullable(),
  createdAt: z.string(),
});
export type Closure = z.infer<typeof closureSchema>;
export const closureListQuerySchema = z
  .object({ from: queryDate('from'), to: queryDate('to'), programId: dbId('programId').optional() })
  .refine((q) => !q.from || !q.to || q.from <= q.to, { path: ['to'], message: 'to must not be before from' });

// ---- Make-up sessions ----

export const makeUpInputSchema = z
  .object({
    date: isoDate('date'),
    startTime: clockTime('startTime'),
    endTime: clockTime('endTime'),
    supervisorId: dbId('supervisorId', { required: 'supervisorId is required' }),
    courseId: optionalDbId('courseId'),
    note: z.string().trim().max(1000, 'note must be at most 1000 characters').nullish().transform((v) => v || null),
  })
  .strict()
  .refine((m) => m.endTime > m.startTime, { path: ['endTime'], message: 'endTime must be after startTime' });
export type MakeUpInput = z.output<typeof makeUpInputSchema>;

export const makeUpSessionSchema = z.object({
  id: z.number().int(),
  studentId: z.number().int(),
  date: z.string(),
  startTime: z.string(),
  endTime: z.string(),
  minutes: z.number().int(),
  supervisorId: z.number().int(),
  supervisorName: z.string(),
  courseId: z.number().int().nullable(),
  courseCode: z.string().nullable(),
  note: z.string().nullable(),
  createdAt: z.string(),
});
export type MakeUpSession = z.infer<typeof makeUpSessionSchema>;

export const makeUpDeleteSchema = z
  .object({ reason: z.string({ error: 'reason is required' }).trim().min(1, 'reason is required').max(500, 'reason must be at most 500 characters') })
  .strict();
export const makeUpParamsSchema = z.object({ id: dbId('id'), sessionId: dbId('sessionId') });

// ---- Opening balances (a school that starts mid-program; COMPLIANCE.md) ----

const hoursIn = (label: string) => numIn(label, 0, 20_000, 0.01);

/**
 * PUT /api/students/{id}/opening-balance: the hours a student had before `beforeDate`, the date from
 * which Muster keeps their attendance (default: the program's or the school's records start date).
 * `periods` gives the credited hours of each payment period (they must add up to creditedHours);
 * left out, the credited hours fill the periods in order.
 */
export const openingBalanceInputSchema = z
  .object({
    beforeDate: isoDate('beforeDate').optional(),
    scheduledHours: hoursIn('scheduledHours'),
    creditedHours: hoursIn('creditedHours'),
    periods: z
      .array(
        z
          .object({
            number: z.number({ error: 'number must be a payment period number' }).int('number must be a whole number').min(1, 'number must be at least 1').max(40, 'number must be at most 40'),
            creditedHours: hoursIn('creditedHours'),
            completedOn: optionalIsoDate('completedOn'),
          })
          .strict(),
        { error: 'periods must be a list of payment periods' },
      )
      .max(40, 'periods may have at most 40 payment periods')
      .refine((a) => new Set(a.map((p) => p.number)).size === a.length, 'Each payment period may appear once')
      .nullish(),
    lastDateOfAttendance: optionalIsoDate('lastDateOfAttendance'),
    note: z.string({ error: 'note is required' }).trim().min(1, 'note is required: where these hours come from').max(1000, 'note must be at most 1000 characters'),
  })
  .strict()
  .refine((b) => !b.periods || Math.abs(b.periods.reduce((n, p) => n + p.creditedHours, 0) - b.creditedHours) < 0.005, {
    path: ['periods'],
    message: "The payment periods' credited hours must add up to creditedHours",
  })
  .refine((b) => !b.lastDateOfAttendance || !b.beforeDate || b.lastDateOfAttendance < b.beforeDate, {
    path: ['lastDateOfAttendance'],
    message: 'lastDateOfAttendance must be before beforeDate',
  });
export type OpeningBalanceInput = z.output<typeof openingBalanceInputSchema>;

export const openingBalanceSchema = z.object({
  studentId: z.number().int(),
  beforeDate: z.string(),
  scheduledHours: z.number(),
  creditedHours: z.number(),
  periods: z.array(z.object({ number: z.number().int(), creditedHours: z.number(), completedOn: z.string().nullable() })).nullable(),
  lastDateOfAttendance: z.string().nullable(),
  note: z.string(),
  enteredById: z.number().int().nullable(),
  enteredByName: z.string().nullable(),
  enteredAt: z.string(),
});
export type OpeningBalance = z.infer<typeof openingBalanceSchema>;

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
   * not scheduled, attended or absent until they end (issue 28).
   */
  pendingMinutes: z.number().int(),
  /**
   * Minutes of that day's meetings that ended with nothing recorded for anyone and no QR session:
   * not scheduled nor absent until attendance is taken or the meeting cancelled (issue 28; the list
   * to review is GET /api/attendance/meetings-to-review).
   */
  unrecordedMinutes: z.number().int(),
  // The time-clock rules' steps (issue 29; common/time-clock.ts): attendedMinutes = rounded − deducted − capped.
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

export type TimeClockHours = Record<(typeof TIME_CLOCK_HOURS_COLUMNS)[number], number>;

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
export function timeClockHours(days: readonly LedgerDay[]): TimeClockHours {
  const out = {} as TimeClockHours;
  for (const column of TIME_CLOCK_HOURS_COLUMNS) {
    const key = TIME_CLOCK_HOURS_MINUTES[column];
    out[column] = round2(days.reduce((n, d) => n + d[key], 0) / 60);
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
  // The time-clock rules' steps (issue 29), appended so that files read by position keep their
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
  /** The breaks punched between the check-in and the check-out, in order (issue 29). */
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

// ---- Dates ----

/** Whole days from a to b (YYYY-MM-DD), negative when b is earlier. */
export function daysBetween(a: string, b: string): number {
  return Math.round((Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / 86_400_000);
}

export function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

/**
 * Clock minutes: whole minutes of [arrived, left] (instants in ms) that fall inside the class
 * [start, end]. The one count of attended minutes, for the server's records and the roster's
 * "so far / projected" alike.
 */
export function clockMinutesInside(arrived: number, left: number, start: number, end: number): number {
  return Math.max(0, Math.floor((Math.min(left, end) - Math.max(arrived, start)) / 60_000));
}

export type MeetingCalendar = {
  courseStartDate: string;
  courseEndDate: string;
  /** 0 = Sunday … 6 = Saturday. */
  dayOfWeek: number;
  holidayExceptions: string[];
  makeupDates: string[];
};

export type NotAMeeting = 'outside_dates' | 'other_weekday' | 'holiday';

/**
 * The meeting rule: why a school-local date is not a meeting of the schedule, or null when it is
 * one. A make-up date is always a meeting; otherwise the date must fall within the course dates, on
 * the schedule's day of the week, and not on one of its holidays.
 */
export function notAMeeting(date: string, c: MeetingCalendar): NotAMeeting | null {
  if (c.makeupDates.includes(date)) return null;
  if (date < c.courseStartDate || date > c.courseEndDate) return 'outside_dates';
  if (new Date(`${date}T00:00:00Z`).getUTCDay() !== c.dayOfWeek) return 'other_weekday';
  if (c.holidayExceptions.includes(date)) return 'holiday';
  return null;
}

/** notAMeeting in words, naming the date (manual records, the ledger). */
export function whyNotAMeeting(date: string, c: MeetingCalendar): string | null {
  switch (notAMeeting(date, c)) {
    case null:
      return null;
    case 'outside_dates':
      return `The class runs from ${c.courseStartDate} to ${c.courseEndDate}; ${date} is outside those dates`;
    case 'other_weekday':
      return `The class meets on ${DAY_NAMES[c.dayOfWeek]}s; ${date} is a ${DAY_NAMES[new Date(`${date}T00:00:00Z`).getUTCDay()]}`;
    case 'holiday':
      return `${date} is a holiday for this class: it does not meet that day`;
  }
}
