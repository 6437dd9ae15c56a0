import { and, asc, eq, gt, gte, lte } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { attendanceRecords, courses, schedules, students } from '../../db/schema/index.ts';

export type ExportRange = { startDate: string | null; endDate: string | null };

/** One batch of the attendance export: records after `afterId` in id order, with their student, course and schedule. */
export async function listAttendanceExportBatch(db: DbOrTx, range: ExportRange, afterId: number, limit: number) {
  return db
    .select({
      id: attendanceRecords.id,
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
        range.startDate ? gte(attendanceRecords.sessionDate, range.startDate) : undefined,
        range.endDate ? lte(attendanceRecords.sessionDate, range.endDate) : undefined,
      ),
    )
    .orderBy(asc(attendanceRecords.id))
    .limit(limit);
}
