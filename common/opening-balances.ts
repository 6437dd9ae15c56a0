// A student's opening balance: the hours before Muster kept attendance (COMPLIANCE.md).
import { z } from 'zod';

import { numIn } from './program-policy.ts';
import { isoDate, optionalIsoDate } from './validation.ts';

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
            number: z
              .number({ error: 'number must be a payment period number' })
              .int('number must be a whole number')
              .min(1, 'number must be at least 1')
              .max(40, 'number must be at most 40'),
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
    note: z
      .string({ error: 'note is required' })
      .trim()
      .min(1, 'note is required: where these hours come from')
      .max(1000, 'note must be at most 1000 characters'),
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
