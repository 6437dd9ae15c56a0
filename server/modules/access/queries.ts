import { eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { onInstructorRoster } from '../../db/roster-membership.ts';
import { attendanceRecords, schedules, students } from '../../db/schema/index.ts';

// The few facts the access rules read: who teaches a schedule, whose a record is, whether a student
// is on an instructor's roster. Reads across other modules' tables (decision 010 allows reads);
// nothing here writes.

/** Is the student on the roster of a schedule this instructor teaches? (The one membership rule: server/db/roster-membership.ts.) */
export async function isOnInstructorRoster(db: DbOrTx, studentId: number, instructorId: number): Promise<boolean> {
  const { rows } = await db.execute<{ on: boolean }>(sql`select ${onInstructorRoster(studentId, instructorId)} as "on"`);
  return rows[0]?.on === true;
}

export async function studentExists(db: DbOrTx, studentId: number): Promise<boolean> {
  const [row] = await db.select({ id: students.id }).from(students).where(eq(students.id, studentId));
  return row != null;
}

/** Who teaches the schedule; undefined when there is no such schedule. */
export async function selectScheduleTeacher(db: DbOrTx, scheduleId: number): Promise<{ instructorId: number | null } | undefined> {
  const [row] = await db.select({ instructorId: schedules.instructorId }).from(schedules).where(eq(schedules.id, scheduleId));
  return row;
}

/** Whose attendance record it is; undefined when there is no such record. */
export async function selectRecordStudentId(db: DbOrTx, recordId: number): Promise<number | undefined> {
  const [row] = await db.select({ studentId: attendanceRecords.studentId }).from(attendanceRecords).where(eq(attendanceRecords.id, recordId));
  return row?.studentId;
}
