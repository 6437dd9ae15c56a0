import { and, count, desc, eq, inArray, isNotNull, lt, notExists, or, sql, type SQL } from 'drizzle-orm';
import type { AttendanceStatus } from '../../../common/constants.ts';
import type { BreakKind, CheckInFlagEvidence, CheckInFlagReason, CheckInFlagStatus } from '../../../common/attendance.ts';
import { anyOf } from '../../db/bulk-upsert.ts';
import type { DbOrTx } from '../../db/client.ts';
import { executePrepared } from '../../db/prepared.ts';
import {
  attendanceBreaks,
  attendanceCorrections,
  attendanceRecords,
  checkInFlags,
  courses,
  qrSessions,
  schedules,
  studentWithdrawals,
  scheduleRosters,
  students,
  users,
} from '../../db/schema/index.ts';
import { userFullName } from '../../db/user-name.ts';
import { asDate } from '../../lib/sql-values.ts';
import { auditInsertFragment } from '../audit-logs/service.ts';

// Queries of the attendance module: each takes the database or a transaction first. The check-in
// statements are raw SQL because they do several things in one round trip (a morning rush is bound
// by round trips); their rows are typed from the schema.

/** A record as the code reads it: the check constraint keeps `status` to ATTENDANCE_STATUSES. */
type RecordColumns = Omit<typeof attendanceRecords.$inferSelect, 'status'> & { status: AttendanceStatus };
type StudentColumns = typeof students.$inferSelect;

// ---- Roster of one meeting ----

export type RosterRow = Pick<StudentColumns, 'firstName' | 'lastName' | 'sisStudentId'> & { studentId: StudentColumns['id'] } & {
  [K in 'id' | 'status' | 'scanInTime' | 'scanOutTime' | 'minutesAttended' | 'scheduledMinutes' | 'isManualOverride' | 'overrideReason' | 'source']: RecordColumns[K] | null;
};

/** The schedule's roster merged with one meeting's records (a record without a roster row still shows). */
export async function rosterWithRecords(db: DbOrTx, scheduleId: number, sessionDate: string): Promise<RosterRow[]> {
  const rows = await db
    .select({
      id: attendanceRecords.id,
      studentId: students.id,
      firstName: students.firstName,
      lastName: students.lastName,
      sisStudentId: students.sisStudentId,
      status: attendanceRecords.status,
      scanInTime: attendanceRecords.scanInTime,
      scanOutTime: attendanceRecords.scanOutTime,
      minutesAttended: attendanceRecords.minutesAttended,
      scheduledMinutes: attendanceRecords.scheduledMinutes,
      isManualOverride: attendanceRecords.isManualOverride,
      overrideReason: attendanceRecords.overrideReason,
      source: attendanceRecords.source,
    })
    .from(students)
    .leftJoin(
      attendanceRecords,
      and(eq(attendanceRecords.studentId, students.id), eq(attendanceRecords.scheduleId, scheduleId), eq(attendanceRecords.sessionDate, sessionDate)),
    )
    // On the roster (and not withdrawn before this meeting), or holding a record of this meeting.
    .where(
      or(
        and(
          inArray(students.id, db.select({ id: scheduleRosters.studentId }).from(scheduleRosters).where(eq(scheduleRosters.scheduleId, scheduleId))),
          notExists(db.select({ one: sql`1` }).from(studentWithdrawals).where(and(eq(studentWithdrawals.studentId, students.id), lt(studentWithdrawals.withdrawalDate, sessionDate)))),
        ),
        isNotNull(attendanceRecords.id),
      ),
    )
    .orderBy(sql`lower(${students.lastName})`, sql`lower(${students.firstName})`);
  return rows.map((r) => ({ ...r, status: r.status as AttendanceStatus | null }));
}

// ---- Check-in (public) ----

export type Candidate = Pick<StudentColumns, 'id' | 'firstName' | 'lastName' | 'email'>;

/**
 * For each typed student id, the students on the roster of the session (by its public UUID) whose
 * internal or SIS id it is: one statement for a whole batch of check-ins.
 */
export async function rosterCandidates(db: DbOrTx, sessionUuid: string, typedIds: readonly string[]): Promise<Candidate[][]> {
  const internalIds = typedIds.map((t) => (/^\d{1,9}$/.test(t) ? Number(t) : null));
  // Two indexed lookups (internal id, SIS id in any case), each confirmed against the roster.
  const { rows } = await executePrepared<Candidate & { i: number }>(db, sql`
    with req as (select * from unnest(${sql.param(internalIds)}::int[], ${sql.param([...typedIds])}::text[]) with ordinality as r(internal_id, typed, i)),
         sched as (select q.schedule_id, q.session_date from qr_sessions q where q.session_id = ${sessionUuid}::uuid),
         found as (select req.i, st.id from req join students st on st.id = req.internal_id
                   union
                   select req.i, st.id from req join students st on lower(st.sis_student_id) = lower(req.typed))
    select found.i::int as i, st.id, st.first_name as "firstName", st.last_name as "lastName", st.email
      from found join students st on st.id = found.id
      join sched on true
      join schedule_rosters r on r.student_id = st.id and r.schedule_id = sched.schedule_id
     where not exists (select 1 from student_withdrawals w where w.student_id = st.id and w.withdrawal_date < sched.session_date)`);
  const out: Candidate[][] = typedIds.map(() => []);
  for (const { i, ...c } of rows) out[i - 1]!.push(c);
  return out;
}

/** Which students these devices have checked in at the session's meeting (a batch's unlocked first look). */
export async function deviceCheckIns(db: DbOrTx, sessionUuid: string, deviceIds: readonly string[]): Promise<{ deviceId: string; studentId: number }[]> {
  const { rows } = await executePrepared<{ deviceId: string; studentId: number }>(db, sql`
    select a.device_id as "deviceId", a.student_id as "studentId"
      from qr_sessions q join attendance_records a on a.schedule_id = q.schedule_id and a.session_date = q.session_date
     where q.session_id = ${sessionUuid}::uuid and a.device_id = ${anyOf(deviceIds, 'text')}`);
  return rows;
}

/**
 * Serialise check-ins from one device (so two students cannot slip through together), then read
 * which students this device has checked in at this meeting. The lock is taken before the read (a
 * CTE runs first), in one round trip.
 */
export async function lockAndReadDeviceCheckIns(tx: DbOrTx, m: { scheduleId: number; sessionDate: string; deviceId: string }): Promise<number[]> {
  const { rows } = await tx.execute<Pick<RecordColumns, 'studentId'>>(sql`
    with lock as (select pg_advisory_xact_lock(hashtext(${`device:${m.deviceId}`})))
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
type RawBreak = { [K in keyof StoredBreak]: StoredBreak[K] extends Date ? string : StoredBreak[K] extends Date | null ? string | null : StoredBreak[K] };
const asStoredBreak = (b: RawBreak): StoredBreak => ({
  ...b,
  startedAt: asDate(b.startedAt),
  endedAt: asDate(b.endedAt),
  meetingBreakEndedAt: asDate(b.meetingBreakEndedAt),
  recheckUntil: asDate(b.recheckUntil),
});

/** The breaks of the record `recordId` (SQL), in order, as one JSON array: read in the same statement as the record. */
const breaksJson = (recordId: SQL | unknown) => sql<RawBreak[]>`coalesce((
  select json_agg(json_build_object('id', b.id, 'kind', b.kind, 'startedAt', b.started_at, 'endedAt', b.ended_at,
                                    'meetingBreakEndedAt', mb.ended_at, 'recheckUntil', mb.recheck_until) order by b.started_at, b.id)
    from attendance_breaks b left join meeting_breaks mb on mb.id = b.meeting_break_id
   where b.record_id = ${recordId}), '[]'::json)`;

// The record of the outer select, qualified (drizzle leaves a one-table select's columns bare, and the subquery has an id too).
const RECORD_ID = sql.raw('"attendance_records"."id"');

/** A record's breaks, in order. */
export async function recordBreaks(db: DbOrTx, recordId: number): Promise<StoredBreak[]> {
  const { rows } = await db.execute<{ breaks: RawBreak[] }>(sql`select ${breaksJson(recordId)} as breaks`);
  return (rows[0]?.breaks ?? []).map(asStoredBreak);
}

/** The breaks of one meeting's records, by record id, each in order (the roster). */
export async function breaksOfMeeting(db: DbOrTx, scheduleId: number, sessionDate: string): Promise<Map<number, Pick<StoredBreak, 'kind' | 'startedAt' | 'endedAt'>[]>> {
  const rows = await db
    .select({ recordId: attendanceBreaks.recordId, kind: attendanceBreaks.kind, startedAt: attendanceBreaks.startedAt, endedAt: attendanceBreaks.endedAt })
    .from(attendanceBreaks)
    .innerJoin(attendanceRecords, eq(attendanceRecords.id, attendanceBreaks.recordId))
    .where(and(eq(attendanceRecords.scheduleId, scheduleId), eq(attendanceRecords.sessionDate, sessionDate)))
    .orderBy(attendanceBreaks.startedAt, attendanceBreaks.id);
  const out = new Map<number, Pick<StoredBreak, 'kind' | 'startedAt' | 'endedAt'>[]>();
  for (const { recordId, ...b } of rows) {
    const list = out.get(recordId) ?? [];
    list.push({ ...b, kind: b.kind as BreakKind });
    out.set(recordId, list);
  }
  return out;
}

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
  const [row] = await tx.update(attendanceRecords).set({ minutesAttended: c.minutes, updatedAt: c.now }).where(eq(attendanceRecords.id, id)).returning(checkInColumns);
  return asCheckInRow(row!);
}

/** The meeting of a session (by its public UUID) and the program of its course (null: none); undefined for no such session. */
export async function sessionMeetingProgram(
  db: DbOrTx,
  sessionUuid: string,
): Promise<{ programId: number | null; sessionDate: string; startTime: string; endTime: string } | undefined> {
  const [row] = await db
    .select({ programId: courses.programId, sessionDate: qrSessions.sessionDate, startTime: schedules.startTime, endTime: schedules.endTime })
    .from(qrSessions)
    .innerJoin(schedules, eq(schedules.id, qrSessions.scheduleId))
    .innerJoin(courses, eq(courses.id, schedules.courseId))
    .where(eq(qrSessions.sessionId, sessionUuid));
  return row;
}

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
  >(db, sql`
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
           is_manual_override as "isManualOverride", minutes_attended as "minutesAttended" from done`);
  return inserted.map((r) => ({ ...r, scanInTime: asDate(r.scanInTime), scanOutTime: asDate(r.scanOutTime) }));
}

/**
 * The student's record of this meeting with its breaks, locked for a punch (null: the student has
 * none). The record's lock serialises every punch of the record, breaks included.
 */
export async function lockMeetingRecord(tx: DbOrTx, m: { scheduleId: number; studentId: number; sessionDate: string }): Promise<(CheckInRow & { breaks: StoredBreak[] }) | null> {
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

/** What the device of a phone opening the scan page checked in at the session's meeting: its record and its student. */
export type DeviceRecord = Pick<RecordColumns, 'status' | 'scanInTime' | 'scanOutTime' | 'minutesAttended' | 'isManualOverride'> & {
  student: Pick<StudentColumns, 'id' | 'firstName' | 'lastName' | 'email'>;
  breaks: StoredBreak[];
};

/** The record this device made at the meeting of a session (by its public UUID), if any (attendance_one_student_per_device: one). */
export async function deviceMeetingRecord(db: DbOrTx, sessionUuid: string, deviceId: string): Promise<DeviceRecord | null> {
  const [row] = await db
    .select({
      status: attendanceRecords.status,
      scanInTime: attendanceRecords.scanInTime,
      scanOutTime: attendanceRecords.scanOutTime,
      minutesAttended: attendanceRecords.minutesAttended,
      isManualOverride: attendanceRecords.isManualOverride,
      student: { id: students.id, firstName: students.firstName, lastName: students.lastName, email: students.email },
      breaks: breaksJson(RECORD_ID),
    })
    .from(qrSessions)
    .innerJoin(
      attendanceRecords,
      and(eq(attendanceRecords.scheduleId, qrSessions.scheduleId), eq(attendanceRecords.sessionDate, qrSessions.sessionDate), eq(attendanceRecords.deviceId, deviceId)),
    )
    .innerJoin(students, eq(students.id, attendanceRecords.studentId))
    .where(eq(qrSessions.sessionId, sessionUuid))
    .limit(1);
  return row ? { ...row, status: row.status as AttendanceStatus, breaks: row.breaks.map(asStoredBreak) } : null;
}

/** A check-out undone: no scan-out, the status and minutes the check-in gave. */
export async function clearCheckOut(tx: DbOrTx, id: number, c: { status: AttendanceStatus; minutes: number; now: Date }): Promise<void> {
  await tx.update(attendanceRecords).set({ scanOutTime: null, status: c.status, minutesAttended: c.minutes, updatedAt: c.now }).where(eq(attendanceRecords.id, id));
}

// ---- Proxy evidence ----

/** Serialise the proxy checks of one (QR session, address, browser signature) until the transaction ends. */
export async function lockOrigin(tx: DbOrTx, key: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${key}))`);
}

export type OriginMatch = {
  recordId: number;
  studentId: number;
  checkedInAt: Date;
  /** Its device had checked that same student in before: a phone the student has used at an earlier meeting. */
  knownDevice: boolean;
  /** Its student had never checked in from any phone before: their first time with Muster. */
  firstUse: boolean;
  /** It already carries a shared_browser flag. */
  flagged: boolean;
};

// The student has no record made from a phone (any class) before `before`, this one aside: their first time with Muster.
const firstUseOf = (studentId: SQL | unknown, recordId: SQL | unknown, before: SQL | unknown) => sql`
  not exists (select 1 from attendance_records p
               where p.student_id = ${studentId} and p.device_id is not null and p.id <> ${recordId} and p.created_at < ${before})`;

type OriginTerms = { [K in 'qrSessionId' | 'ip' | 'browserSignature' | 'from' | 'to' | 'excludeRecordId' | 'excludeStudentId']: SQL | unknown };

/** Another student's check-in `o` (check_in_origins) / `a` (its record) of this QR session from the same origin within [from, to]. */
const sameOrigin = (q: OriginTerms) => sql`
  o.qr_session_id = ${q.qrSessionId} and o.ip_address is not distinct from ${q.ip} and o.browser_signature = ${q.browserSignature}
  and o.created_at between ${q.from} and ${q.to}
  and o.attendance_record_id <> ${q.excludeRecordId} and a.student_id <> ${q.excludeStudentId}`;

/**
 * Other students' check-ins of this QR session from the same address and browser signature within
 * [from, to], oldest first (the latest `limit` of them), each with what the proxy check needs to know about it.
 */
export async function sameOriginCheckIns(
  tx: DbOrTx,
  q: { qrSessionId: number; ip: string | null; browserSignature: string; from: Date; to: Date; excludeRecordId: number; excludeStudentId: number; limit: number },
): Promise<OriginMatch[]> {
  const { rows } = await tx.execute<Omit<OriginMatch, 'checkedInAt'> & { checkedInAt: Date | string }>(sql`
    select * from (
      select o.attendance_record_id as "recordId", a.student_id as "studentId", o.created_at as "checkedInAt",
             exists (select 1 from attendance_records p
                      where p.student_id = a.student_id and p.device_id = a.device_id and p.id <> a.id and p.created_at < a.created_at) as "knownDevice",
             ${firstUseOf(sql`a.student_id`, sql`a.id`, sql`a.created_at`)} as "firstUse",
             exists (select 1 from check_in_flags f where f.attendance_record_id = a.id and f.reason = 'shared_browser') as flagged
        from check_in_origins o join attendance_records a on a.id = o.attendance_record_id
       where ${sameOrigin(q)}
       order by o.created_at desc
       limit ${q.limit}) latest
     order by "checkedInAt"`);
  return rows.map((r) => ({ ...r, checkedInAt: asDate(r.checkedInAt) }));
}

/** The records a record's shared_browser flags were raised with: those its flag names, and those whose flags name it (among `among`). */
export async function flagPartners(tx: DbOrTx, recordId: number, among: readonly number[]): Promise<number[]> {
  const { rows } = await tx.execute<{ id: number }>(sql`
    select (jsonb_array_elements_text(f.evidence -> 'otherRecordIds'))::int as id
      from check_in_flags f where f.attendance_record_id = ${recordId} and f.reason = 'shared_browser'
    union
    select f.attendance_record_id from check_in_flags f
     where f.attendance_record_id = any(${sql.param([...among])}::int[]) and f.reason = 'shared_browser'
       and f.evidence -> 'otherRecordIds' @> jsonb_build_array(${recordId}::int)`);
  return rows.map((r) => Number(r.id));
}

/** Of these new check-ins, the ones sharing their origin with another student's (as sameOriginCheckIns): one statement for a batch. */
export async function checkInsSharingOrigin(
  db: DbOrTx,
  qrSessionId: number,
  items: readonly { recordId: number; studentId: number; ip: string | null; browserSignature: string; from: Date; to: Date }[],
): Promise<Set<number>> {
  if (items.length === 0) return new Set();
  const col = <T>(f: (r: (typeof items)[number]) => T) => sql.param(items.map(f));
  const { rows } = await executePrepared<{ recordId: number }>(db, sql`
    select v.record_id as "recordId"
      from unnest(${col((r) => r.recordId)}::int[], ${col((r) => r.studentId)}::int[], ${col((r) => r.ip)}::text[], ${col((r) => r.browserSignature)}::text[],
                  ${col((r) => r.from.toISOString())}::timestamptz[], ${col((r) => r.to.toISOString())}::timestamptz[])
           as v(record_id, student_id, ip, signature, from_at, to_at)
     where exists (select 1 from check_in_origins o join attendance_records a on a.id = o.attendance_record_id
                    where ${sameOrigin({ qrSessionId, ip: sql`v.ip`, browserSignature: sql`v.signature`, from: sql`v.from_at`, to: sql`v.to_at`, excludeRecordId: sql`v.record_id`, excludeStudentId: sql`v.student_id` })})`);
  return new Set(rows.map((r) => r.recordId));
}

export type CheckInStanding = Pick<OriginMatch, 'knownDevice' | 'firstUse' | 'flagged'>;

/** What the proxy check needs about the new check-in itself: a known phone of its student, its student's first time, already flagged. */
export async function checkInStanding(tx: DbOrTx, d: { studentId: number; deviceId: string; recordId: number; before: Date }): Promise<CheckInStanding> {
  const { rows } = await tx.execute<CheckInStanding>(sql`
    select exists (select 1 from attendance_records
                    where student_id = ${d.studentId} and device_id = ${d.deviceId} and id <> ${d.recordId} and created_at < ${d.before}) as "knownDevice",
           ${firstUseOf(d.studentId, d.recordId, d.before)} as "firstUse",
           exists (select 1 from check_in_flags where attendance_record_id = ${d.recordId} and reason = 'shared_browser') as flagged`);
  return { knownDevice: rows[0]?.knownDevice ?? false, firstUse: rows[0]?.firstUse ?? false, flagged: rows[0]?.flagged ?? false };
}

export type NewFlag = { attendanceRecordId: number; reason: CheckInFlagReason; evidence: CheckInFlagEvidence; createdAt: Date };

export async function insertFlags(tx: DbOrTx, flags: NewFlag[]): Promise<{ id: number; attendanceRecordId: number }[]> {
  if (flags.length === 0) return [];
  return tx.insert(checkInFlags).values(flags).returning({ id: checkInFlags.id, attendanceRecordId: checkInFlags.attendanceRecordId });
}

/** A flag unless the record has an open one of that reason (check_in_flags_one_open): its id, or null. */
export async function insertOpenFlag(tx: DbOrTx, flag: NewFlag): Promise<number | null> {
  const [row] = await tx.insert(checkInFlags).values(flag).onConflictDoNothing().returning({ id: checkInFlags.id });
  return row?.id ?? null;
}

// ---- Flags for staff ----

export type FlagRow = {
  id: number;
  attendanceRecordId: number;
  reason: string;
  status: string;
  evidence: unknown;
  createdAt: Date;
  reviewedAt: Date | null;
  reviewerFirstName: string | null;
  reviewerLastName: string | null;
};

const flagColumns = {
  id: checkInFlags.id,
  attendanceRecordId: checkInFlags.attendanceRecordId,
  reason: checkInFlags.reason,
  status: checkInFlags.status,
  evidence: checkInFlags.evidence,
  createdAt: checkInFlags.createdAt,
  reviewedAt: checkInFlags.reviewedAt,
  reviewerFirstName: users.firstName,
  reviewerLastName: users.lastName,
};

/** Every flag on the records of one meeting of a schedule, newest first. */
export async function meetingFlags(db: DbOrTx, scheduleId: number, sessionDate: string): Promise<FlagRow[]> {
  return db
    .select(flagColumns)
    .from(checkInFlags)
    .innerJoin(attendanceRecords, eq(attendanceRecords.id, checkInFlags.attendanceRecordId))
    .leftJoin(users, eq(users.id, checkInFlags.reviewedBy))
    .where(and(eq(attendanceRecords.scheduleId, scheduleId), eq(attendanceRecords.sessionDate, sessionDate)))
    .orderBy(desc(checkInFlags.createdAt), desc(checkInFlags.id));
}

export async function flagById(db: DbOrTx, flagId: number): Promise<(FlagRow & { scheduleId: number; sessionDate: string; studentId: number }) | null> {
  const [row] = await db
    .select({ ...flagColumns, scheduleId: attendanceRecords.scheduleId, sessionDate: attendanceRecords.sessionDate, studentId: attendanceRecords.studentId })
    .from(checkInFlags)
    .innerJoin(attendanceRecords, eq(attendanceRecords.id, checkInFlags.attendanceRecordId))
    .leftJoin(users, eq(users.id, checkInFlags.reviewedBy))
    .where(eq(checkInFlags.id, flagId));
  return row ?? null;
}

/** Lock a flag for its review; its status before the review, or null when there is none. */
export async function lockFlag(tx: DbOrTx, flagId: number): Promise<{ status: string } | null> {
  const [row] = await tx.select({ status: checkInFlags.status }).from(checkInFlags).where(eq(checkInFlags.id, flagId)).for('update');
  return row ?? null;
}

export async function setFlagReview(tx: DbOrTx, flagId: number, r: { status: CheckInFlagStatus; reviewedBy: number; reviewedAt: Date }): Promise<void> {
  await tx.update(checkInFlags).set({ status: r.status, reviewedBy: r.reviewedBy, reviewedAt: r.reviewedAt }).where(eq(checkInFlags.id, flagId));
}

/** The students of some records, for naming them in flag evidence. */
export async function studentsOfRecords(db: DbOrTx, recordIds: number[]): Promise<{ recordId: number; studentId: number; firstName: string; lastName: string }[]> {
  if (recordIds.length === 0) return [];
  return db
    .select({ recordId: attendanceRecords.id, studentId: students.id, firstName: students.firstName, lastName: students.lastName })
    .from(attendanceRecords)
    .innerJoin(students, eq(students.id, attendanceRecords.studentId))
    .where(inArray(attendanceRecords.id, recordIds));
}

// ---- Manual records ----

/** The student's place on the schedule's roster and their enrolment date, or null when not on it. */
export async function rosterEnrolment(db: DbOrTx, scheduleId: number, studentId: number): Promise<{ enrollmentDate: string | null } | null> {
  const [row] = await db
    .select({ enrollmentDate: students.enrollmentDate })
    .from(scheduleRosters)
    .innerJoin(students, eq(students.id, scheduleRosters.studentId))
    .where(and(eq(scheduleRosters.scheduleId, scheduleId), eq(scheduleRosters.studentId, studentId)));
  return row ?? null;
}

export type NewManualRecord = {
  studentId: number;
  scheduleId: number;
  sessionDate: string;
  status: AttendanceStatus;
  minutesAttended: number;
  scheduledMinutes: number;
  overrideReason: string;
  overriddenBy: number;
  scanInTime: Date | null;
  scanOutTime: Date | null;
  now: Date;
};

/** A manual record; null when the student already has one for that meeting. */
export async function insertManualRecord(tx: DbOrTx, r: NewManualRecord): Promise<number | null> {
  const [row] = await tx
    .insert(attendanceRecords)
    .values({
      studentId: r.studentId,
      scheduleId: r.scheduleId,
      sessionDate: r.sessionDate,
      status: r.status,
      minutesAttended: r.minutesAttended,
      scheduledMinutes: r.scheduledMinutes,
      isManualOverride: true,
      overrideReason: r.overrideReason,
      overriddenBy: r.overriddenBy,
      overriddenAt: r.now,
      scanInTime: r.scanInTime,
      scanOutTime: r.scanOutTime,
      source: 'manual',
      createdBy: r.overriddenBy,
      createdAt: r.now,
      updatedAt: r.now,
    })
    .onConflictDoNothing({ target: [attendanceRecords.scheduleId, attendanceRecords.studentId, attendanceRecords.sessionDate] })
    .returning({ id: attendanceRecords.id });
  return row?.id ?? null;
}

// ---- Overrides ----

export type OverrideTarget = Pick<
  RecordColumns,
  'scheduleId' | 'studentId' | 'sessionDate' | 'status' | 'isManualOverride' | 'overrideReason' | 'scheduledMinutes' | 'scanInTime' | 'scanOutTime' | 'source'
> & {
  /** Minutes from scans, when the record has a check-in. */
  scanned: RecordColumns['minutesAttended'];
  hasScan: boolean;
  minutesAttended: RecordColumns['minutesAttended'];
};

/** A record locked for an override, with what the override needs about it; null when there is none. */
export async function lockRecordForOverride(tx: DbOrTx, recordId: number): Promise<OverrideTarget | null> {
  const [row] = await tx
    .select({
      scheduleId: attendanceRecords.scheduleId,
      studentId: attendanceRecords.studentId,
      sessionDate: attendanceRecords.sessionDate,
      status: attendanceRecords.status,
      isManualOverride: attendanceRecords.isManualOverride,
      overrideReason: attendanceRecords.overrideReason,
      scheduledMinutes: attendanceRecords.scheduledMinutes,
      scanInTime: attendanceRecords.scanInTime,
      scanOutTime: attendanceRecords.scanOutTime,
      source: attendanceRecords.source,
      minutesAttended: attendanceRecords.minutesAttended,
    })
    .from(attendanceRecords)
    .where(eq(attendanceRecords.id, recordId))
    .for('update');
  if (!row) return null;
  const { minutesAttended, ...rest } = row;
  return { ...rest, minutesAttended, status: rest.status as AttendanceStatus, scanned: rest.scanInTime != null ? minutesAttended : null, hasScan: rest.scanInTime != null };
}

export async function setOverride(
  tx: DbOrTx,
  recordId: number,
  o: { status: AttendanceStatus; overrideReason: string; overriddenBy: number; minutes: number; now: Date; times?: { scanInTime: Date | null; scanOutTime: Date | null } },
): Promise<void> {
  await tx
    .update(attendanceRecords)
    .set({
      ...o.times,
      status: o.status,
      isManualOverride: true,
      overrideReason: o.overrideReason,
      overriddenBy: o.overriddenBy,
      overriddenAt: o.now,
      minutesAttended: o.minutes,
      updatedAt: o.now,
    })
    .where(eq(attendanceRecords.id, recordId));
}

export type AcceptedScan = {
  status: AttendanceStatus;
  scanInTime: Date;
  minutes: number;
  scheduledMinutes: number;
  qrSessionId: number | null;
  deviceId: string | null;
  now: Date;
};

/**
 * The record as the accepted scan would have made it: a QR check-in at the scan's time. The
 * override it replaces is cleared (the audit log keeps it), so a later scan checks the student out.
 */
export async function setAcceptedScan(tx: DbOrTx, recordId: number, a: AcceptedScan): Promise<void> {
  await tx
    .update(attendanceRecords)
    .set({
      status: a.status,
      scanInTime: a.scanInTime,
      scanOutTime: null,
      minutesAttended: a.minutes,
      scheduledMinutes: a.scheduledMinutes,
      qrSessionId: a.qrSessionId,
      deviceId: a.deviceId,
      source: 'qr',
      isManualOverride: false,
      overrideReason: null,
      overriddenBy: null,
      overriddenAt: null,
      updatedAt: a.now,
    })
    .where(eq(attendanceRecords.id, recordId));
}

// ---- Corrections (the record's history) ----

export async function insertCorrection(tx: DbOrTx, c: typeof attendanceCorrections.$inferInsert): Promise<void> {
  await tx.insert(attendanceCorrections).values(c);
}

export type HistoryRecord = Pick<
  RecordColumns,
  'id' | 'studentId' | 'scheduleId' | 'sessionDate' | 'status' | 'scanInTime' | 'scanOutTime' | 'minutesAttended' | 'source' | 'overrideReason' | 'createdAt'
> & { createdByName: string | null };

export async function selectHistoryRecord(db: DbOrTx, recordId: number): Promise<HistoryRecord | undefined> {
  const [row] = await db
    .select({
      id: attendanceRecords.id,
      studentId: attendanceRecords.studentId,
      scheduleId: attendanceRecords.scheduleId,
      sessionDate: attendanceRecords.sessionDate,
      status: attendanceRecords.status,
      scanInTime: attendanceRecords.scanInTime,
      scanOutTime: attendanceRecords.scanOutTime,
      minutesAttended: attendanceRecords.minutesAttended,
      source: attendanceRecords.source,
      overrideReason: attendanceRecords.overrideReason,
      createdAt: attendanceRecords.createdAt,
      createdByName: userFullName,
    })
    .from(attendanceRecords)
    .leftJoin(users, eq(users.id, attendanceRecords.createdBy))
    .where(eq(attendanceRecords.id, recordId));
  return row ? { ...row, status: row.status as AttendanceStatus } : undefined;
}

export async function selectCorrections(db: DbOrTx, recordId: number) {
  return db
    .select({ at: attendanceCorrections.changedAt, by: userFullName, email: users.email, reason: attendanceCorrections.reason, before: attendanceCorrections.before, after: attendanceCorrections.after })
    .from(attendanceCorrections)
    .leftJoin(users, eq(users.id, attendanceCorrections.changedBy))
    .where(eq(attendanceCorrections.attendanceRecordId, recordId))
    .orderBy(attendanceCorrections.changedAt, attendanceCorrections.id);
}

// ---- Clock hours ----

export type ClockHoursFilter = { scheduleId?: number; studentId?: number; instructorId?: number; from?: string; to?: string };

export type ClockHoursRow = Pick<RecordColumns, 'studentId' | 'scheduleId'> &
  Pick<StudentColumns, 'firstName' | 'lastName'> &
  Pick<typeof courses.$inferSelect, 'courseCode'> & { meetings: number; scheduled: number; attended: number; excused: number };

/** Meetings and minutes per student and schedule over the records that match the filter. */
export async function clockHoursTotals(db: DbOrTx, filter: ClockHoursFilter): Promise<ClockHoursRow[]> {
  const where = [sql`true`];
  if (filter.scheduleId != null) where.push(sql`a.schedule_id = ${filter.scheduleId}`);
  if (filter.studentId != null) where.push(sql`a.student_id = ${filter.studentId}`);
  if (filter.instructorId != null) where.push(sql`s.instructor_id = ${filter.instructorId}`);
  if (filter.from) where.push(sql`a.session_date >= ${filter.from}`);
  if (filter.to) where.push(sql`a.session_date <= ${filter.to}`);
  const { rows } = await db.execute<ClockHoursRow>(sql`
    select a.student_id as "studentId", a.schedule_id as "scheduleId", st.first_name as "firstName", st.last_name as "lastName",
           c.course_code as "courseCode", count(*)::int as meetings,
           coalesce(sum(a.scheduled_minutes), 0)::int as scheduled, coalesce(sum(a.minutes_attended), 0)::int as attended,
           coalesce(sum(a.scheduled_minutes) filter (where a.status = 'excused'), 0)::int as excused
      from attendance_records a join students st on st.id = a.student_id join schedules s on s.id = a.schedule_id join courses c on c.id = s.course_id
     where ${sql.join(where, sql` and `)}
     group by a.student_id, a.schedule_id, st.first_name, st.last_name, c.course_code
     order by c.course_code, lower(st.last_name), lower(st.first_name)`);
  return rows;
}

// ---- Auto-absent ----

/** Let one instance do the auto-absent work: false when another holds the lock (until its transaction ends). */
export async function tryAutoAbsentLock(tx: DbOrTx): Promise<boolean> {
  const { rows } = await tx.execute<{ locked: boolean }>(sql`select pg_try_advisory_xact_lock(727003) as locked`);
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

/** The student's recorded withdrawal date, if any (records after it are refused). */
export async function selectWithdrawalDate(db: DbOrTx, studentId: number): Promise<string | null> {
  const [row] = await db.select({ date: studentWithdrawals.withdrawalDate }).from(studentWithdrawals).where(eq(studentWithdrawals.studentId, studentId));
  return row?.date ?? null;
}

export async function selectStudentProgramId(db: DbOrTx, studentId: number): Promise<number | null> {
  const [row] = await db.select({ programId: students.programId }).from(students).where(eq(students.id, studentId));
  return row?.programId ?? null;
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
