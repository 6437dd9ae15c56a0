// Queries of the attendance module: the meeting's roster and records as staff read and correct them.
// Each takes the database or a transaction first. The scan's hot path is in check-in-queries.ts, the
// proxy check's evidence and flags in proxy-flag-queries.ts, the auto-absent job's in absence-queries.ts.
import { and, eq, inArray, isNotNull, lt, notExists, or, sql } from 'drizzle-orm';
import type { AttendanceStatus } from '../../../common/constants.ts';
import type { BreakKind } from '../../../common/attendance.ts';
import type { DbOrTx } from '../../db/client.ts';
import { attendanceBreaks, attendanceRecords, courses, qrSessions, schedules, studentWithdrawals, scheduleRosters, students } from '../../db/schema/index.ts';

import { asStoredBreak, breaksJson, RECORD_ID, type RawBreak, type RecordColumns, type StoredBreak, type StudentColumns } from './check-in-queries.ts';

// ---- Roster of one meeting ----

type RosterRow = Pick<StudentColumns, 'firstName' | 'lastName' | 'sisStudentId'> & { studentId: StudentColumns['id'] } & {
  [K in 'id' | 'status' | 'scanInTime' | 'scanOutTime' | 'minutesAttended' | 'scheduledMinutes' | 'isManualOverride' | 'overrideReason' | 'source']:
    RecordColumns[K] | null;
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
          notExists(
            db
              .select({ one: sql`1` })
              .from(studentWithdrawals)
              .where(and(eq(studentWithdrawals.studentId, students.id), lt(studentWithdrawals.withdrawalDate, sessionDate))),
          ),
        ),
        isNotNull(attendanceRecords.id),
      ),
    )
    .orderBy(sql`lower(${students.lastName})`, sql`lower(${students.firstName})`);
  return rows.map((r) => ({ ...r, status: r.status }));
}

/** A record's breaks, in order. */
export async function recordBreaks(db: DbOrTx, recordId: number): Promise<StoredBreak[]> {
  const { rows } = await db.execute<{ breaks: RawBreak[] }>(sql`select ${breaksJson(recordId)} as breaks`);
  return (rows[0]?.breaks ?? []).map(asStoredBreak);
}

/** The breaks of one meeting's records, by record id, each in order (the roster). */
export async function breaksOfMeeting(
  db: DbOrTx,
  scheduleId: number,
  sessionDate: string,
): Promise<Map<number, Pick<StoredBreak, 'kind' | 'startedAt' | 'endedAt'>[]>> {
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
      and(
        eq(attendanceRecords.scheduleId, qrSessions.scheduleId),
        eq(attendanceRecords.sessionDate, qrSessions.sessionDate),
        eq(attendanceRecords.deviceId, deviceId),
      ),
    )
    .innerJoin(students, eq(students.id, attendanceRecords.studentId))
    .where(eq(qrSessions.sessionId, sessionUuid))
    .limit(1);
  return row ? { ...row, status: row.status, breaks: row.breaks.map(asStoredBreak) } : null;
}

/** A check-out undone: no scan-out, the status and minutes the check-in gave. */
export async function clearCheckOut(tx: DbOrTx, id: number, c: { status: AttendanceStatus; minutes: number; now: Date }): Promise<void> {
  await tx
    .update(attendanceRecords)
    .set({ scanOutTime: null, status: c.status, minutesAttended: c.minutes, updatedAt: c.now })
    .where(eq(attendanceRecords.id, id));
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

type NewManualRecord = {
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

type OverrideTarget = Pick<
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
  return {
    ...rest,
    minutesAttended,
    status: rest.status,
    scanned: rest.scanInTime != null ? minutesAttended : null,
    hasScan: rest.scanInTime != null,
  };
}

export async function setOverride(
  tx: DbOrTx,
  recordId: number,
  o: {
    status: AttendanceStatus;
    overrideReason: string;
    overriddenBy: number;
    minutes: number;
    now: Date;
    times?: { scanInTime: Date | null; scanOutTime: Date | null };
  },
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

type AcceptedScan = {
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

// ---- The student ----

/** The student's recorded withdrawal date, if any (records after it are refused). */
export async function selectWithdrawalDate(db: DbOrTx, studentId: number): Promise<string | null> {
  const [row] = await db.select({ date: studentWithdrawals.withdrawalDate }).from(studentWithdrawals).where(eq(studentWithdrawals.studentId, studentId));
  return row?.date ?? null;
}

export async function selectStudentProgramId(db: DbOrTx, studentId: number): Promise<number | null> {
  const [row] = await db.select({ programId: students.programId }).from(students).where(eq(students.id, studentId));
  return row?.programId ?? null;
}
