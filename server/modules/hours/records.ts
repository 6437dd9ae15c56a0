// A student's attendance records, and one record's history, for those who may read the student's hours.
import type { z } from 'zod';
import type { AttendanceHistory, studentRecordSchema } from '../../../common/hours.ts';
import type { Role } from '../../../common/roles.ts';
import type { DbOrTx } from '../../db/client.ts';
import { assertMayReadAttendanceRecord, assertMayReadStudent } from '../access/service.ts';
import { recordHistoryUnchecked } from '../attendance/service.ts';
import { selectStudentRecords } from './queries.ts';

type User = { id: number; role: Role };

export async function recordsOf(
  db: DbOrTx,
  studentId: number,
  from: string | undefined,
  to: string | undefined,
): Promise<z.infer<typeof studentRecordSchema>[]> {
  const rows = await selectStudentRecords(db, studentId, from, to);
  return rows.map(({ corrections, ...r }) => ({
    ...r,
    status: r.status as z.infer<typeof studentRecordSchema>['status'],
    source: r.source as z.infer<typeof studentRecordSchema>['source'],
    scanInTime: r.scanInTime?.toISOString() ?? null,
    scanOutTime: r.scanOutTime?.toISOString() ?? null,
    corrected: corrections > 0,
    // json_build_object writes PostgreSQL's timestamp text: the API speaks ISO.
    breaks: r.breaks.map((b) => ({
      kind: b.kind,
      startedAt: new Date(b.startedAt).toISOString(),
      endedAt: b.endedAt == null ? null : new Date(b.endedAt).toISOString(),
    })),
  }));
}

export async function studentRecords(
  db: DbOrTx,
  user: User,
  studentId: number,
  q: { from?: string; to?: string },
): Promise<z.infer<typeof studentRecordSchema>[]> {
  await assertMayReadStudent(db, user, studentId);
  return recordsOf(db, studentId, q.from, q.to);
}

/** A record's history, for those who may read its student's hours (instructors: unknown ids get the same 403). */
export async function attendanceHistory(db: DbOrTx, user: User, recordId: number): Promise<AttendanceHistory> {
  await assertMayReadAttendanceRecord(db, user, recordId);
  return recordHistoryUnchecked(db, recordId);
}
