// The school calendar's contracts: closures of the school or of one program.
import { z } from 'zod';
import { daysBetween } from './dates.ts';
import { dbId, isoDate, optionalDbId, queryDate } from './validation.ts';

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
