// A record's corrections and history, and clock-hour totals; re-exported by queries.ts.
import { eq, sql } from 'drizzle-orm';

import type { DbOrTx } from '../../db/client.ts';
import type { courses } from '../../db/schema/index.ts';
import { attendanceCorrections, attendanceRecords, users } from '../../db/schema/index.ts';
import { userFullName } from '../../db/user-name.ts';
import { type RecordColumns, type StudentColumns } from './check-in-queries.ts';

// ---- Corrections (the record's history) ----

export async function insertCorrection(tx: DbOrTx, c: typeof attendanceCorrections.$inferInsert): Promise<void> {
  await tx.insert(attendanceCorrections).values(c);
}

type HistoryRecord = Pick<
  RecordColumns,
  'id' | 'studentId' | 'scheduleId' | 'sessionDate' | 'status' | 'scanInTime' | 'scanOutTime' | 'minutesAttended' | 'source' | 'overrideReason' | 'createdAt'
> & { createdByName: string | null };

export async function selectHistoryRecord(db: DbOrTx, recordId: number): Promise<HistoryRecord | undefined> {
  const [row] = await db
    .select({
      id: attendanceRecords.id,
      studentId: attendanceRecords.studentId,
      scheduleId: attendanceRecords.scheduleId,
      sessionDate: attendanceRecords.sessionDate,
      status: attendanceRecords.status,
      scanInTime: attendanceRecords.scanInTime,
      scanOutTime: attendanceRecords.scanOutTime,
      minutesAttended: attendanceRecords.minutesAttended,
      source: attendanceRecords.source,
      overrideReason: attendanceRecords.overrideReason,
      createdAt: attendanceRecords.createdAt,
      createdByName: userFullName,
    })
    .from(attendanceRecords)
    .leftJoin(users, eq(users.id, attendanceRecords.createdBy))
    .where(eq(attendanceRecords.id, recordId));
  return row ? { ...row, status: row.status } : undefined;
}

export async function selectCorrections(db: DbOrTx, recordId: number) {
  return db
    .select({
      at: attendanceCorrections.changedAt,
      by: userFullName,
      email: users.email,
      reason: attendanceCorrections.reason,
      before: attendanceCorrections.before,
      after: attendanceCorrections.after,
    })
    .from(attendanceCorrections)
    .leftJoin(users, eq(users.id, attendanceCorrections.changedBy))
    .where(eq(attendanceCorrections.attendanceRecordId, recordId))
    .orderBy(attendanceCorrections.changedAt, attendanceCorrections.id);
}

// ---- Clock hours ----

export type ClockHoursFilter = { scheduleId?: number; studentId?: number; instructorId?: number; from?: string; to?: string };

type ClockHoursRow = Pick<RecordColumns, 'studentId' | 'scheduleId'> &
  Pick<StudentColumns, 'firstName' | 'lastName'> &
  Pick<typeof courses.$inferSelect, 'courseCode'> & { meetings: number; scheduled: number; attended: number; excused: number };

/** Meetings and minutes per student and schedule over the records that match the filter. */
export async function clockHoursTotals(db: DbOrTx, filter: ClockHoursFilter): Promise<ClockHoursRow[]> {
  const where = [sql`true`];
  if (filter.scheduleId != null) where.push(sql`a.schedule_id = ${filter.scheduleId}`);
  if (filter.studentId != null) where.push(sql`a.student_id = ${filter.studentId}`);
  if (filter.instructorId != null) where.push(sql`s.instructor_id = ${filter.instructorId}`);
  if (filter.from) where.push(sql`a.session_date >= ${filter.from}`);
  if (filter.to) where.push(sql`a.session_date <= ${filter.to}`);
  const { rows } = await db.execute<ClockHoursRow>(sql`
    select a.student_id as "studentId", a.schedule_id as "scheduleId", st.first_name as "firstName", st.last_name as "lastName",
           c.course_code as "courseCode", count(*)::int as meetings,
           coalesce(sum(a.scheduled_minutes), 0)::int as scheduled, coalesce(sum(a.minutes_attended), 0)::int as attended,
           coalesce(sum(a.scheduled_minutes) filter (where a.status = 'excused'), 0)::int as excused
      from attendance_records a join students st on st.id = a.student_id join schedules s on s.id = a.schedule_id join courses c on c.id = s.course_id
     where ${sql.join(where, sql` and `)}
     group by a.student_id, a.schedule_id, st.first_name, st.last_name, c.course_code
     order by c.course_code, lower(st.last_name), lower(st.first_name)`);
  return rows;
}
