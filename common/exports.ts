import { z } from 'zod';
import { optionalDbId, queryDate } from './validation.ts';

/**
 * Which attendance records an export carries (decision 032): SPEC's optional date range, and
 * optionally one program (its courses' classes), one course or one student. The same fields arrive
 * as a query string (GET /api/export/attendance) or a JSON body (POST /api/sis/attendance-export).
 */
export const attendanceExportFilterSchema = z
  .object({
    startDate: queryDate('startDate').transform((v) => v ?? null),
    endDate: queryDate('endDate').transform((v) => v ?? null),
    programId: optionalDbId('programId'),
    courseId: optionalDbId('courseId'),
    studentId: optionalDbId('studentId'),
  })
  .refine((q) => !q.startDate || !q.endDate || q.startDate <= q.endDate, { path: ['endDate'], message: 'endDate must not be before startDate' });
export type AttendanceExportFilter = z.output<typeof attendanceExportFilterSchema>;

/** The filter's fields as the export tab sends them (empty ones are left out). */
export type AttendanceExportFilterInput = Partial<Record<keyof AttendanceExportFilter, string>>;

/**
 * The analytics export (GET /api/export/analytics): the Analytics tab's figures as one table, one
 * row per figure, its `section` saying which panel it comes from; columns a section does not use are empty.
 */
export const ANALYTICS_EXPORT_COLUMNS = [
  'section',
  'item',
  'code',
  'date',
  'value',
  'unit',
  'target',
  'trend',
  'riskLevel',
  'sessions',
  'present',
  'total',
] as const;

export const ATTENDANCE_EXPORT_COLUMNS = [
  'sisStudentId',
  'studentId',
  'firstName',
  'lastName',
  'email',
  'sisCourseId',
  'courseCode',
  'courseName',
  'sisScheduleId',
  'sessionDate',
  'scanInTime',
  'status',
  'syncStatus',
  'scanOutTime',
  'minutesAttended',
  'scheduledMinutes',
  'isManualOverride',
  'overrideReason',
  'source',
] as const;
/** The SIS columns of SPEC §3; the rest are the clock-hour details career schools report. */
export const SPEC_EXPORT_COLUMN_COUNT = 13;
