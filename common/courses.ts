import { z } from 'zod';
import { COURSE_FORM_HOURS } from './constants.ts';
import { dbId, numberLike, optionalDbId, optionalText, requiredText } from './validation.ts';

export const courseSchema = z.object({
  id: z.number().int(),
  courseCode: z.string(),
  courseName: z.string(),
  clockHours: z.number().nullable(),
  description: z.string().nullable(),
  programId: z.number().int().nullable(),
  programName: z.string().nullable(),
  sisCourseId: z.string().nullable(),
  prerequisiteIds: z.array(z.number().int()),
  isActive: z.boolean(),
});
export type Course = z.infer<typeof courseSchema>;

const { min, max, step } = COURSE_FORM_HOURS;
export const courseInputSchema = z.object({
  courseCode: requiredText('Course code', 50),
  courseName: requiredText('Course name'),
  clockHours: numberLike(z
    .number({ error: 'Clock hours must be a number' })
    .min(min, `Clock hours must be between ${min} and ${max}`)
    .max(max, `Clock hours must be between ${min} and ${max}`)
    .refine((v) => Number.isInteger(v / step), `Clock hours must be in steps of ${step}`)
    .nullish())
    .transform((v) => v ?? null),
  description: optionalText(2000),
  programId: optionalDbId('programId', { invalid: 'Program must be a program id or null' }),
  sisCourseId: optionalText(100),
  prerequisiteIds: z.array(dbId('prerequisiteIds')).max(50).default([]),
});
export type CourseInput = z.input<typeof courseInputSchema>;

export const bulkUploadResultSchema = z.object({
  imported: z.number().int(),
  errors: z.array(z.object({ row: z.number().int(), column: z.string(), value: z.string().optional(), message: z.string() })),
});

export const COURSE_SELF_PREREQUISITE = 'A course cannot be its own prerequisite';
