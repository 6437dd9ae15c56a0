// The auto-absent job's absences, and the meetings they belong to: which were held, and what cancelling one throws away.
import { and, count, eq, sql } from 'drizzle-orm';
import { anyOf } from '../../db/bulk-upsert.ts';
import type { DbOrTx } from '../../db/client.ts';
import { attendanceRecords } from '../../db/schema/index.ts';
import { auditInsertFragment } from '../audit-logs/service.ts';
import { SINGLE_LOCKS } from '../../db/advisory-locks.ts';

/** Let one instance do the auto-absent work: false when another holds the lock (until its transaction ends). */
export async function tryAutoAbsentLock(tx: DbOrTx): Promise<boolean> {
  const { rows } = await tx.execute<{ locked: boolean }>(sql`select pg_try_advisory_xact_lock(${SINGLE_LOCKS.autoAbsent}) as locked`);
  return rows[0]?.locked ?? false;
}

/**
 * Absences (source 'auto') for the enrolled students on a schedule's roster with no record of the
 * meeting, and their audit entries, in one statement; never touches an existing record. The count written.
 */
export async function insertAbsences(tx: DbOrTx, m: { scheduleId: number; sessionDate: string; scheduledMinutes: number; now: Date }): Promise<number> {
  const { rows } = await tx.execute<{ n: number }>(sql`
    with ins as (
      insert into attendance_records (student_id, schedule_id, session_date, status, minutes_attended, scheduled_minutes, source, created_at, updated_at)
      select r.student_id, ${m.scheduleId}, ${m.sessionDate}, 'absent', 0, ${m.scheduledMinutes}, 'auto', ${m.now}, ${m.now}
        from schedule_rosters r join students st on st.id = r.student_id
       where r.schedule_id = ${m.scheduleId} and st.status in ('enrolled', 'active')
      on conflict (schedule_id, student_id, session_date) do nothing
      returning id, student_id
    ), audit as (${auditInsertFragment({
      from: sql`ins`,
      userId: null,
      at: sql`${m.now}::timestamptz`,
      action: 'Create',
      tableName: 'attendance',
      recordId: sql`ins.id::text`,
      newValues: sql`jsonb_build_object('status', 'absent', 'source', 'auto', 'studentId', ins.student_id, 'scheduleId', ${m.scheduleId}::int, 'sessionDate', ${m.sessionDate}::text)`,
    })}
    )
    select count(*)::int as n from ins`);
  return rows[0]?.n ?? 0;
}

/** Records of a meeting other than the job's automatic absences (what cancelling it would throw away). */
export async function countKeptMeetingRecords(tx: DbOrTx, scheduleId: number, sessionDate: string): Promise<number> {
  const [row] = await tx
    .select({ n: count() })
    .from(attendanceRecords)
    .where(and(eq(attendanceRecords.scheduleId, scheduleId), eq(attendanceRecords.sessionDate, sessionDate), sql`${attendanceRecords.source} <> 'auto'`));
  return row?.n ?? 0;
}

/** The job's automatic absences of a meeting that did not take place. */
export async function deleteAutoAbsences(tx: DbOrTx, scheduleId: number, sessionDate: string): Promise<number> {
  const rows = await tx
    .delete(attendanceRecords)
    .where(and(eq(attendanceRecords.scheduleId, scheduleId), eq(attendanceRecords.sessionDate, sessionDate), eq(attendanceRecords.source, 'auto')))
    .returning({ id: attendanceRecords.id });
  return rows.length;
}

/**
 * Meetings of these schedules between two dates at which anything happened: a record of any
 * student, or a QR session. The others are meetings nobody took attendance at.
 */
export async function selectHeldMeetings(db: DbOrTx, scheduleIds: number[], from: string, to: string): Promise<{ scheduleId: number; sessionDate: string }[]> {
  if (scheduleIds.length === 0) return [];
  const { rows } = await db.execute<{ scheduleId: number; sessionDate: string }>(sql`
    select schedule_id as "scheduleId", session_date::text as "sessionDate" from meeting_status_totals
     where schedule_id = ${anyOf(scheduleIds, 'int')} and session_date between ${from}::date and ${to}::date and records > 0
    union
    select schedule_id, session_date::text from qr_sessions
     where schedule_id = ${anyOf(scheduleIds, 'int')} and session_date between ${from}::date and ${to}::date`);
  return rows;
}

// ---- Retention ----

/**
 * Remove the attendance records of students whose exit (in their hours transcript, kept for good)
 * is before `cutoffDate`: retention counts from the exit, never from a record's own date. Their
 * breaks, flags and corrections go with them (on delete cascade). Answers how many records went.
 */
export async function deleteRecordsOfStudentsExitedBefore(tx: DbOrTx, cutoffDate: string): Promise<number> {
  const result = await tx.execute(sql`delete from ${attendanceRecords}
    where ${attendanceRecords.studentId} in (select t.student_id from student_hours_transcripts t where t.exit_date < ${cutoffDate}::date)`);
  return result.rowCount ?? 0;
}
