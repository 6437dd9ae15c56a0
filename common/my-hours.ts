import { z } from 'zod';
import { ledgerDaySchema, ledgerTotalsSchema, paymentPeriodProgressSchema } from './hours.ts';
import { STUDENT_LANGUAGES, STUDENT_TEXTS } from './student-texts.ts';

/** How long an e-mailed hours link works. */
export const HOURS_LINK_DAYS = 7;
/** Links e-mailed to one student in 24 hours, at most (more requests get the same answer and no e-mail). */
export const HOURS_LINKS_PER_DAY = 3;

/** POST /api/my-hours/request and the /my-hours form: a student ID and the e-mail on file. */
export const hoursLinkRequestSchema = z.object({
  studentId: z.string({ error: 'studentId is required' }).trim().min(1, 'studentId is required').max(100, 'studentId must be at most 100 characters'),
  email: z.string({ error: 'email is required' }).trim().max(254, 'email must be at most 254 characters').pipe(z.email('email must be a valid e-mail address')),
  /** The language of the e-mail and of the page its link opens. */
  language: z.enum(STUDENT_LANGUAGES, { error: 'language must be en or es' }).optional(),
});
export type HoursLinkRequest = z.output<typeof hoursLinkRequestSchema>;

/** The same answer whether or not the ID and e-mail match a student (no enumeration). */
export const HOURS_LINK_REQUESTED = STUDENT_TEXTS.en.requestSent;

/** What the hours link shows: one student's ledger, read only. */
export const studentHoursViewSchema = z.object({
  firstName: z.string(),
  lastName: z.string(),
  programName: z.string().nullable(),
  asOf: z.string(),
  totals: ledgerTotalsSchema,
  attendancePercent: z.number().nullable(),
  /** Scheduled minutes not credited: missed time not excused within the cap and not yet made up. */
  makeUpOwedMinutes: z.number().int(),
  /** The first payment period not completed; null without periods or when all are. */
  currentPaymentPeriod: paymentPeriodProgressSchema.nullable(),
  /** The days of the last 30 with a class, attendance or make-up, newest first. */
  days: z.array(ledgerDaySchema),
  linkExpiresAt: z.string(),
});
export type StudentHoursView = z.infer<typeof studentHoursViewSchema>;
