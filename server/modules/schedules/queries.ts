import { and, asc, eq, ilike, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import type { ProgramCohort } from '../../../common/schedules.ts';
import { userFullName } from '../../db/user-name.ts';
import { scheduleMeetsOn } from '../../db/meeting-rule.ts';
import { courses, qrSessions, scheduleRosters, schedules, students, users } from '../../db/schema/index.ts';

export type ScheduleWrite = Pick<
  typeof schedules.$inferInsert,
  | 'courseId'
  | 'instructorId'
  | 'cohortNumber'
  | 'cohortName'
  | 'termNumber'
  | 'dayOfWeek'
  | 'startTime'
  | 'endTime'
  | 'roomNumber'
  | 'courseStartDate'
  | 'courseEndDate'
  | 'breaks'
  | 'sisScheduleId'
  | 'isActive'
>;

const rosterCount = sql<number>`(select count(*)::int from ${scheduleRosters} where ${scheduleRosters.scheduleId} = ${schedules.id})`;

/** A schedule with its course, instructor name and roster size: the shape the API answers with. */
const scheduleColumns = {
  id: schedules.id,
  courseId: schedules.courseId,
  courseName: courses.courseName,
  courseCode: courses.courseCode,
  instructorId: schedules.instructorId,
  instructorName: userFullName,
  cohortNumber: schedules.cohortNumber,
  cohortName: schedules.cohortName,
  termNumber: schedules.termNumber,
  dayOfWeek: schedules.dayOfWeek,
  startTime: schedules.startTime,
  endTime: schedules.endTime,
  roomNumber: schedules.roomNumber,
  courseStartDate: schedules.courseStartDate,
  courseEndDate: schedules.courseEndDate,
  sisScheduleId: schedules.sisScheduleId,
  isActive: schedules.isActive,
  rosterCount,
  breaks: schedules.breaks,
};

function selectScheduleRows(db: DbOrTx, where: SQL | undefined) {
  return db
    .select(scheduleColumns)
    .from(schedules)
    .innerJoin(courses, eq(courses.id, schedules.courseId))
    .leftJoin(users, eq(users.id, schedules.instructorId))
    .where(where);
}

export type ScheduleRow = Awaited<ReturnType<typeof selectScheduleRows>>[number];

export async function selectSchedules(db: DbOrTx, opts: { instructorId?: number | null; search?: string }): Promise<ScheduleRow[]> {
  const filters: SQL[] = [];
  if (opts.instructorId != null) filters.push(eq(schedules.instructorId, opts.instructorId));
  if (opts.search) {
    const term = `%${opts.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    filters.push(
      or(
        ilike(courses.courseName, term),
        ilike(courses.courseCode, term),
        ilike(schedules.roomNumber, term),
        ilike(schedules.sisScheduleId, term),
        ilike(schedules.cohortName, term),
        sql`(${users.firstName} || ' ' || ${users.lastName}) ilike ${term}`,
      )!,
    );
  }
  return selectScheduleRows(db, and(...filters)).orderBy(
    asc(courses.courseCode),
    asc(schedules.cohortNumber),
    asc(schedules.dayOfWeek),
    asc(schedules.startTime),
  );
}

export async function selectScheduleById(db: DbOrTx, id: number): Promise<ScheduleRow | undefined> {
  const [row] = await selectScheduleRows(db, eq(schedules.id, id));
  return row;
}

/** Locks the schedule row for the rest of the transaction; false when it does not exist. */
export async function lockSchedule(tx: DbOrTx, id: number): Promise<boolean> {
  const rows = await tx.select({ id: schedules.id }).from(schedules).where(eq(schedules.id, id)).for('update');
  return rows.length > 0;
}

export async function insertSchedule(db: DbOrTx, values: ScheduleWrite): Promise<number> {
  const [row] = await db.insert(schedules).values(values).returning({ id: schedules.id });
  return row!.id;
}

export async function updateScheduleRow(db: DbOrTx, id: number, values: ScheduleWrite): Promise<void> {
  await db
    .update(schedules)
    .set({ ...values, updatedAt: sql`now()` })
    .where(eq(schedules.id, id));
}

/** A student as a roster (and a roster preview) shows them. */
const rosterStudentColumns = {
  studentId: students.id,
  firstName: students.firstName,
  lastName: students.lastName,
  email: students.email,
  sisStudentId: students.sisStudentId,
  status: students.status,
};

/** Whether the outer query's student is on a roster of the program's schedules (those matching `alsoWhere`, as `sc`). */
const onProgramRoster = (programId: number, alsoWhere: SQL = sql`true`) => sql`exists (
  select 1 from ${scheduleRosters} r join ${schedules} sc on sc.id = r.schedule_id join ${courses} co on co.id = sc.course_id
   where r.student_id = ${students.id} and co.program_id = ${programId} and ${alsoWhere})`;

/**
 * The enrolled students of a program, each with whether they are on a roster of the cohort's
 * schedules (same number, same name or both unnamed, names compared without case) and whether
 * they are on a roster of any of the program's schedules.
 */
export async function selectRosterCandidates(db: DbOrTx, c: { programId: number; cohortNumber: number | null; cohortName: string | null }) {
  const sameCohort = and(
    c.cohortNumber == null ? undefined : sql`sc.cohort_number = ${c.cohortNumber}`,
    sql`lower(coalesce(sc.cohort_name, '')) = lower(${c.cohortName ?? ''})`,
  )!;
  return db
    .select({
      ...rosterStudentColumns,
      inCohort: sql<boolean>`${c.cohortNumber == null && c.cohortName == null ? sql`false` : onProgramRoster(c.programId, sameCohort)}`,
      placed: sql<boolean>`${onProgramRoster(c.programId)}`,
    })
    .from(students)
    .where(and(eq(students.programId, c.programId), eq(students.status, 'enrolled')))
    .orderBy(sql`lower(${students.lastName})`, sql`lower(${students.firstName})`, asc(students.id));
}

/** The cohorts of these programs' schedules (null: courses of no program), for numberNamedCohorts. */
export async function selectProgramCohorts(db: DbOrTx, programIds: readonly (number | null)[]): Promise<ProgramCohort[]> {
  const ids = programIds.filter((id): id is number => id != null);
  return db
    .selectDistinct({
      programId: courses.programId,
      cohortNumber: schedules.cohortNumber,
      cohortName: schedules.cohortName,
      courseEndDate: schedules.courseEndDate,
    })
    .from(schedules)
    .innerJoin(courses, eq(courses.id, schedules.courseId))
    .where(or(ids.length > 0 ? inArray(courses.programId, ids) : undefined, programIds.includes(null) ? isNull(courses.programId) : undefined) ?? sql`false`);
}

export async function selectRoster(db: DbOrTx, scheduleId: number) {
  return db
    .select(rosterStudentColumns)
    .from(scheduleRosters)
    .innerJoin(students, eq(students.id, scheduleRosters.studentId))
    .where(eq(scheduleRosters.scheduleId, scheduleId))
    .orderBy(sql`lower(${students.lastName})`, sql`lower(${students.firstName})`);
}

export async function selectExistingStudentIds(db: DbOrTx, ids: number[]): Promise<number[]> {
  if (ids.length === 0) return [];
  const rows = await db.select({ id: students.id }).from(students).where(inArray(students.id, ids));
  return rows.map((r) => r.id);
}

/** Adds the students not yet on the roster; returns the ids actually added. */
export async function insertRosterEntries(db: DbOrTx, scheduleId: number, studentIds: number[]): Promise<number[]> {
  if (studentIds.length === 0) return [];
  const rows = await db
    .insert(scheduleRosters)
    .values(studentIds.map((studentId) => ({ scheduleId, studentId })))
    .onConflictDoNothing()
    .returning({ studentId: scheduleRosters.studentId });
  return rows.map((r) => r.studentId);
}

/** Returns whether an entry was removed. */
export async function deleteRosterEntry(db: DbOrTx, scheduleId: number, studentId: number): Promise<boolean> {
  const rows = await db
    .delete(scheduleRosters)
    .where(and(eq(scheduleRosters.scheduleId, scheduleId), eq(scheduleRosters.studentId, studentId)))
    .returning({ studentId: scheduleRosters.studentId });
  return rows.length > 0;
}

/** Bulk statement: the student joins the rosters of the program's active schedules not ended by `today`. */
export async function insertIntoProgramRosters(db: DbOrTx, studentId: number, programId: number, today: string): Promise<void> {
  await db.execute(sql`
    insert into ${scheduleRosters} (schedule_id, student_id)
    select sc.id, ${studentId} from ${schedules} sc join ${courses} co on co.id = sc.course_id
     where co.program_id = ${programId} and sc.is_active and sc.course_end_date >= ${today}::date
    on conflict do nothing`);
}

/** What decides whether a schedule meets on a date (common/meeting-rule.ts notAMeeting), with its course's name and program. */
export async function selectMeetingCalendar(db: DbOrTx, id: number) {
  const [row] = await db
    .select({
      courseName: courses.courseName,
      programId: courses.programId,
      isActive: schedules.isActive,
      courseStartDate: schedules.courseStartDate,
      courseEndDate: schedules.courseEndDate,
      dayOfWeek: schedules.dayOfWeek,
      holidayExceptions: schedules.holidayExceptions,
      makeupDates: schedules.makeupDates,
    })
    .from(schedules)
    .innerJoin(courses, eq(courses.id, schedules.courseId))
    .where(eq(schedules.id, id));
  return row ? { ...row, holidayExceptions: row.holidayExceptions ?? [], makeupDates: row.makeupDates ?? [] } : undefined;
}

export type MeetingRow = ScheduleRow & { programId: number | null; openSessionId: string | null; openSessionExpiresAt: Date | null; sessionsToday: number };

/**
 * The schedules meeting on `date` (one instructor's when given, or one schedule), ordered by start
 * time, with the newest QR session open at `now` and the number of sessions run that day.
 */
export async function selectMeetingsOn(
  db: DbOrTx,
  opts: { date: string; now: Date; instructorId?: number | null; scheduleId?: number },
): Promise<MeetingRow[]> {
  const open = sql`(select q from ${qrSessions} q where q.schedule_id = ${schedules.id} and q.is_active and q.expires_at > ${opts.now}::timestamptz order by q.created_at desc limit 1)`;
  const rows = await db
    .select({
      ...scheduleColumns,
      programId: courses.programId,
      openSessionId: sql<string | null>`(${open}).session_id::text`,
      openSessionExpiresAt: sql<string | null>`(${open}).expires_at`,
      sessionsToday: sql<number>`(select count(*)::int from ${qrSessions} q where q.schedule_id = ${schedules.id} and q.session_date = ${opts.date}::date)`,
    })
    .from(schedules)
    .innerJoin(courses, eq(courses.id, schedules.courseId))
    .leftJoin(users, eq(users.id, schedules.instructorId))
    .where(
      and(
        scheduleMeetsOn('schedules', sql`${opts.date}::date`),
        opts.instructorId != null ? eq(schedules.instructorId, opts.instructorId) : undefined,
        opts.scheduleId != null ? eq(schedules.id, opts.scheduleId) : undefined,
      ),
    )
    .orderBy(asc(schedules.startTime), asc(courses.courseCode), asc(schedules.cohortNumber));
  return rows.map((r) => ({ ...r, openSessionExpiresAt: r.openSessionExpiresAt == null ? null : new Date(r.openSessionExpiresAt) }));
}

/** Add a date to a schedule's holiday exceptions (its meeting that day is cancelled); false when it was there already. */
export async function addHolidayException(tx: DbOrTx, scheduleId: number, date: string): Promise<boolean> {
  const rows = await tx
    .update(schedules)
    .set({ holidayExceptions: sql`array_append(coalesce(${schedules.holidayExceptions}, '{}'), ${date}::date)`, updatedAt: sql`now()` })
    .where(and(eq(schedules.id, scheduleId), sql`not (${date}::date = any(coalesce(${schedules.holidayExceptions}, '{}')))`))
    .returning({ id: schedules.id });
  return rows.length > 0;
}

/** Remove a date from a schedule's holiday exceptions; false when it was not there. */
export async function removeHolidayException(tx: DbOrTx, scheduleId: number, date: string): Promise<boolean> {
  const rows = await tx
    .update(schedules)
    .set({ holidayExceptions: sql`array_remove(${schedules.holidayExceptions}, ${date}::date)`, updatedAt: sql`now()` })
    .where(and(eq(schedules.id, scheduleId), sql`${date}::date = any(coalesce(${schedules.holidayExceptions}, '{}'))`))
    .returning({ id: schedules.id });
  return rows.length > 0;
}
