import { z } from 'zod';
import { daysBetween } from './dates.ts';
import { CLOCK_TIME, dbId, isoDate, isoDateTime, queryDate, queryInt } from './validation.ts';

// Missed-punch requests (docs/decisions/053): a student who forgot to check in or out asks
// for a correction; the class instructor or an administrator approves (a correction flagged as an
// exception) or declines.

export const MISSED_PUNCH_STATUSES = ['pending', 'approved', 'declined'] as const;
export type MissedPunchStatus = (typeof MISSED_PUNCH_STATUSES)[number];
/** Where the student asked: the scan page's link (this phone's check-ins) or the e-mailed hours link. */
export const MISSED_PUNCH_SOURCES = ['scan_page', 'hours_link'] as const;
export type MissedPunchSource = (typeof MISSED_PUNCH_SOURCES)[number];

/** How far back a student may ask: meetings of the last this many days (school time). */
export const MISSED_PUNCH_DAYS = 14;
export const MISSED_PUNCH_REASON_MAX = 500;
/** The staff list's largest page. */
const MISSED_PUNCH_PAGE_SIZE_MAX = 100;
/** The exception report's longest period. */
const EXCEPTION_RATE_MAX_DAYS = 366;

/** The answer to a second request for a meeting that already has one waiting (English; the pages translate). */
export const MISSED_PUNCH_ALREADY_ASKED = 'You already asked; your instructor will decide.';

const reason = (label = 'reason') =>
  z
    .string({ error: `${label} is required` })
    .trim()
    .min(1, `${label} is required`)
    .max(MISSED_PUNCH_REASON_MAX, `${label} must be at most ${MISSED_PUNCH_REASON_MAX} characters`);

/** A form's time field: blank is "not given"; otherwise HH:MM, school time. */
const formTime = (label: string) =>
  z
    .string()
    .optional()
    .transform((v) => (v && v.trim() ? v.trim() : undefined))
    .pipe(
      z
        .string()
        .regex(CLOCK_TIME, `${label} must be a time (HH:MM)`)
        .transform((v) => v.slice(0, 5))
        .optional(),
    );

/**
 * The student's form (the hours link page and the scan page's missed-punch page): the meeting, the
 * time(s) they say, school time, and why. Which times a meeting needs is the server's to say.
 */
export const missedPunchFormSchema = z.object({
  scheduleId: dbId('scheduleId'),
  sessionDate: isoDate('sessionDate'),
  checkIn: formTime('checkIn'),
  checkOut: formTime('checkOut'),
  reason: reason(),
});

/** GET /api/missed-punch-requests */
export const missedPunchListQuerySchema = z.object({
  status: z.enum(MISSED_PUNCH_STATUSES, { error: `status must be one of ${MISSED_PUNCH_STATUSES.join(', ')}` }).optional(),
  scheduleId: dbId('scheduleId').optional(),
  date: queryDate('date'),
  studentId: dbId('studentId').optional(),
  page: queryInt('page', 1, 1_000_000).optional(),
  pageSize: queryInt('pageSize', 1, MISSED_PUNCH_PAGE_SIZE_MAX).optional(),
});
export type MissedPunchListQuery = z.output<typeof missedPunchListQuerySchema>;

export const missedPunchRequestSchema = z.object({
  id: z.number().int(),
  studentId: z.number().int(),
  studentName: z.string(),
  sisStudentId: z.string().nullable(),
  scheduleId: z.number().int(),
  courseName: z.string(),
  sessionDate: z.string(),
  /** What the student said (ISO instants); null: the punch they did not ask about. */
  checkInAt: z.string().nullable(),
  checkOutAt: z.string().nullable(),
  reason: z.string(),
  source: z.enum(MISSED_PUNCH_SOURCES),
  status: z.enum(MISSED_PUNCH_STATUSES),
  createdAt: z.string(),
  decidedAt: z.string().nullable(),
  /** The name of who decided. */
  decidedBy: z.string().nullable(),
  decisionReason: z.string().nullable(),
  /** The meeting's record; null while a missed check-in has none. */
  recordId: z.number().int().nullable(),
});
export type MissedPunchRequest = z.infer<typeof missedPunchRequestSchema>;

export const missedPunchPageSchema = z.object({ items: z.array(missedPunchRequestSchema), total: z.number().int() });
export type MissedPunchPage = z.infer<typeof missedPunchPageSchema>;

const punchOrder = (o: { checkInAt?: string; checkOutAt?: string }) => !o.checkInAt || !o.checkOutAt || Date.parse(o.checkOutAt) > Date.parse(o.checkInAt);

/** POST /api/missed-punch-requests/{id}/approve: the reason, and the times when staff adjust what the student said. */
export const missedPunchApproveSchema = z
  .object({ reason: reason(), checkInAt: isoDateTime('checkInAt').optional(), checkOutAt: isoDateTime('checkOutAt').optional() })
  .refine(punchOrder, { path: ['checkOutAt'], message: 'checkOutAt must be after checkInAt' });
export type MissedPunchApproval = z.output<typeof missedPunchApproveSchema>;

/** POST /api/missed-punch-requests/{id}/decline */
export const missedPunchDeclineSchema = z.object({ reason: reason() });

/** GET /api/missed-punch-requests/exception-rates */
export const exceptionRatesQuerySchema = z
  .object({ from: isoDate('from'), to: isoDate('to'), programId: dbId('programId').optional() })
  .refine((q) => q.from <= q.to, { path: ['to'], message: 'to must not be before from' })
  .refine((q) => q.from > q.to || daysBetween(q.from, q.to) < EXCEPTION_RATE_MAX_DAYS, {
    path: ['to'],
    message: `The period must be at most ${EXCEPTION_RATE_MAX_DAYS} days`,
  });
export type ExceptionRatesQuery = z.output<typeof exceptionRatesQuerySchema>;

/**
 * A student's exceptions in a period. An exception is a meeting with a missed-punch request (any
 * status) or a correction that approved one; meetingsAttended counts the meetings with an attended
 * record (present, late, incomplete) and those the student asked about; the rate is one of the other.
 */
export const exceptionRateSchema = z.object({
  studentId: z.number().int(),
  name: z.string(),
  sisStudentId: z.string().nullable(),
  meetingsAttended: z.number().int(),
  exceptions: z.number().int(),
  /** Percent, one decimal. */
  exceptionRate: z.number(),
});
export type ExceptionRate = z.infer<typeof exceptionRateSchema>;
export const exceptionRatesSchema = z.object({ from: z.string(), to: z.string(), items: z.array(exceptionRateSchema) });
export type ExceptionRates = z.infer<typeof exceptionRatesSchema>;

/** GET /api/students/{id}/exceptions: every meeting of the student, and the requests still waiting. */
export const studentExceptionsSchema = z.object({
  exceptions: z.number().int(),
  meetingsAttended: z.number().int(),
  exceptionRate: z.number(),
  openRequests: z.number().int(),
});
export type StudentExceptions = z.infer<typeof studentExceptionsSchema>;

/** exceptions of meetings, in percent with one decimal; 0 without meetings. */
export const exceptionRateOf = (exceptions: number, meetings: number): number => (meetings > 0 ? Math.round((exceptions / meetings) * 1000) / 10 : 0);
