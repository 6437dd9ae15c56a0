// The scan's hot path: the statements submitAttendance (submit.ts) runs for each check-in, check-out and break punch.
import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { AttendanceStatus } from '../../../common/constants.ts';
import type { BreakKind } from '../../../common/attendance.ts';
import { anyOf } from '../../db/bulk-upsert.ts';
import type { DbOrTx } from '../../db/client.ts';
import { executePrepared } from '../../db/prepared.ts';
import { attendanceBreaks, attendanceRecords, type students } from '../../db/schema/index.ts';
import { asDate } from '../../lib/sql-values.ts';
import { auditInsertFragment } from '../audit-logs/service.ts';
import { NAMED_LOCK_CLASSES } from '../../db/advisory-locks.ts';

// Each takes the database or a transaction first. The check-in statements are raw SQL because they
// do several things in one round trip (a morning rush is bound by round trips); their rows are typed
// from the schema.

/** A record as the code reads it: the check constraint keeps `status` to ATTENDANCE_STATUSES. */
export type RecordColumns = Omit<typeof attendanceRecords.$inferSelect, 'status'> & { status: AttendanceStatus };
export type StudentColumns = typeof students.$inferSelect;

// ---- Check-in (public) ----

export type Candidate = Pick<StudentColumns, 'id' | 'firstName' | 'lastName' | 'email'>;

/**
 * For each typed student id, the students on the roster of the session (by its public UUID) whose
 * internal or SIS id it is: one statement for a whole batch of check-ins.
 */
export async function rosterCandidates(db: DbOrTx, sessionUuid: string, typedIds: readonly string[]): Promise<Candidate[][]> {
  const internalIds = typedIds.map((t) => (/^\d{1,9}$/.test(t) ? Number(t) : null));
  // Two indexed lookups (internal id, SIS id in any case), each confirmed against the roster.
  const { rows } = await executePrepared<Candidate & { i: number }>(
    db,
    sql`
    with req as (select * from unnest(${sql.param(internalIds)}::int[], ${sql.param([...typedIds])}::text[]) with ordinality as r(internal_id, typed, i)),
         sched as (select q.schedule_id, q.session_date from qr_sessions q where q.session_id = ${sessionUuid}::uuid),
         found as (select req.i, st.id from req join students st on st.id = req.internal_id
                   union
                   select req.i, st.id from req join students st on lower(st.sis_student_id) = lower(req.typed))
    select found.i::int as i, st.id, st.first_name as "firstName", st.last_name as "lastName", st.email
      from found join students st on st.id = found.id
      join sched on true
      join schedule_rosters r on r.student_id = st.id and r.schedule_id = sched.schedule_id
     where not exists (select 1 from student_withdrawals w where w.student_id = st.id and w.withdrawal_date < sched.session_date)`,
  );
  const out: Candidate[][] = typedIds.map(() => []);
  for (const { i, ...c } of rows) out[i - 1]!.push(c);
  return out;
}

/** Which students these devices have checked in at the session's meeting (a batch's unlocked first look). */
export async function deviceCheckIns(db: DbOrTx, sessionUuid: string, deviceIds: readonly string[]): Promise<{ deviceId: string; studentId: number }[]> {
  const { rows } = await executePrepared<{ deviceId: string; studentId: number }>(
    db,
    sql`
    select a.device_id as "deviceId", a.student_id as "studentId"
      from qr_sessions q join attendance_records a on a.schedule_id = q.schedule_id and a.session_date = q.session_date
     where q.session_id = ${sessionUuid}::uuid and a.device_id = ${anyOf(deviceIds, 'text')}`,
  );
  return rows;
}

/**
 * Serialise check-ins from one device (so two students cannot slip through together), then read
 * which students this device has checked in at this meeting. The lock is taken before the read (a
 * CTE runs first), in one round trip.
 */
export async function lockAndReadDeviceCheckIns(tx: DbOrTx, m: { scheduleId: number; sessionDate: string; deviceId: string }): Promise<number[]> {
  const { rows } = await tx.execute<Pick<RecordColumns, 'studentId'>>(sql`
    with lock as (select pg_advisory_xact_lock(hashtext(${NAMED_LOCK_CLASSES.device}), hashtext(${m.deviceId})))
    select a.student_id as "studentId" from lock, attendance_records a
     where a.schedule_id = ${m.scheduleId} and a.session_date = ${m.sessionDate} and a.device_id = ${m.deviceId}`);
  return rows.map((r) => r.studentId);
}

export type CheckInRow = Pick<RecordColumns, 'id' | 'status' | 'scanInTime' | 'scanOutTime' | 'isManualOverride' | 'minutesAttended'>;

// ---- Breaks (attendance_breaks, docs/decisions/051) ----

/**
 * A break of a record as the punches read it; an instructor's break carries its meeting break's end
 * and re-check-in window (meeting_breaks), which decide when a student coming back is credited from.
 */
export type StoredBreak = {
  id: number;
  kind: BreakKind;
  startedAt: Date;
  endedAt: Date | null;
  meetingBreakEndedAt: Date | null;
  recheckUntil: Date | null;
};
export type RawBreak = { [K in keyof StoredBreak]: StoredBreak[K] extends Date ? string : StoredBreak[K] extends Date | null ? string | null : StoredBreak[K] };
export const asStoredBreak = (b: RawBreak): StoredBreak => ({
  ...b,
  startedAt: asDate(b.startedAt),
  endedAt: asDate(b.endedAt),
  meetingBreakEndedAt: asDate(b.meetingBreakEndedAt),
  recheckUntil: asDate(b.recheckUntil),
});

/** The breaks of the record `recordId` (SQL), in order, as one JSON array: read in the same statement as the record. */
export const breaksJson = (recordId: SQL | unknown) => sql<RawBreak[]>`coalesce((
  select json_agg(json_build_object('id', b.id, 'kind', b.kind, 'startedAt', b.started_at, 'endedAt', b.ended_at,
                                    'meetingBreakEndedAt', mb.ended_at, 'recheckUntil', mb.recheck_until) order by b.started_at, b.id)
    from attendance_breaks b left join meeting_breaks mb on mb.id = b.meeting_break_id
   where b.record_id = ${recordId}), '[]'::json)`;

// The record of the outer select, qualified (drizzle leaves a one-table select's columns bare, and the subquery has an id too).
export const RECORD_ID = sql.raw('"attendance_records"."id"');

/** A break started now; null when the record has an open one already (attendance_breaks_one_open). */
export async function insertBreak(tx: DbOrTx, b: { recordId: number; kind: BreakKind; at: Date; deviceId: string }): Promise<StoredBreak | null> {
  const { rows } = await tx.execute<{ id: number }>(sql`
    insert into attendance_breaks (record_id, kind, started_at, started_device_id, created_at)
    values (${b.recordId}, ${b.kind}, ${b.at.toISOString()}::timestamptz, ${b.deviceId}, ${b.at.toISOString()}::timestamptz)
    on conflict (record_id) where ended_at is null do nothing
    returning id`);
  const id = rows[0]?.id;
  return id == null ? null : { id: Number(id), kind: b.kind, startedAt: b.at, endedAt: null, meetingBreakEndedAt: null, recheckUntil: null };
}

/** An open break ended. */
export async function endBreak(tx: DbOrTx, breakId: number, e: { endedAt: Date; deviceId: string }): Promise<void> {
  await tx.update(attendanceBreaks).set({ endedAt: e.endedAt, endedDeviceId: e.deviceId }).where(eq(attendanceBreaks.id, breakId));
}

/** The minutes a record credits, after a punch that changed them (a break's start or end). */
export async function setRecordMinutes(tx: DbOrTx, id: number, c: { minutes: number; now: Date }): Promise<CheckInRow> {
  const [row] = await tx
    .update(attendanceRecords)
    .set({ minutesAttended: c.minutes, updatedAt: c.now })
    .where(eq(attendanceRecords.id, id))
    .returning(checkInColumns);
  return asCheckInRow(row!);
}

// ---- Check-in and check-out ----

const checkInColumns = {
  id: attendanceRecords.id,
  status: attendanceRecords.status,
  scanInTime: attendanceRecords.scanInTime,
  scanOutTime: attendanceRecords.scanOutTime,
  isManualOverride: attendanceRecords.isManualOverride,
  minutesAttended: attendanceRecords.minutesAttended,
};
const asCheckInRow = (r: Omit<CheckInRow, 'status'> & { status: string }): CheckInRow => ({ ...r, status: r.status as AttendanceStatus });

export type NewCheckIn = {
  studentId: number;
  status: AttendanceStatus;
  now: Date;
  clientTime: Date | null;
  minutesAttended: number;
  deviceId: string;
  ip: string | null;
  browserSignature: string;
};
export type CheckInMeeting = { scheduleId: number; qrSessionId: number; sessionDate: string; scheduledMinutes: number };
export type InsertedCheckIn = CheckInRow & { studentId: number; deviceId: string };

/**
 * Check-ins of one meeting, their audit entries and their origins (address and browser signature), in
 * one statement. A row that would give a student a second record of the meeting, or a device a second
 * student (attendance_one_student_per_device), is not inserted: only the inserted rows come back.
 * Each (student, device) pair may appear once.
 */
export async function insertCheckIns(db: DbOrTx, m: CheckInMeeting, rows: readonly NewCheckIn[]): Promise<InsertedCheckIn[]> {
  if (rows.length === 0) return [];
  const col = <T>(f: (r: NewCheckIn) => T) => sql.param(rows.map(f));
  // Raw rows carry timestamps as text (lib/sql-values.ts); the returned rows are typed from the schema.
  const { rows: inserted } = await executePrepared<
    Omit<InsertedCheckIn, 'scanInTime' | 'scanOutTime'> & { scanInTime: string | Date | null; scanOutTime: string | Date | null }
  >(
    db,
    sql`
    with v as (
      select * from unnest(${col((r) => r.studentId)}::int[], ${col((r) => r.status)}::text[], ${col((r) => r.now.toISOString())}::timestamptz[],
                           ${col((r) => r.clientTime?.toISOString() ?? null)}::timestamptz[], ${col((r) => r.minutesAttended)}::int[],
                           ${col((r) => r.deviceId)}::text[], ${col((r) => r.ip)}::text[], ${col((r) => r.browserSignature)}::text[])
        as v(student_id, status, at, client_time, minutes, device_id, ip, signature)
    ), ins as (
      insert into attendance_records (student_id, schedule_id, qr_session_id, session_date, status, scan_in_time, client_scan_in_time,
                                      minutes_attended, scheduled_minutes, source, device_id, created_at, updated_at)
      select v.student_id, ${m.scheduleId}, ${m.qrSessionId}, ${m.sessionDate}, v.status, v.at, v.client_time,
             v.minutes, ${m.scheduledMinutes}, 'qr', v.device_id, v.at, v.at
        from v order by v.student_id
      on conflict do nothing
      returning id, student_id, device_id, status, scan_in_time, scan_out_time, is_manual_override, minutes_attended
    ), done as (
      select ins.*, v.at, v.ip, v.signature from ins join v on v.student_id = ins.student_id and v.device_id = ins.device_id
    ), audit as (${auditInsertFragment({
      from: sql`done`,
      userId: null,
      at: sql`done.at`,
      action: 'Create',
      tableName: 'attendance',
      recordId: sql`done.id::text`,
      ipAddress: sql`done.ip`,
      newValues: sql`jsonb_build_object('studentId', done.student_id, 'scheduleId', ${m.scheduleId}::int, 'status', done.status,
                                        'scanInTime', done.scan_in_time, 'source', 'qr', 'qrSessionId', ${m.qrSessionId}::int)`,
    })}
    ), origin as (
      insert into check_in_origins (attendance_record_id, qr_session_id, ip_address, browser_signature, created_at)
      select done.id, ${m.qrSessionId}, done.ip, done.signature, done.at from done
    )
    select id, student_id as "studentId", device_id as "deviceId", status, scan_in_time as "scanInTime", scan_out_time as "scanOutTime",
           is_manual_override as "isManualOverride", minutes_attended as "minutesAttended" from done`,
  );
  return inserted.map((r) => ({ ...r, scanInTime: asDate(r.scanInTime), scanOutTime: asDate(r.scanOutTime) }));
}

/**
 * The student's record of this meeting with its breaks, locked for a punch (null: the student has
 * none). The record's lock serialises every punch of the record, breaks included.
 */
export async function lockMeetingRecord(
  tx: DbOrTx,
  m: { scheduleId: number; studentId: number; sessionDate: string },
): Promise<(CheckInRow & { breaks: StoredBreak[] }) | null> {
  const [row] = await tx
    .select({ ...checkInColumns, breaks: breaksJson(RECORD_ID) })
    .from(attendanceRecords)
    .where(and(eq(attendanceRecords.scheduleId, m.scheduleId), eq(attendanceRecords.studentId, m.studentId), eq(attendanceRecords.sessionDate, m.sessionDate)))
    .for('update');
  if (!row) return null;
  const { breaks, ...record } = row;
  return { ...asCheckInRow(record), breaks: breaks.map(asStoredBreak) };
}

export async function recordCheckOut(tx: DbOrTx, id: number, c: { now: Date; status: AttendanceStatus; minutes: number }): Promise<CheckInRow> {
  const [row] = await tx
    .update(attendanceRecords)
    .set({ scanOutTime: c.now, status: c.status, minutesAttended: c.minutes, updatedAt: c.now })
    .where(eq(attendanceRecords.id, id))
    .returning(checkInColumns);
  return asCheckInRow(row!);
}

// ---- Proxy look of a batch (proxy-flags.ts) ----

type OriginTerms = { [K in 'qrSessionId' | 'ip' | 'browserSignature' | 'from' | 'to' | 'excludeRecordId' | 'excludeStudentId']: SQL | unknown };

/** Another student's check-in `o` (check_in_origins) / `a` (its record) of this QR session from the same origin within [from, to]. */
export const sameOrigin = (q: OriginTerms) => sql`
  o.qr_session_id = ${q.qrSessionId} and o.ip_address is not distinct from ${q.ip} and o.browser_signature = ${q.browserSignature}
  and o.created_at between ${q.from} and ${q.to}
  and o.attendance_record_id <> ${q.excludeRecordId} and a.student_id <> ${q.excludeStudentId}`;

/** Of these new check-ins, the ones sharing their origin with another student's (as sameOriginCheckIns): one statement for a batch. */
export async function checkInsSharingOrigin(
  db: DbOrTx,
  qrSessionId: number,
  items: readonly { recordId: number; studentId: number; ip: string | null; browserSignature: string; from: Date; to: Date }[],
): Promise<Set<number>> {
  if (items.length === 0) return new Set();
  const col = <T>(f: (r: (typeof items)[number]) => T) => sql.param(items.map(f));
  const { rows } = await executePrepared<{ recordId: number }>(
    db,
    sql`
    select v.record_id as "recordId"
      from unnest(${col((r) => r.recordId)}::int[], ${col((r) => r.studentId)}::int[], ${col((r) => r.ip)}::text[], ${col((r) => r.browserSignature)}::text[],
                  ${col((r) => r.from.toISOString())}::timestamptz[], ${col((r) => r.to.toISOString())}::timestamptz[])
           as v(record_id, student_id, ip, signature, from_at, to_at)
     where exists (select 1 from check_in_origins o join attendance_records a on a.id = o.attendance_record_id
                    where ${sameOrigin({ qrSessionId, ip: sql`v.ip`, browserSignature: sql`v.signature`, from: sql`v.from_at`, to: sql`v.to_at`, excludeRecordId: sql`v.record_id`, excludeStudentId: sql`v.student_id` })})`,
  );
  return new Set(rows.map((r) => r.recordId));
}
