// Make-up sessions' contracts.
import { z } from 'zod';

import { clockTime, dbId, isoDate, optionalDbId } from './validation.ts';

// ---- Make-up sessions ----

export const makeUpInputSchema = z
  .object({
    date: isoDate('date'),
    startTime: clockTime('startTime'),
    endTime: clockTime('endTime'),
    supervisorId: dbId('supervisorId', { required: 'supervisorId is required' }),
    courseId: optionalDbId('courseId'),
    note: z
      .string()
      .trim()
      .max(1000, 'note must be at most 1000 characters')
      .nullish()
      .transform((v) => v || null),
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
