// A program's clock-hour policy (decision 014; terms from COMPLIANCE.md): its contracts, defaults and payment periods.
import { z } from 'zod';
import { PROGRAM_HOURS } from './constants.ts';
import { optionalIsoDate } from './validation.ts';

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

export const numIn = (label: string, min: number, max: number, step?: number) => {
  let n = z
    .number({ error: `${label} must be a number` })
    .min(min, `${label} must be at least ${min}`)
    .max(max, `${label} must be at most ${max}`);
  if (step) n = n.multipleOf(step, `${label} must be a multiple of ${step}`);
  return n;
};
const intIn = (label: string, min: number, max: number) =>
  z
    .number({ error: `${label} must be a whole number` })
    .int(`${label} must be a whole number`)
    .min(min, `${label} must be at least ${min}`)
    .max(max, `${label} must be at most ${max}`);

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
