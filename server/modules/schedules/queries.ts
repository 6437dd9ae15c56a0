import { and, asc, eq, ilike, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { userFullName } from '../../db/user-name.ts';
import { courses, scheduleRosters, schedules, students, users } from '../../db/schema/index.ts';

export type ScheduleWrite = Pick<
  typeof schedules.$inferInsert,
  | 'courseId'
  | 'instructorId'
  | 'cohortNumber'
  | 'termNumber'
  | 'dayOfWeek'
  | 'startTime'
  | 'endTime'
  | 'roomNumber'
  | 'courseStartDate'
  | 'courseEndDate'
  | 'sisScheduleId'
  | 'isActive'
>;

const rosterCount = sql<number>`(select count(*)::int from ${scheduleRosters} where ${scheduleRosters.scheduleId} = ${schedules.id})`;

/** Schedules with their course, instructor name and roster size: the shape the API answers with. */
function selectScheduleRows(db: DbOrTx, where: SQL | undefined) {
  return db
    .select({
      id: schedules.id,
      courseId: schedules.courseId,
      courseName: courses.courseName,
      courseCode: courses.courseCode,
      instructorId: schedules.instructorId,
      instructorName: userFullName,
      cohortNumber: schedules.cohortNumber,
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
    })
    .from(schedules)
    .innerJoin(courses, eq(courses.id, schedules.courseId))
    .leftJoin(users, eq(users.id, schedules.instructorId))
    .where(where);
}

export type ScheduleRow = Awaited<ReturnType<typeof selectScheduleRows>>[number];

export async function selectSchedules(db: DbOrTx, opts: { instructorId?: number; search?: string }): Promise<ScheduleRow[]> {
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

/** Bulk statement: every enrolled student of the course's program joins the schedule's roster. */
export async function insertProgramRoster(db: DbOrTx, scheduleId: number, courseId: number): Promise<void> {
  await db.execute(sql`
    insert into ${scheduleRosters} (schedule_id, student_id)
    select ${scheduleId}, st.id from ${students} st join ${courses} c on c.program_id = st.program_id
     where c.id = ${courseId} and st.status = 'enrolled'
    on conflict do nothing`);
}

export async function selectRoster(db: DbOrTx, scheduleId: number) {
  return db
    .select({
      studentId: students.id,
      firstName: students.firstName,
      lastName: students.lastName,
      email: students.email,
      sisStudentId: students.sisStudentId,
      status: students.status,
    })
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
