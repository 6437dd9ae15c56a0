import { sql } from 'drizzle-orm';
import {
  SCAN_DEVICE_USED,
  SCAN_EXPIRED,
  SCAN_NO_MATCH,
  SCAN_NOT_FOUND,
  SCAN_STALE_CODE,
  type AttendanceSubmit,
  type AttendanceSubmitResult,
} from '../../../common/attendance.ts';
import type { AttendanceStatus } from '../../../common/constants.ts';
import type { Db, Tx } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import { AppError } from '../../lib/errors.ts';
import { asDate, isoOrNull } from '../../lib/sql-values.ts';
import { recordAudit } from '../audit-logs/service.ts';
import { findSession, sessionStatus } from '../qr-sessions/service.ts';
import { isFreshToken, isValidPass } from '../qr-sessions/tokens.ts';
import { getSettings } from '../settings/service.ts';
import { checkInStatus, classWindow, minutesAttended, scheduledMinutes, statusAfterCheckOut } from './rules.ts';

// A second submit this soon after the first is the same tap retried, not a check-out.
export const RETRY_WINDOW_MS = 2 * 60_000;

/** Case-, accent- and spacing-insensitive comparison of names and e-mails. */
export function normalizeName(s: string | null | undefined): string {
  return (s ?? '').normalize('NFD').replace(/\p{Diacritic}/gu, '').toLowerCase().replace(/\s+/g, ' ').trim();
}

type Candidate = { id: number; first_name: string; last_name: string; email: string | null };

/** Students on the session's roster whose internal or SIS id is the one typed. */
async function rosterCandidates(db: Db, sessionRef: string, studentId: string): Promise<Candidate[]> {
  const session = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(sessionRef)
    ? sql`q.session_id = ${sessionRef}::uuid`
    : /^\d{1,9}$/.test(sessionRef)
      ? sql`q.id = ${Number(sessionRef)}`
      : null;
  if (!session) return [];
  const internalId = /^\d{1,9}$/.test(studentId) ? Number(studentId) : null;
  // Two indexed lookups (internal id, SIS id in any case), each confirmed against the roster.
  const { rows } = await db.execute<Candidate>(sql`
    with sched as (select q.schedule_id from qr_sessions q where ${session})
    select st.id, st.first_name, st.last_name, st.email
      from students st join schedule_rosters r on r.student_id = st.id join sched on sched.schedule_id = r.schedule_id
     where st.id = ${internalId}
    union
    select st.id, st.first_name, st.last_name, st.email
      from students st join schedule_rosters r on r.student_id = st.id join sched on sched.schedule_id = r.schedule_id
     where lower(st.sis_student_id) = lower(${studentId})`);
  return rows;
}

type RecordRow = {
  id: number;
  status: AttendanceStatus;
  scan_in_time: Date | string | null;
  scan_out_time: Date | string | null;
  is_manual_override: boolean;
  minutes_attended: number | null;
};

function answer(action: AttendanceSubmitResult['action'], r: RecordRow, courseName: string): AttendanceSubmitResult {
  const messages = {
    checked_in: r.status === 'late' ? 'You are checked in (late).' : 'You are checked in.',
    checked_out: r.status === 'incomplete' ? 'You are checked out. You left before the end of class, so this meeting counts as incomplete.' : 'You are checked out. Have a good day!',
    already_recorded: 'Your attendance for this class has already been recorded by your instructor.',
  };
  return {
    message: messages[action],
    action,
    status: r.status,
    courseName,
    scanInTime: isoOrNull(r.scan_in_time),
    scanOutTime: isoOrNull(r.scan_out_time),
    minutesAttended: r.minutes_attended,
  };
}

/**
 * A student's scan. The server decides everything with its own clock: the session must be open and
 * the code fresh (or the device hold a pass from opening a fresh code), the student must be on this
 * class's roster with a matching name or e-mail, and one device checks in one student per meeting.
 * The first scan checks in; a later one checks out; a repeat within two minutes is a retry.
 */
export async function submitAttendance(
  db: Db,
  input: AttendanceSubmit,
  ctx: { deviceId: string; ip: string | null; clock: Clock },
): Promise<AttendanceSubmitResult> {
  const now = ctx.clock.now();
  // Three independent reads at once: a morning rush is bound by round trips.
  const [session, candidates, settings] = await Promise.all([
    findSession(db, input.sessionId),
    rosterCandidates(db, input.sessionId, input.studentId),
    getSettings(db),
  ]);
  if (!session) throw new AppError(404, 'SESSION_NOT_FOUND', SCAN_NOT_FOUND);
  if (sessionStatus(session, now) === 'expired') throw new AppError(410, 'SESSION_EXPIRED', SCAN_EXPIRED);
  const fresh =
    (input.token != null && isFreshToken(session.token_secret, session.session_id, input.token, now)) ||
    (input.pass != null && isValidPass(session.token_secret, session.session_id, ctx.deviceId, input.pass, now));
  if (!fresh) throw new AppError(403, 'STALE_CODE', SCAN_STALE_CODE);

  const student = candidates.find(
    (c) =>
      (normalizeName(c.first_name) === normalizeName(input.firstName) && normalizeName(c.last_name) === normalizeName(input.lastName)) ||
      (c.email != null && normalizeName(c.email) === normalizeName(input.email)),
  );
  // Same answer for an unknown ID and a wrong name: the page must not reveal which IDs exist.
  if (!student) throw new AppError(400, 'NO_MATCH', SCAN_NO_MATCH);

  const window = classWindow(session.session_date, session.start_time, session.end_time, settings.attendance.timeZone);
  const clientTime = input.scanInTime && !Number.isNaN(Date.parse(input.scanInTime)) ? new Date(input.scanInTime) : null;

  return db.transaction(async (tx: Tx) => {
    // Serialise scans from one device so two students cannot slip through together.
    // The lock is taken before the check reads (a CTE runs first), in one round trip.
    const { rows: device } = await tx.execute<{ used: boolean }>(sql`
      with lock as (select pg_advisory_xact_lock(hashtext(${`device:${ctx.deviceId}`})))
      select exists (select 1 from lock, attendance_records
                      where schedule_id = ${session.schedule_id} and session_date = ${session.session_date}
                        and device_id = ${ctx.deviceId} and student_id <> ${student.id}) as used`);
    if (device[0]?.used) throw new AppError(409, 'DEVICE_USED', SCAN_DEVICE_USED);

    const status = checkInStatus(now, window, settings.attendance.lateThresholdMinutes);
    // The check-in and its audit entry in one statement.
    const { rows: inserted } = await tx.execute<RecordRow>(sql`
      with ins as (
        insert into attendance_records (student_id, schedule_id, qr_session_id, session_date, status, scan_in_time, client_scan_in_time,
                                        minutes_attended, scheduled_minutes, source, device_id, created_at, updated_at)
        values (${student.id}, ${session.schedule_id}, ${session.id}, ${session.session_date}, ${status}, ${now}, ${clientTime},
                ${minutesAttended(now, null, window)}, ${scheduledMinutes(window)}, 'qr', ${ctx.deviceId}, ${now}, ${now})
        on conflict (schedule_id, student_id, session_date) do nothing
        returning id, status, scan_in_time, scan_out_time, is_manual_override, minutes_attended
      ), audit as (
        insert into audit_logs (timestamp, user_id, action, table_name, record_id, ip_address, new_values)
        select ${now}, null, 'Create', 'attendance', ins.id::text, ${ctx.ip},
               jsonb_build_object('studentId', ${student.id}::int, 'scheduleId', ${session.schedule_id}::int, 'status', ins.status,
                                  'scanInTime', ins.scan_in_time, 'source', 'qr', 'qrSessionId', ${session.id}::int)
          from ins where coalesce((select enable_audit_logging from school_settings), true)
      )
      select * from ins`);
    if (inserted[0]) {
      return answer('checked_in', inserted[0], session.course_name);
    }

    const { rows: existing } = await tx.execute<RecordRow>(sql`
      select id, status, scan_in_time, scan_out_time, is_manual_override, minutes_attended from attendance_records
       where schedule_id = ${session.schedule_id} and student_id = ${student.id} and session_date = ${session.session_date} for update`);
    const record = existing[0]!;
    const scanIn = asDate(record.scan_in_time);
    if (record.is_manual_override || !scanIn) return answer('already_recorded', record, session.course_name);
    const lastScan = asDate(record.scan_out_time) ?? scanIn;
    // A repeat within the retry window, or any repeat before class starts, is not a check-out.
    if (now.getTime() - lastScan.getTime() < RETRY_WINDOW_MS || now < window.start) {
      return answer(record.scan_out_time ? 'checked_out' : 'checked_in', record, session.course_name);
    }
    const checkInStatusNow = record.status === 'incomplete' ? checkInStatus(scanIn, window, settings.attendance.lateThresholdMinutes) : record.status;
    const newStatus = statusAfterCheckOut(checkInStatusNow, now, window, settings.attendance.earlyLeaveThresholdMinutes);
    const minutes = minutesAttended(scanIn, now, window);
    const { rows: updated } = await tx.execute<RecordRow>(sql`
      update attendance_records set scan_out_time = ${now}, status = ${newStatus}, minutes_attended = ${minutes}, updated_at = ${now}
       where id = ${record.id}
      returning id, status, scan_in_time, scan_out_time, is_manual_override, minutes_attended`);
    await recordAudit(tx, {
      userId: null,
      action: 'Update',
      tableName: 'attendance',
      recordId: record.id,
      ipAddress: ctx.ip,
      oldValues: { status: record.status, scanOutTime: record.scan_out_time, minutesAttended: record.minutes_attended },
      newValues: { status: newStatus, scanOutTime: now, minutesAttended: minutes },
      at: now,
    });
    return answer('checked_out', updated[0]!, session.course_name);
  });
}
