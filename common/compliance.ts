import { z } from 'zod';
import { daysBetween } from './dates.ts';
import { SAP_STATUSES, TIME_CLOCK_HOURS_COLUMNS } from './hours.ts';
import { DATE_YEARS, dbId, isoDate, queryDate } from './validation.ts';

// Leaves of absence, the withdrawal watch and the regulators' reports (decision 016; COMPLIANCE.md).

/** All leaves of a student together may not exceed this many days in any 12 months. */
export const MAX_LEAVE_DAYS_IN_12_MONTHS = 180;
/** The regulation's deadline for determining a withdrawal, from the last date of attendance. */
export const DETERMINATION_DAYS = 14;
/** Closures this long or longer are scheduled breaks: their days do not count toward the watch. */
export const BREAK_MIN_DAYS = 5;

const reason = (label = 'reason') =>
  z
    .string({ error: `${label} is required` })
    .trim()
    .min(1, `${label} is required`)
    .max(500, `${label} must be at most 500 characters`);

export const leaveInputSchema = z
  .object({ startDate: isoDate('startDate'), endDate: isoDate('endDate'), reason: reason() })
  .strict()
  .refine((l) => l.endDate >= l.startDate, { path: ['endDate'], message: 'endDate must not be before startDate' });
export type LeaveInput = z.output<typeof leaveInputSchema>;

/** PUT: end a leave early on return, or extend it (the start may be corrected too). */
export const leaveUpdateSchema = z.object({ startDate: isoDate('startDate').optional(), endDate: isoDate('endDate'), reason: reason().optional() }).strict();

export const leaveSchema = z.object({
  id: z.number().int(),
  studentId: z.number().int(),
  startDate: z.string(),
  endDate: z.string(),
  reason: z.string(),
  days: z.number().int(),
  createdAt: z.string(),
});
export type Leave = z.infer<typeof leaveSchema>;
export const leaveParamsSchema = z.object({ id: dbId('id'), leaveId: dbId('leaveId') });

/** Days of a leave, both ends included. */
export const leaveLength = (l: { startDate: string; endDate: string }): number => daysBetween(l.startDate, l.endDate) + 1;

/**
 * The most leave days inside any 12-month window (365 days) over these leaves, and where that
 * window starts. The worst window always starts on some leave's first day.
 */
export function worstLeaveWindow(leaves: { startDate: string; endDate: string }[]): { days: number; from: string | null } {
  let worst = { days: 0, from: null as string | null };
  for (const anchor of leaves) {
    const from = anchor.startDate;
    const to = addDaysUtc(from, 364);
    let days = 0;
    for (const l of leaves) {
      const a = l.startDate > from ? l.startDate : from;
      const b = l.endDate < to ? l.endDate : to;
      if (b >= a) days += daysBetween(a, b) + 1;
    }
    if (days > worst.days) worst = { days, from };
  }
  return worst;
}

function addDaysUtc(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

// ---- Withdrawal ----

export const withdrawalInputSchema = z
  .object({ withdrawalDate: isoDate('withdrawalDate').optional(), determinationDate: isoDate('determinationDate').optional(), reason: reason() })
  .strict();
export const withdrawalReverseSchema = z.object({ reason: reason() }).strict();

export const withdrawalSchema = z.object({
  studentId: z.number().int(),
  status: z.string(),
  withdrawalDate: z.string(),
  determinationDate: z.string(),
  lastDateOfAttendance: z.string().nullable(),
  reason: z.string(),
  // The refund (R2T4) inputs for clock hours: scheduled hours of the period up to the withdrawal.
  paymentPeriod: z.number().int().nullable(),
  periodHours: z.number().nullable(),
  scheduledHoursInPeriodToWithdrawal: z.number(),
  percentOfPeriodScheduled: z.number().nullable(),
  creditedHoursInPeriod: z.number(),
});
export type Withdrawal = z.infer<typeof withdrawalSchema>;

// ---- The withdrawal watch ----

export const WATCH_STATES = ['watch', 'due', 'overdue'] as const;
export type WatchState = (typeof WATCH_STATES)[number];

export const watchQuerySchema = z.object({ asOf: queryDate('asOf'), programId: dbId('programId').optional() });

export const watchRowSchema = z.object({
  studentId: z.number().int(),
  sisStudentId: z.string().nullable(),
  firstName: z.string(),
  lastName: z.string(),
  programName: z.string().nullable(),
  /** null: scheduled but never attended (counted from the first scheduled day). */
  lastDateOfAttendance: z.string().nullable(),
  daysWithoutAttendance: z.number().int(),
  determinationDueBy: z.string(),
  state: z.enum(WATCH_STATES),
});
export type WatchRow = z.infer<typeof watchRowSchema>;

// ---- The other lists of the Compliance screen ----

export const complianceQuerySchema = z.object({ asOf: queryDate('asOf'), programId: dbId('programId').optional() });

const studentRef = {
  studentId: z.number().int(),
  sisStudentId: z.string().nullable(),
  firstName: z.string(),
  lastName: z.string(),
  programName: z.string().nullable(),
};

export const complianceOverviewSchema = z.object({
  asOf: z.string(),
  counts: z.object({
    watch: z.number().int(),
    due: z.number().int(),
    overdue: z.number().int(),
    sapNotMet: z.number().int(),
    sapUpcoming: z.number().int(),
    excusedCap: z.number().int(),
    makeUpOwed: z.number().int(),
  }),
  /** Checkpoints not met, and those the student will reach within 30 days at their pace of the last 28 days. */
  sap: z.array(
    z.object({
      ...studentRef,
      atHours: z.number(),
      status: z.enum(SAP_STATUSES),
      evaluatedOn: z.string().nullable(),
      attendancePercent: z.number().nullable(),
      /** For upcoming checkpoints: the projected date and today's attendance percent. */
      projectedOn: z.string().nullable(),
    }),
  ),
  /** Students who have used 80 % or more of a payment period's excused cap. */
  excusedCap: z.array(
    z.object({
      ...studentRef,
      paymentPeriod: z.number().int(),
      excusedCreditedMinutes: z.number().int(),
      excusedCapMinutes: z.number().int(),
      excusedUncreditedMinutes: z.number().int(),
    }),
  ),
  /** Missed time (absences and uncredited excused time) older than the program's make-up deadline, less make-up done. */
  /**
   * Students owing at least their program's makeUpThresholdMinutes of make-up, counting missed time
   * older than the make-up deadline; dueBy is the date the oldest of it had to be made up by.
   */
  makeUpOwed: z.array(
    z.object({
      ...studentRef,
      owedMinutes: z.number().int(),
      oldestMissedOn: z.string().nullable(),
      makeUpDeadlineDays: z.number().int(),
      dueBy: z.string().nullable(),
    }),
  ),
});
export type ComplianceOverview = z.infer<typeof complianceOverviewSchema>;

// ---- Reports ----

const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;
/** A month of the years a date may have (validation.ts DATE_YEARS, 1900–2200): 0000-01 is no month the database stores. */
const inDateYears = (month: string) => Number(month.slice(0, 4)) >= DATE_YEARS.min && Number(month.slice(0, 4)) <= DATE_YEARS.max;
export const monthlyHoursQuerySchema = z.object({
  month: z
    .string({ error: 'month is required' })
    .regex(MONTH, 'month must be YYYY-MM')
    .refine(inDateYears, `month must be between ${DATE_YEARS.min}-01 and ${DATE_YEARS.max}-12`),
  programId: dbId('programId').optional(),
  format: z.enum(['csv', 'pdf'], { error: 'format must be csv or pdf' }).optional(),
});

export const MONTHLY_HOURS_COLUMNS = [
  'sisStudentId',
  'firstName',
  'lastName',
  'programName',
  'month',
  'scheduledHours',
  'attendedHours',
  'makeUpHours',
  'creditedHours',
  'cumulativeCreditedHours',
  'attendancePercent',
  'status',
  'lastDateOfAttendance',
  // Added after the others (decision 045) so that files read by position keep their columns.
  'excusedCreditedHours',
  // The month's time-clock steps (decision 050), last for the same reason.
  ...TIME_CLOCK_HOURS_COLUMNS,
] as const;

export const sapReportQuerySchema = z.object({ programId: dbId('programId').optional(), asOf: queryDate('asOf') });
export const SAP_REPORT_COLUMNS = [
  'sisStudentId',
  'firstName',
  'lastName',
  'programName',
  'asOf',
  'atHours',
  'status',
  'evaluatedOn',
  'attendancePercent',
] as const;
