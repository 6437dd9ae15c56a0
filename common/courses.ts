import { z } from 'zod';
import { COURSE_HOURS, SPEC_COURSE_HOURS } from './constants.ts';
import { fieldWarningSchema, hoursNumber, hoursProblem, hoursWarning } from './programs.ts';
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

/**
 * The one rule for a course's clock hours, on every path (import, API, form): 1 to 2,000 in steps
 * of 0.5 (docs/decisions/040, after 012). A course keeps the hours it already has (`current`, the
 * stored value; undefined for a new course or an import row), so a value stored before the rule
 * still saves unchanged.
 */
export function courseHoursProblem(value: number | null | undefined, current?: number | null, label = 'Clock hours'): string | null {
  return hoursProblem(label, value, COURSE_HOURS, current);
}

/** Outside SPEC's documented range (more than 150 hours): saved, with this note. */
export const courseHoursWarning = (value: number | null | undefined) => hoursWarning(value, SPEC_COURSE_HOURS, 'a course', 'the course’s clock hours');

export const courseInputSchema = z.object({
  courseCode: requiredText('Course code', 50),
  courseName: requiredText('Course name'),
  // The range (the database's bound too); courseHoursProblem adds the steps.
  clockHours: numberLike(hoursNumber('Clock hours', COURSE_HOURS).nullish()).transform((v) => v ?? null),
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

/** POST and PUT /api/courses: the saved course, and notes on values accepted outside SPEC's range. */
export const courseSavedSchema = courseSchema.extend({ warnings: z.array(fieldWarningSchema) });
export type CourseSaved = z.infer<typeof courseSavedSchema>;

export const bulkUploadResultSchema = z.object({
  imported: z.number().int(),
  errors: z.array(z.object({ row: z.number().int(), column: z.string(), value: z.string().optional(), message: z.string() })),
});

export const COURSE_SELF_PREREQUISITE = 'A course cannot be its own prerequisite';
