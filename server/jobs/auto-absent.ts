import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import type { Clock } from '../lib/clock.ts';
import { classWindow, scheduledMinutes } from '../modules/attendance/rules.ts';
import { getSettings } from '../modules/settings/service.ts';
import { closeExpiredSessions } from '../modules/qr-sessions/service.ts';

/**
 * After a class meeting that ran a QR session, students on the roster with no record are marked
 * absent (source 'auto') once autoMarkAbsentHours have passed since the class ended.
 * Idempotent and safe with several instances: inserts skip existing records (never touching a
 * manual override), and a transaction-scoped advisory lock lets one instance do the work.
 */
export async function markAbsentees(db: Db, clock: Clock): Promise<number> {
  const now = clock.now();
  const { attendance } = await getSettings(db);
  return db.transaction(async (tx) => {
    const { rows: lock } = await tx.execute<{ locked: boolean }>(sql`select pg_try_advisory_xact_lock(727003) as locked`);
    if (!lock[0]?.locked) return 0;
    await closeExpiredSessions(tx, now);
    // Meetings (schedule + date) that had a session in the last two weeks.
    const { rows: meetings } = await tx.execute<{ schedule_id: number; session_date: string; start_time: string; end_time: string }>(sql`
      select distinct q.schedule_id, q.session_date::text, to_char(s.start_time, 'HH24:MI') as start_time, to_char(s.end_time, 'HH24:MI') as end_time
        from qr_sessions q join schedules s on s.id = q.schedule_id
       where q.session_date >= (${now}::timestamptz - interval '14 days')::date`);
    let marked = 0;
    for (const m of meetings) {
      const window = classWindow(m.session_date, m.start_time, m.end_time, attendance.timeZone);
      if (now.getTime() < window.end.getTime() + attendance.autoMarkAbsentHours * 3_600_000) continue;
      // One statement writes the absences and their audit entries together.
      const { rows } = await tx.execute<{ n: number }>(sql`
        with ins as (
          insert into attendance_records (student_id, schedule_id, session_date, status, minutes_attended, scheduled_minutes, source, created_at, updated_at)
          select r.student_id, ${m.schedule_id}, ${m.session_date}, 'absent', 0, ${scheduledMinutes(window)}, 'auto', ${now}, ${now}
            from schedule_rosters r join students st on st.id = r.student_id
           where r.schedule_id = ${m.schedule_id} and st.status in ('enrolled', 'active')
          on conflict (schedule_id, student_id, session_date) do nothing
          returning id, student_id
        ), audit as (
          insert into audit_logs (timestamp, user_id, action, table_name, record_id, new_values)
          select ${now}, null, 'Create', 'attendance', ins.id::text,
                 jsonb_build_object('status', 'absent', 'source', 'auto', 'studentId', ins.student_id, 'scheduleId', ${m.schedule_id}::int, 'sessionDate', ${m.session_date}::text)
            from ins where coalesce((select enable_audit_logging from school_settings), true)
        )
        select count(*)::int as n from ins`);
      marked += rows[0]?.n ?? 0;
    }
    return marked;
  });
}
