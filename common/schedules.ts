import { z } from 'zod';
import { COHORT, DAY_OF_WEEK, TERM } from './constants.ts';
import { CLOCK_TIME, clockTime, dbId, isoDate, numberLike, optionalDbId, optionalText } from './validation.ts';

export const DAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const;

/** Longest cohort name ('PN-26A'): the number (COHORT) stays the cohort's key, the name is what the school calls it. */
export const COHORT_NAME_MAX = 40;

/** A cohort of a program's schedules: its number, name and the last day one of its courses runs. */
export type ProgramCohort = { programId: number | null; cohortNumber: number; cohortName: string | null; courseEndDate: string };

/**
 * Numbers for named cohorts given without one (decision 047), in order: the number the name
 * already has in its program (names compared without case; the cohort whose course ends last
 * wins), else the lowest number no cohort of the program uses until its course has ended by
 * `today`, nor one numbered earlier in this list. null when every number is taken. The schedule
 * form and the schedules import both number cohorts by this rule.
 */
export function numberNamedCohorts(
  cohorts: readonly ProgramCohort[],
  wants: readonly { programId: number | null; cohortName: string }[],
  today: string,
): (number | null)[] {
  const programs = new Map<number | null, { byName: Map<string, number>; taken: Set<number> }>();
  for (const c of [...cohorts].sort((a, b) => a.courseEndDate.localeCompare(b.courseEndDate))) {
    let p = programs.get(c.programId);
    if (!p) programs.set(c.programId, (p = { byName: new Map(), taken: new Set() }));
    if (c.cohortName != null) p.byName.set(c.cohortName.toLowerCase(), c.cohortNumber);
    if (c.courseEndDate >= today) p.taken.add(c.cohortNumber);
  }
  return wants.map((w) => {
    let p = programs.get(w.programId);
    if (!p) programs.set(w.programId, (p = { byName: new Map(), taken: new Set() }));
    const key = w.cohortName.toLowerCase();
    const known = p.byName.get(key);
    if (known != null) return known;
    for (let n = COHORT.min; n <= COHORT.max; n++) {
      if (p.taken.has(n)) continue;
      p.byName.set(key, n);
      p.taken.add(n);
      return n;
    }
    return null;
  });
}

/** 'PN-26A' when the cohort has a name, else '3': how a cohort is shown everywhere ("Cohort PN-26A"). */
export function cohortLabel(s: { cohortNumber: number; cohortName?: string | null }): string {
  return s.cohortName ?? String(s.cohortNumber);
}

/** Most scheduled breaks a class may have (decision 052): a morning break, lunch, an afternoon break, one more. */
export const SCHEDULE_BREAKS_MAX = 4;
/** A scheduled break, 'HH:MM' in school time, inside the class: not scheduled minutes (decision 052). */
export type ScheduleBreak = { start: string; end: string };
export const scheduleBreakAnswerSchema = z.object({ start: z.string(), end: z.string() });

/** Minutes after the class start (a class past midnight goes on the next day), as rules.ts and meeting-rule.ts place breaks. */
const sinceStart = (time: string, classStart: string) => {
  const m = (t: string) => Number(t.slice(0, 2)) * 60 + Number(t.slice(3, 5));
  return (m(time) - m(classStart) + 1440) % 1440;
};

/**
 * What is wrong with a class's breaks (each inside the class, ending after it starts, none
 * overlapping another), each problem at its field ('breaks.1.end'); [] when none. The schedule
 * contract and the server's update (which keeps the stored breaks when none are sent) both ask it.
 */
export function scheduleBreakProblems(breaks: readonly ScheduleBreak[], startTime: string, endTime: string): { path: (string | number)[]; message: string }[] {
  const problems: { path: (string | number)[]; message: string }[] = [];
  const classLength = sinceStart(endTime, startTime) || 1440;
  const placed = breaks.map((b) => ({ from: sinceStart(b.start, startTime), to: sinceStart(b.end, startTime) }));
  placed.forEach((b, i) => {
    const n = i + 1;
    if (b.from >= classLength) problems.push({ path: ['breaks', i, 'start'], message: `Break ${n} must start during the class (${startTime}–${endTime})` });
    else if (b.to <= b.from) problems.push({ path: ['breaks', i, 'end'], message: `Break ${n} must end after it starts` });
    else if (b.to > classLength) problems.push({ path: ['breaks', i, 'end'], message: `Break ${n} must end by the end of class (${endTime})` });
    else {
      const other = placed.findIndex((o, j) => j < i && o.from < b.to && b.from < o.to && o.to > o.from);
      if (other >= 0) problems.push({ path: ['breaks', i, 'start'], message: `Break ${n} overlaps break ${other + 1}` });
    }
  });
  return problems;
}

export const scheduleSchema = z.object({
  id: z.number().int(),
  courseId: z.number().int(),
  courseName: z.string(),
  courseCode: z.string(),
  instructorId: z.number().int().nullable(),
  instructorName: z.string().nullable(),
  cohortNumber: z.number().int(),
  /** What the school calls the cohort, or null (decision 047). */
  cohortName: z.string().nullable(),
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
  /** Scheduled breaks in school time, in order: not scheduled minutes. */
  breaks: z.array(scheduleBreakAnswerSchema),
});
export type Schedule = z.infer<typeof scheduleSchema>;

const intIn = (label: string, lo: number, hi: number) =>
  z
    .number({ error: `${label} is required` })
    .int(`${label} must be a whole number`)
    .min(lo, `${label} must be between ${lo} and ${hi}`)
    .max(hi, `${label} must be between ${lo} and ${hi}`);
const time = clockTime;
export const COHORT_NUMBER_REQUIRED = 'Cohort number is required (or give the cohort a name)';

export const scheduleInputSchema = z
  .object({
    courseId: dbId('courseId', { required: 'Course is required' }),
    instructorId: optionalDbId('instructorId'),
    // Optional only when the cohort is named: the server then numbers it (decision 047).
    cohortNumber: intIn('Cohort number', COHORT.min, COHORT.max).optional(),
    cohortName: optionalText(COHORT_NAME_MAX),
    termNumber: intIn('Term number', TERM.min, TERM.max),
    dayOfWeek: intIn('Day of week', DAY_OF_WEEK.min, DAY_OF_WEEK.max),
    startTime: time('Start time'),
    endTime: time('End time'),
    roomNumber: optionalText(50),
    courseStartDate: isoDate('Course start date'),
    courseEndDate: isoDate('Course end date'),
    sisScheduleId: optionalText(100),
    isActive: z.boolean().default(true),
    // Not sent: a new schedule has none, an update keeps the stored ones.
    breaks: z.array(z.object({ start: time('Break start'), end: time('Break end') }), { error: 'breaks must be a list of {start, end}' }).optional(),
  })
  // Compared only when both are valid times, so one bad field gives one message.
  .refine((s) => !(CLOCK_TIME.test(s.startTime) && CLOCK_TIME.test(s.endTime)) || s.startTime < s.endTime, {
    path: ['endTime'],
    message: 'End time must be after the start time',
  })
  .refine((s) => s.courseEndDate >= s.courseStartDate, { path: ['courseEndDate'], message: 'Course end date must not be before the start date' })
  .superRefine((s, ctx) => {
    // Here, not .max(): zod would measure a string sent instead of a list too, and say so twice.
    if (Array.isArray(s.breaks) && s.breaks.length > SCHEDULE_BREAKS_MAX) {
      ctx.addIssue({ code: 'custom', path: ['breaks'], message: `A class has at most ${SCHEDULE_BREAKS_MAX} breaks` });
      return;
    }
    const times = [s.startTime, s.endTime, ...(s.breaks ?? []).flatMap((b) => [b.start, b.end])];
    // Placed only when every time is one (each bad field has its own message) and the class is.
    if (!s.breaks || !times.every((t) => typeof t === 'string' && CLOCK_TIME.test(t)) || s.startTime >= s.endTime) return;
    for (const p of scheduleBreakProblems(s.breaks, s.startTime, s.endTime)) ctx.addIssue({ code: 'custom', path: p.path, message: p.message });
  })
  // Checked even when other fields are wrong, so the form shows every missing field at once.
  .refine((s) => s.cohortNumber != null || (typeof s.cohortName === 'string' && s.cohortName !== ''), {
    path: ['cohortNumber'],
    message: COHORT_NUMBER_REQUIRED,
    when: (payload) => typeof payload.value === 'object' && payload.value !== null,
  });
export type ScheduleInput = z.input<typeof scheduleInputSchema>;

/**
 * Who a new schedule's roster starts with (POST /api/schedules `initialRoster`, decision 047):
 * its cohort (the students already in this cohort's classes of the program, and those of the
 * program in no class yet), everyone enrolled in the program, or nobody.
 */
export const INITIAL_ROSTERS = ['cohort', 'program', 'none'] as const;
export type InitialRoster = (typeof INITIAL_ROSTERS)[number];
/** A client that does not choose gets the cohort: never the students of other cohorts. */
export const DEFAULT_INITIAL_ROSTER: InitialRoster = 'cohort';

export const scheduleCreateSchema = scheduleInputSchema.safeExtend({
  initialRoster: z.enum(INITIAL_ROSTERS, { error: `initialRoster must be one of ${INITIAL_ROSTERS.join(', ')}` }).default(DEFAULT_INITIAL_ROSTER),
});
export type ScheduleCreateInput = z.input<typeof scheduleCreateSchema>;

export const rosterEntrySchema = z.object({
  studentId: z.number().int(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string().nullable(),
  sisStudentId: z.string().nullable(),
  status: z.string(),
});
/**
 * GET /api/schedules/roster-preview: who each initialRoster choice would put on a new schedule's
 * roster. `cohort` + `unplaced` is the cohort choice, `program` the program choice.
 */
export const rosterPreviewQuerySchema = z.object({
  courseId: dbId('courseId', { required: 'Course is required' }),
  cohortNumber: numberLike(intIn('Cohort number', COHORT.min, COHORT.max).nullish()),
  cohortName: optionalText(COHORT_NAME_MAX),
});
export const rosterPreviewSchema = z.object({
  programName: z.string().nullable(),
  /** Enrolled students of the program already on the roster of this cohort's other schedules. */
  cohort: z.array(rosterEntrySchema),
  /** Enrolled students of the program on no roster of the program's schedules yet. */
  unplaced: z.array(rosterEntrySchema),
  /** Every enrolled student of the program. */
  program: z.array(rosterEntrySchema),
});
export type RosterPreview = z.infer<typeof rosterPreviewSchema>;

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
