import { Readable } from 'node:stream';
import { sql } from 'drizzle-orm';
import { ATTENDANCE_EXPORT_COLUMNS } from '../../../common/import-columns.ts';
import type { DbOrTx } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import { csvStream } from '../../lib/csv.ts';
import { localDate } from '../../lib/school-time.ts';
import { isoOrNull } from '../../lib/sql-values.ts';
import { recordAudit } from '../audit-logs/service.ts';
import { getSettings } from '../settings/service.ts';

/** Rows fetched per query: a million-row export never sits in memory. */
export const EXPORT_BATCH = 5000;

type Row = {
  id: number;
  sis_student_id: string | null;
  student_id: number;
  first_name: string;
  last_name: string;
  email: string | null;
  sis_course_id: string | null;
  course_code: string;
  course_name: string;
  sis_schedule_id: string | null;
  session_date: string;
  scan_in_time: string | null;
  status: string;
  sync_status: string;
  scan_out_time: string | null;
  minutes_attended: number | null;
  scheduled_minutes: number | null;
  is_manual_override: boolean;
  override_reason: string | null;
  source: string;
};

export type ExportRange = { startDate: string | null; endDate: string | null };

/**
 * Attendance rows in id order, one keyset-paginated batch at a time (`id > last`), each batch a
 * short query of its own: no long transaction, no cursor held between batches.
 */
export async function* attendanceRows(db: DbOrTx, range: ExportRange, batch = EXPORT_BATCH): AsyncGenerator<Record<(typeof ATTENDANCE_EXPORT_COLUMNS)[number], unknown>> {
  let last = 0;
  for (;;) {
    const { rows } = await db.execute<Row>(sql`
      select a.id, st.sis_student_id, st.id as student_id, st.first_name, st.last_name, st.email,
             c.sis_course_id, c.course_code, c.course_name, s.sis_schedule_id, a.session_date::text as session_date,
             a.scan_in_time::text as scan_in_time, a.status, a.sync_status, a.scan_out_time::text as scan_out_time,
             a.minutes_attended, a.scheduled_minutes, a.is_manual_override, a.override_reason, a.source
        from attendance_records a
        join students st on st.id = a.student_id
        join schedules s on s.id = a.schedule_id
        join courses c on c.id = s.course_id
       where a.id > ${last}
         and (${range.startDate}::date is null or a.session_date >= ${range.startDate}::date)
         and (${range.endDate}::date is null or a.session_date <= ${range.endDate}::date)
       order by a.id
       limit ${batch}`);
    for (const r of rows) {
      yield {
        sisStudentId: r.sis_student_id,
        studentId: r.student_id,
        firstName: r.first_name,
        lastName: r.last_name,
        email: r.email,
        sisCourseId: r.sis_course_id,
        courseCode: r.course_code,
        courseName: r.course_name,
        sisScheduleId: r.sis_schedule_id,
        sessionDate: r.session_date,
        scanInTime: isoOrNull(r.scan_in_time),
        status: r.status,
        syncStatus: r.sync_status,
        scanOutTime: isoOrNull(r.scan_out_time),
        minutesAttended: r.minutes_attended,
        scheduledMinutes: r.scheduled_minutes,
        isManualOverride: r.is_manual_override,
        overrideReason: r.override_reason,
        source: r.source,
      };
    }
    if (rows.length < batch) return;
    last = rows[rows.length - 1]!.id;
  }
}

/**
 * The CSV as a stream: header row, then rows as the batches arrive (backpressure from the client).
 * Text cells that a spreadsheet would run as formulas are neutralised (lib/csv.ts).
 */
export function attendanceCsvStream(db: DbOrTx, range: ExportRange, batch = EXPORT_BATCH): Readable {
  const csv = csvStream(ATTENDANCE_EXPORT_COLUMNS);
  const source = Readable.from(attendanceRows(db, range, batch));
  source.on('error', (err) => csv.destroy(err));
  return source.pipe(csv);
}

/**
 * The attendance export: audited as it starts (so an aborted download is still on record), named
 * attendance_export_{school-local date}.csv, and streamed batch by batch.
 */
export async function exportAttendance(db: DbOrTx, range: ExportRange, ctx: { actorId: number; ip: string | null; clock: Clock }): Promise<{ fileName: string; stream: Readable }> {
  const { timeZone } = (await getSettings(db)).attendance;
  const fileName = `attendance_export_${localDate(ctx.clock.now(), timeZone)}.csv`;
  await recordAudit(db, { userId: ctx.actorId, action: 'Export', tableName: 'attendance', ipAddress: ctx.ip, newValues: { ...range, fileName } });
  return { fileName, stream: attendanceCsvStream(db, range) };
}
