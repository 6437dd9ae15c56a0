// Reads across records: clock hours per student and schedule, and one record's history.
import type { AttendanceHistory, RecordValues } from '../../../common/hours.ts';
import type { Role } from '../../../common/roles.ts';
import type { DbOrTx } from '../../db/client.ts';
import { notFound } from '../../lib/errors.ts';
import { viewerScope } from '../access/service.ts';
import { recordValues } from './punch-corrections.ts';
import { clockHoursTotals, selectCorrections, selectHistoryRecord, type ClockHoursFilter } from './history-queries.ts';

type User = { id: number; role: Role };

type ClockHours = {
  studentId: number;
  scheduleId: number;
  firstName: string;
  lastName: string;
  courseCode: string;
  meetings: number;
  scheduledMinutes: number;
  attendedMinutes: number;
  excusedMinutes: number;
  attendanceRate: number;
};

/**
 * Clock hours per student and schedule: minutes scheduled for the meetings that took place
 * (those with records) against minutes attended. Instructors see their own schedules' only.
 */
export async function clockHours(db: DbOrTx, user: User, filter: Omit<ClockHoursFilter, 'instructorId'>): Promise<ClockHours[]> {
  const rows = await clockHoursTotals(db, { ...filter, instructorId: viewerScope(user).instructorId ?? undefined });
  return rows.map((r) => ({
    studentId: r.studentId,
    scheduleId: r.scheduleId,
    firstName: r.firstName,
    lastName: r.lastName,
    courseCode: r.courseCode,
    meetings: r.meetings,
    scheduledMinutes: r.scheduled,
    attendedMinutes: r.attended,
    excusedMinutes: r.excused,
    attendanceRate: r.scheduled > 0 ? Math.round((r.attended / r.scheduled) * 1000) / 10 : 0,
  }));
}

/**
 * GET /api/attendance/{id}/history: the record as first captured and every staff change after it.
 * Unchecked: who may read is decided by the caller (the access module's need-to-know) before this runs.
 */
export async function recordHistoryUnchecked(db: DbOrTx, recordId: number): Promise<AttendanceHistory> {
  const [record, changes] = await Promise.all([selectHistoryRecord(db, recordId), selectCorrections(db, recordId)]);
  if (!record) throw notFound('Attendance record');
  const current = recordValues(record);
  const first = changes[0]?.before as RecordValues | undefined;
  return {
    recordId,
    studentId: record.studentId,
    scheduleId: record.scheduleId,
    sessionDate: record.sessionDate,
    original: { ...(first ?? current), capturedAt: record.createdAt.toISOString(), capturedBy: record.createdByName },
    changes: changes.map((c) => ({
      at: c.at.toISOString(),
      by: c.by ?? c.email,
      reason: c.reason,
      before: c.before as RecordValues,
      after: c.after as RecordValues,
    })),
    current,
  };
}
