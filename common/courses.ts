import { z } from 'zod';
import { COURSE_FORM_HOURS, COURSE_IMPORT_HOURS } from './constants.ts';
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
const HOURS_RANGE = `Clock hours must be between ${min} and ${max}`;

/**
 * The one rule for a course's clock hours (docs/decisions/012-course-hours.md): hours someone types
 * (a new course, or a changed value) must be within the form's range in its steps; a course keeps the
 * hours it already has, whichever path gave them (an import allows 1–120), so an imported 45-hour
 * course can still be edited. `current` is the stored value (undefined for a new course).
 */
export function courseHoursProblem(value: number | null, current?: number | null): string | null {
  if (value == null || value === current) return null;
  if (value < min || value > max) return HOURS_RANGE;
  if (!Number.isInteger(value / step)) return `Clock hours must be in steps of ${step}`;
  return null;
}

/** Any value a course can legitimately hold: the import's low end to the form's high end. */
const COURSE_STORED_HOURS = { min: COURSE_IMPORT_HOURS.min, max: max } as const;

export const courseInputSchema = z.object({
  courseCode: requiredText('Course code', 50),
  courseName: requiredText('Course name'),
  // What any stored course may hold (the database's bound); courseHoursProblem decides the rest.
  clockHours: numberLike(z
    .number({ error: 'Clock hours must be a number' })
    .min(COURSE_STORED_HOURS.min, HOURS_RANGE)
    .max(COURSE_STORED_HOURS.max, HOURS_RANGE)
    .nullish())
    .transform((v) => v ?? null),
  description: optionalText(2000),
  programId: optionalDbId('programId', { invalid: 'Program must be a program id or null' }),
  sisCourseId: optionalText(100),
  prerequisiteIds: z.array(dbId('prerequisiteIds')).max(50).default([]),
});
export type CourseInput = z.input<typeof courseInputSchema>;

/** The course form's check: the contract plus the hours rule against the course's stored hours. */
export function courseFormSchema(currentHours?: number | null) {
  return courseInputSchema.superRefine((input, ctx) => {
    const problem = courseHoursProblem(input.clockHours, currentHours);
    if (problem) ctx.addIssue({ code: 'custom', path: ['clockHours'], message: problem });
  });
}

export const bulkUploadResultSchema = z.object({
  imported: z.number().int(),
  errors: z.array(z.object({ row: z.number().int(), column: z.string(), value: z.string().optional(), message: z.string() })),
});

export const COURSE_SELF_PREREQUISITE = 'A course cannot be its own prerequisite';
