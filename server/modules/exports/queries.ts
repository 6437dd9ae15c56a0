import { and, asc, eq, gt, gte, lte, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { attendanceRecords, courses, schedules, students } from '../../db/schema/index.ts';

/** Which records an export carries: a date range, and optionally one program, course or student. */
export type ExportFilter = { startDate: string | null; endDate: string | null } & Partial<Record<'programId' | 'courseId' | 'studentId', number | null>>;

/** One batch of the attendance export: records after `afterId` in id order, with their student, course and schedule. */
export async function listAttendanceExportBatch(db: DbOrTx, filter: ExportFilter, afterId: number, limit: number) {
  return db
    .select({
      id: attendanceRecords.id,
      // The row version PostgreSQL keeps (xmin changes with every update): the SIS mark touches
      // only records still as they were written to the file (decision 032).
      version: sql<string>`attendance_records.xmin::text`,
      sisStudentId: students.sisStudentId,
      studentId: students.id,
      firstName: students.firstName,
      lastName: students.lastName,
      email: students.email,
      sisCourseId: courses.sisCourseId,
      courseCode: courses.courseCode,
      courseName: courses.courseName,
      sisScheduleId: schedules.sisScheduleId,
      sessionDate: attendanceRecords.sessionDate,
      scanInTime: attendanceRecords.scanInTime,
      status: attendanceRecords.status,
      syncStatus: attendanceRecords.syncStatus,
      scanOutTime: attendanceRecords.scanOutTime,
      minutesAttended: attendanceRecords.minutesAttended,
      scheduledMinutes: attendanceRecords.scheduledMinutes,
      isManualOverride: attendanceRecords.isManualOverride,
      overrideReason: attendanceRecords.overrideReason,
      source: attendanceRecords.source,
    })
    .from(attendanceRecords)
    .innerJoin(students, eq(students.id, attendanceRecords.studentId))
    .innerJoin(schedules, eq(schedules.id, attendanceRecords.scheduleId))
    .innerJoin(courses, eq(courses.id, schedules.courseId))
    .where(
      and(
        gt(attendanceRecords.id, afterId),
        filter.startDate ? gte(attendanceRecords.sessionDate, filter.startDate) : undefined,
        filter.endDate ? lte(attendanceRecords.sessionDate, filter.endDate) : undefined,
        // A program's records are those of its courses' classes (a student may take a course of another program).
        filter.programId != null ? eq(courses.programId, filter.programId) : undefined,
        filter.courseId != null ? eq(schedules.courseId, filter.courseId) : undefined,
        filter.studentId != null ? eq(attendanceRecords.studentId, filter.studentId) : undefined,
      ),
    )
    .orderBy(asc(attendanceRecords.id))
    .limit(limit);
}

/**
 * Marks records handed to the SIS as synced: only those still pending or failed and still at the
 * version written to the file (a record changed since keeps its state). Returns how many changed.
 */
export async function markRecordsSynced(tx: DbOrTx, exported: { ids: number[]; versions: string[] }): Promise<number> {
  const { rowCount } = await tx.execute(sql`
    update attendance_records a set sync_status = 'synced'
      from unnest(${sql.param(exported.ids)}::int[], ${sql.param(exported.versions)}::text[]) as v(id, version)
     where a.id = v.id and a.xmin::text = v.version and a.sync_status in ('pending', 'failed')`);
  return rowCount ?? 0;
}
