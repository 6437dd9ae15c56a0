import { z } from 'zod';
import { COHORT, DAY_OF_WEEK, TERM } from './constants.ts';
import { CLOCK_TIME, clockTime, dbId, isoDate, optionalDbId, optionalText } from './validation.ts';

export const DAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const;

export const scheduleSchema = z.object({
  id: z.number().int(),
  courseId: z.number().int(),
  courseName: z.string(),
  courseCode: z.string(),
  instructorId: z.number().int().nullable(),
  instructorName: z.string().nullable(),
  cohortNumber: z.number().int(),
  termNumber: z.number().int(),
  dayOfWeek: z.number().int(),
  startTime: z.string(),
  endTime: z.string(),
  roomNumber: z.string().nullable(),
  courseStartDate: z.string(),
  courseEndDate: z.string(),
  sisScheduleId: z.string().nullable(),
  isActive: z.boolean(),
  rosterCount: z.number().int(),
});
export type Schedule = z.infer<typeof scheduleSchema>;

const intIn = (label: string, lo: number, hi: number) =>
  z.number({ error: `${label} is required` }).int(`${label} must be a whole number`).min(lo, `${label} must be between ${lo} and ${hi}`).max(hi, `${label} must be between ${lo} and ${hi}`);
const time = clockTime;

export const scheduleInputSchema = z
  .object({
    courseId: dbId('courseId', { required: 'Course is required' }),
    instructorId: optionalDbId('instructorId'),
    cohortNumber: intIn('Cohort number', COHORT.min, COHORT.max),
    termNumber: intIn('Term number', TERM.min, TERM.max),
    dayOfWeek: intIn('Day of week', DAY_OF_WEEK.min, DAY_OF_WEEK.max),
    startTime: time('Start time'),
    endTime: time('End time'),
    roomNumber: optionalText(50),
    courseStartDate: isoDate('Course start date'),
    courseEndDate: isoDate('Course end date'),
    sisScheduleId: optionalText(100),
    isActive: z.boolean().default(true),
  })
  // Compared only when both are valid times, so one bad field gives one message.
  .refine((s) => !(CLOCK_TIME.test(s.startTime) && CLOCK_TIME.test(s.endTime)) || s.startTime < s.endTime, {
    path: ['endTime'],
    message: 'End time must be after the start time',
  })
  .refine((s) => s.courseEndDate >= s.courseStartDate, { path: ['courseEndDate'], message: 'Course end date must not be before the start date' });
export type ScheduleInput = z.input<typeof scheduleInputSchema>;

export const rosterEntrySchema = z.object({
  studentId: z.number().int(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string().nullable(),
  sisStudentId: z.string().nullable(),
  status: z.string(),
});
export const rosterAddSchema = z.object({ studentIds: z.array(dbId('studentIds')).min(1, 'Choose at least one student').max(1000) });
export const INSTRUCTOR_REQUIRED = 'The instructor must be an active user with the Instructor role';

/**
 * GET /api/schedules/today: the classes meeting today on the school's clock (an instructor's own,
 * every class for administrators), with the QR session running now, if any.
 */
export const todayClassSchema = scheduleSchema.extend({
  /** The newest open QR session of the class, or null. */
  openSession: z.object({ sessionId: z.string(), expiresAt: z.string() }).nullable(),
  /** QR sessions of this class already run today (open or ended). */
  sessionsToday: z.number().int(),
});
export type TodayClass = z.infer<typeof todayClassSchema>;
export const todayClassesSchema = z.object({ date: z.string(), classes: z.array(todayClassSchema) });
export type TodayClasses = z.infer<typeof todayClassesSchema>;
