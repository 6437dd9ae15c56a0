import type { z } from 'zod';
import { notAMeeting, type NotAMeeting } from '../../../common/meeting-rule.ts';
import { COHORT } from '../../../common/constants.ts';
import type { Course } from '../../../common/courses.ts';
import {
  DAY_NAMES,
  INSTRUCTOR_REQUIRED,
  numberNamedCohorts,
  scheduleBreakProblems,
  type InitialRoster,
  type RosterPreview,
  type Schedule,
  type ScheduleBreak,
  type TodayClasses,
  type rosterPreviewQuerySchema,
  type scheduleCreateSchema,
  type scheduleInputSchema,
} from '../../../common/schedules.ts';
import type { Role } from '../../../common/roles.ts';
import type { Db, DbOrTx } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import { withUniqueFields } from '../../lib/db-errors.ts';
import { AppError, badRequest, notFound } from '../../lib/errors.ts';
import { dayOfWeek, localDate } from '../../lib/school-time.ts';
import { assertMayListSchedulesOf, assertMayUseSchedule, viewerScope } from '../access/service.ts';
import { changedFields, recordAudit } from '../audit-logs/service.ts';
import { listClosures } from '../calendar/service.ts';
import { getCourse } from '../courses/service.ts';
import { getSettings } from '../settings/service.ts';
import { isActiveInstructor } from '../users/service.ts';
import {
  deleteRosterEntry,
  insertRosterEntries,
  insertSchedule,
  insertIntoProgramRosters,
  lockSchedule,
  selectExistingStudentIds,
  selectMeetingCalendar,
  selectMeetingsOn,
  selectProgramCohorts,
  selectRoster,
  selectRosterCandidates,
  selectScheduleById,
  selectSchedules,
  updateScheduleRow,
  type MeetingRow,
  type ScheduleRow,
  type ScheduleWrite,
  addHolidayException,
  removeHolidayException,
} from './queries.ts';

type Input = z.output<typeof scheduleInputSchema>;
type CreateInput = z.output<typeof scheduleCreateSchema>;
type Ctx = { actorId: number; ip: string | null; clock: Clock };
const UNIQUE = { schedules_sis_schedule_id_unique: { field: 'sisScheduleId', message: 'Another schedule already has this SIS schedule ID' } };

const toSchedule = (r: ScheduleRow): Schedule => ({ ...r, startTime: r.startTime.slice(0, 5), endTime: r.endTime.slice(0, 5) });

/** Breaks in the order of the day, as the schedule keeps them. */
const inOrder = (breaks: readonly ScheduleBreak[]) => [...breaks].sort((a, b) => a.start.localeCompare(b.start));

const toWrite = (input: Input & { breaks: ScheduleBreak[] }, cohortNumber: number): ScheduleWrite => ({
  courseId: input.courseId,
  instructorId: input.instructorId,
  cohortNumber,
  cohortName: input.cohortName,
  termNumber: input.termNumber,
  dayOfWeek: input.dayOfWeek,
  startTime: input.startTime,
  endTime: input.endTime,
  roomNumber: input.roomNumber,
  courseStartDate: input.courseStartDate,
  courseEndDate: input.courseEndDate,
  sisScheduleId: input.sisScheduleId,
  isActive: input.isActive,
  breaks: inOrder(input.breaks),
});

async function listSchedules(db: DbOrTx, opts: { instructorId?: number | null; search?: string } = {}): Promise<Schedule[]> {
  return (await selectSchedules(db, opts)).map(toSchedule);
}

/** A schedule by id, unchecked (404 when there is none): callers outside go through usableSchedule. */
async function getSchedule(db: DbOrTx, id: number): Promise<Schedule> {
  const row = await selectScheduleById(db, id);
  if (!row) throw notFound('Schedule');
  return toSchedule(row);
}

/** The schedules list: instructors get their own, admins and support staff the whole school. */
export async function listVisibleSchedules(db: DbOrTx, user: { id: number; role: Role }, search?: string): Promise<Schedule[]> {
  return listSchedules(db, { search, instructorId: viewerScope(user).instructorId });
}

/** One instructor's schedules; an instructor may ask only for their own. */
export async function listInstructorSchedules(db: DbOrTx, user: { id: number; role: Role }, instructorId: number): Promise<Schedule[]> {
  assertMayListSchedulesOf(user, instructorId);
  return listSchedules(db, { instructorId });
}

/** The schedule, for a user who may use it (the access module: instructors their own; 404, then 403). */
export async function usableSchedule(db: DbOrTx, user: { id: number; role: Role }, scheduleId: number): Promise<Schedule> {
  const schedule = await getSchedule(db, scheduleId);
  await assertMayUseSchedule(db, user, schedule);
  return schedule;
}

async function findCourse(tx: DbOrTx, courseId: number): Promise<Course | null> {
  try {
    return await getCourse(tx, courseId);
  } catch (err) {
    if (err instanceof AppError && err.statusCode === 404) return null;
    throw err;
  }
}

/** The schedule's course (it must exist) once the instructor, if any, is known to be an active instructor. */
async function checkReferences(tx: DbOrTx, input: Input): Promise<Course> {
  const course = await findCourse(tx, input.courseId);
  if (!course) throw badRequest('Course does not exist', [{ field: 'courseId', message: `No course with id ${input.courseId}` }]);
  if (input.instructorId != null) {
    if (!(await isActiveInstructor(tx, input.instructorId))) throw badRequest(INSTRUCTOR_REQUIRED, [{ field: 'instructorId', message: INSTRUCTOR_REQUIRED }]);
  }
  return course;
}

const COHORTS_FULL = `Every cohort number from ${COHORT.min} to ${COHORT.max} is in use in this program: enter the cohort number`;

/** The cohort number to store: the one given, else the named cohort's (numberNamedCohorts). */
async function cohortNumberOf(tx: DbOrTx, input: Input, course: Course, clock: Clock): Promise<number> {
  if (input.cohortNumber != null) return input.cohortNumber;
  const today = localDate(clock.now(), (await getSettings(tx)).attendance.timeZone);
  const [n] = numberNamedCohorts(await selectProgramCohorts(tx, [course.programId]), [{ programId: course.programId, cohortName: input.cohortName! }], today);
  if (n == null) throw badRequest(COHORTS_FULL, [{ field: 'cohortNumber', message: COHORTS_FULL }]);
  return n;
}

/** Who would join a new schedule's roster with each initialRoster choice (the one rule createSchedule follows). */
async function rosterCandidates(db: DbOrTx, c: { programId: number | null; cohortNumber: number | null; cohortName: string | null }) {
  if (c.programId == null) return { cohort: [], unplaced: [], program: [] };
  const rows = await selectRosterCandidates(db, { programId: c.programId, cohortNumber: c.cohortNumber, cohortName: c.cohortName });
  const entry = ({ inCohort: _i, placed: _p, ...e }: (typeof rows)[number]) => e;
  return {
    cohort: rows.filter((r) => r.inCohort).map(entry),
    unplaced: rows.filter((r) => !r.placed).map(entry),
    program: rows.map(entry),
  };
}

/** GET /api/schedules/roster-preview: the students each initialRoster choice gives a new schedule of this course and cohort. */
export async function previewRoster(db: DbOrTx, q: z.output<typeof rosterPreviewQuerySchema>): Promise<RosterPreview> {
  const course = await findCourse(db, q.courseId);
  if (!course) throw badRequest('Course does not exist', [{ field: 'courseId', message: `No course with id ${q.courseId}` }]);
  return {
    programName: course.programName,
    ...(await rosterCandidates(db, { programId: course.programId, cohortNumber: q.cohortNumber ?? null, cohortName: q.cohortName })),
  };
}

/** The students a new schedule's roster starts with: its cohort and the program's students in no class yet, the program, or nobody. */
async function initialRosterIds(
  tx: DbOrTx,
  choice: InitialRoster,
  c: { programId: number | null; cohortNumber: number; cohortName: string | null },
): Promise<number[]> {
  if (choice === 'none') return [];
  const found = await rosterCandidates(tx, c);
  return choice === 'program' ? found.program.map((s) => s.studentId) : [...found.cohort, ...found.unplaced].map((s) => s.studentId);
}

/**
 * Create a schedule. Its roster starts as `initialRoster` says (decision 047): by default its
 * cohort's students, never another cohort's; the audit entry records the choice and the count.
 */
export async function createSchedule(db: Db, input: CreateInput, ctx: Ctx): Promise<Schedule> {
  return db.transaction(async (tx) => {
    const course = await checkReferences(tx, input);
    const cohortNumber = await cohortNumberOf(tx, input, course, ctx.clock);
    // Who joins is decided before the row exists, so the new schedule is nobody's cohort class yet.
    const studentIds = await initialRosterIds(tx, input.initialRoster, { programId: course.programId, cohortNumber, cohortName: input.cohortName });
    const id = await withUniqueFields(() => insertSchedule(tx, toWrite({ ...input, breaks: input.breaks ?? [] }, cohortNumber)), UNIQUE);
    await insertRosterEntries(tx, id, studentIds);
    const created = await getSchedule(tx, id);
    await recordAudit(tx, {
      userId: ctx.actorId,
      action: 'Create',
      tableName: 'schedules',
      recordId: id,
      ipAddress: ctx.ip,
      newValues: { ...input, cohortNumber, rosterCount: created.rosterCount },
    });
    return created;
  });
}

/** An update that sends no breaks keeps the stored ones: they must still fit the class's new times. */
function keptBreaks(before: Schedule, input: Input): ScheduleBreak[] {
  const problems = scheduleBreakProblems(before.breaks, input.startTime, input.endTime);
  if (problems.length > 0) {
    const message = `The class's breaks no longer fit its times: ${problems[0]!.message}. Change or remove the breaks.`;
    throw badRequest(
      message,
      problems.map((p) => ({ field: p.path.join('.'), message: p.message })),
    );
  }
  return before.breaks;
}

export async function updateSchedule(db: Db, id: number, input: Input, ctx: Ctx): Promise<Schedule> {
  return db.transaction(async (tx) => {
    if (!(await lockSchedule(tx, id))) throw notFound('Schedule');
    const before = await getSchedule(tx, id);
    const course = await checkReferences(tx, input);
    const cohortNumber = await cohortNumberOf(tx, input, course, ctx.clock);
    const breaks = inOrder(input.breaks ?? keptBreaks(before, input));
    await withUniqueFields(() => updateScheduleRow(tx, id, toWrite({ ...input, breaks }, cohortNumber)), UNIQUE);
    const diff = changedFields(before as unknown as Record<string, unknown>, { ...input, cohortNumber, breaks } as Record<string, unknown>);
    await recordAudit(tx, { userId: ctx.actorId, action: 'Update', tableName: 'schedules', recordId: id, ipAddress: ctx.ip, ...diff });
    return getSchedule(tx, id);
  });
}

type RosterEntry = Awaited<ReturnType<typeof selectRoster>>[number];

async function listRoster(db: DbOrTx, scheduleId: number): Promise<RosterEntry[]> {
  return selectRoster(db, scheduleId);
}

/** A schedule's roster, for someone who may use the schedule. */
export async function listRosterFor(db: DbOrTx, user: { id: number; role: Role }, scheduleId: number): Promise<RosterEntry[]> {
  await assertMayUseSchedule(db, user, scheduleId);
  return listRoster(db, scheduleId);
}

export async function addToRoster(db: Db, scheduleId: number, studentIds: number[], ctx: Ctx): Promise<RosterEntry[]> {
  return db.transaction(async (tx) => {
    await getSchedule(tx, scheduleId);
    const found = await selectExistingStudentIds(tx, studentIds);
    const missing = studentIds.filter((i) => !found.includes(i));
    if (missing.length > 0) throw badRequest('Unknown student', [{ field: 'studentIds', message: `No student with id ${missing.join(', ')}` }]);
    const added = await insertRosterEntries(tx, scheduleId, studentIds);
    if (added.length > 0) {
      await recordAudit(tx, {
        userId: ctx.actorId,
        action: 'Create',
        tableName: 'schedule_rosters',
        recordId: scheduleId,
        ipAddress: ctx.ip,
        newValues: { studentIds: added },
      });
    }
    return listRoster(tx, scheduleId);
  });
}

/** Removing a student from a roster keeps their attendance history. */
export async function removeFromRoster(db: Db, scheduleId: number, studentId: number, ctx: Ctx): Promise<void> {
  await db.transaction(async (tx) => {
    if (!(await deleteRosterEntry(tx, scheduleId, studentId))) throw notFound('Roster entry');
    await recordAudit(tx, {
      userId: ctx.actorId,
      action: 'Delete',
      tableName: 'schedule_rosters',
      recordId: scheduleId,
      ipAddress: ctx.ip,
      oldValues: { studentId },
    });
  });
}

/** A newly enrolled student joins the rosters of their program's active schedules that have not ended by `today`. */
export async function addStudentToProgramRosters(tx: DbOrTx, studentId: number, programId: number, today: string): Promise<void> {
  await insertIntoProgramRosters(tx, studentId, programId, today);
}

/** A closure applies to its program's classes, or to every class when it is school-wide. */
const closes = (c: { programId: number | null }, programId: number | null) => c.programId == null || c.programId === programId;

/** The meetings of `date` that no school or program closure cancels. */
async function meetingsOn(db: DbOrTx, opts: Parameters<typeof selectMeetingsOn>[1]): Promise<MeetingRow[]> {
  const [rows, closures] = await Promise.all([selectMeetingsOn(db, opts), listClosures(db, { from: opts.date, to: opts.date })]);
  return rows.filter((r) => !closures.some((c) => closes(c, r.programId)));
}

/**
 * Today's classes on the school's clock: an instructor's own meetings, every meeting for an
 * administrator (the route admits only roles that take attendance), each with its open QR session.
 */
export async function listTodaysClasses(db: DbOrTx, user: { id: number; role: Role }, clock: Clock): Promise<TodayClasses> {
  const now = clock.now();
  const date = localDate(now, (await getSettings(db)).attendance.timeZone);
  const rows = await meetingsOn(db, { date, now, instructorId: viewerScope(user).instructorId });
  return {
    date,
    classes: rows.map(({ programId: _p, openSessionId, openSessionExpiresAt, sessionsToday, ...r }) => ({
      ...toSchedule(r),
      openSession: openSessionId && openSessionExpiresAt ? { sessionId: openSessionId, expiresAt: openSessionExpiresAt.toISOString() } : null,
      sessionsToday,
    })),
  };
}

/** What decides the days a schedule meets (common/meeting-rule.ts notAMeeting), with its course's name and program; null when there is no such schedule. */
export async function getMeetingCalendar(db: DbOrTx, scheduleId: number) {
  return (await selectMeetingCalendar(db, scheduleId)) ?? null;
}

/**
 * Why a schedule does not meet today (the start-session check), or null when it does: the meeting
 * rule of the hours ledger (common/hours.ts), an inactive schedule, and the school's closures.
 */
export async function whyNotMeetingOn(db: DbOrTx, scheduleId: number, date: string): Promise<string | null> {
  const c = await selectMeetingCalendar(db, scheduleId);
  if (!c) throw notFound('Schedule');
  let reason: NotAMeeting | 'inactive' | null = notAMeeting(date, c);
  // A make-up date is taken even on an inactive schedule; dates outside the course say so first.
  if (reason !== 'outside_dates' && !c.isActive && !c.makeupDates.includes(date)) reason = 'inactive';
  switch (reason) {
    case 'outside_dates':
      return `${c.courseName} runs from ${c.courseStartDate} to ${c.courseEndDate}; today is outside those dates.`;
    case 'inactive':
      return `This ${c.courseName} schedule is inactive.`;
    case 'other_weekday':
      return `${c.courseName} meets on ${DAY_NAMES[c.dayOfWeek]}s; today is ${DAY_NAMES[dayOfWeek(date)]}.`;
    case 'holiday':
      return `Today is a holiday for ${c.courseName}: the class does not meet.`;
    case null: {
      const closure = await closureOn(db, c.programId, date);
      return closure ? `The school is closed today (${closure.name}); ${c.courseName} does not meet.` : null;
    }
  }
}

/** The school's or the program's closure on `date` (the ledger skips such days, make-up dates included), or null. */
export async function closureOn(db: DbOrTx, programId: number | null, date: string): Promise<{ name: string } | null> {
  return (await listClosures(db, { from: date, to: date })).find((x) => closes(x, programId)) ?? null;
}

/**
 * The meeting of `date` does not take place (an instructor is sick): the date joins the schedule's
 * holiday exceptions, the one rule every reader of meetings follows (common/meeting-rule.ts notAMeeting),
 * so it is never scheduled nor an absence. The caller checks who may and audits why. False when the
 * date was a holiday of the schedule already.
 */
export async function cancelMeetingOn(tx: DbOrTx, scheduleId: number, date: string): Promise<boolean> {
  return addHolidayException(tx, scheduleId, date);
}

/** Undo cancelMeetingOn: the date is a meeting again. False when it was not a holiday of the schedule. */
export async function restoreMeetingOn(tx: DbOrTx, scheduleId: number, date: string): Promise<boolean> {
  return removeHolidayException(tx, scheduleId, date);
}
