import { and, count, desc, eq, gte, inArray, lte, sql, type SQL } from 'drizzle-orm';
import type { AttendanceStatus } from '../../../common/constants.ts';
import type { MissedPunchSource, MissedPunchStatus } from '../../../common/missed-punches.ts';
import type { DbOrTx } from '../../db/client.ts';
import {
  attendanceBreaks,
  attendanceRecords,
  courses,
  missedPunchRequests,
  scheduleRosters,
  schedules,
  students,
  studentWithdrawals,
  users,
} from '../../db/schema/index.ts';
import { userFullName } from '../../db/user-name.ts';

// ---- What a student may ask about ----

/** A record of a meeting in a date range, with its class and whether a break of it is still open. */
export type MeetingRecord = {
  recordId: number;
  studentId: number;
  firstName: string;
  scheduleId: number;
  sessionDate: string;
  status: AttendanceStatus;
  source: string;
  isManualOverride: boolean;
  scanInTime: Date | null;
  scanOutTime: Date | null;
  openBreak: boolean;
  /** The last break's end: a check-out must come after it. */
  lastBreakEnd: Date | null;
  courseName: string;
  startTime: string;
  endTime: string;
};

const meetingRecordColumns = {
  recordId: attendanceRecords.id,
  studentId: attendanceRecords.studentId,
  firstName: students.firstName,
  scheduleId: attendanceRecords.scheduleId,
  sessionDate: attendanceRecords.sessionDate,
  status: attendanceRecords.status,
  source: attendanceRecords.source,
  isManualOverride: attendanceRecords.isManualOverride,
  scanInTime: attendanceRecords.scanInTime,
  scanOutTime: attendanceRecords.scanOutTime,
  openBreak: sql<boolean>`exists (select 1 from ${attendanceBreaks} b where b.record_id = ${attendanceRecords.id} and b.ended_at is null)`,
  lastBreakEnd: sql<string | null>`(select max(b.ended_at) from ${attendanceBreaks} b where b.record_id = ${attendanceRecords.id})`,
  courseName: courses.courseName,
  startTime: schedules.startTime,
  endTime: schedules.endTime,
};

async function selectMeetingRecords(db: DbOrTx, who: SQL, from: string, to: string): Promise<MeetingRecord[]> {
  const rows = await db
    .select(meetingRecordColumns)
    .from(attendanceRecords)
    .innerJoin(students, eq(students.id, attendanceRecords.studentId))
    .innerJoin(schedules, eq(schedules.id, attendanceRecords.scheduleId))
    .innerJoin(courses, eq(courses.id, schedules.courseId))
    .where(and(who, gte(attendanceRecords.sessionDate, from), lte(attendanceRecords.sessionDate, to)))
    .orderBy(attendanceRecords.sessionDate, schedules.startTime);
  return rows.map((r) => ({
    ...r,
    status: r.status,
    lastBreakEnd: r.lastBreakEnd == null ? null : new Date(r.lastBreakEnd),
    startTime: r.startTime.slice(0, 5),
    endTime: r.endTime.slice(0, 5),
  }));
}

/** The student's records of meetings from–to. */
export const selectStudentMeetingRecords = (db: DbOrTx, studentId: number, from: string, to: string) =>
  selectMeetingRecords(db, eq(attendanceRecords.studentId, studentId), from, to);

/** The records this phone (its device cookie) checked in from–to. */
export const selectDeviceMeetingRecords = (db: DbOrTx, deviceId: string, from: string, to: string) =>
  selectMeetingRecords(db, eq(attendanceRecords.deviceId, deviceId), from, to);

/** The student's name, enrolment and withdrawal: the days they can have meetings. */
export async function selectStudentFacts(
  db: DbOrTx,
  studentId: number,
): Promise<{ firstName: string; enrollmentDate: string | null; withdrawalDate: string | null } | undefined> {
  const [row] = await db
    .select({ firstName: students.firstName, enrollmentDate: students.enrollmentDate, withdrawalDate: studentWithdrawals.withdrawalDate })
    .from(students)
    .leftJoin(studentWithdrawals, eq(studentWithdrawals.studentId, students.id))
    .where(eq(students.id, studentId));
  return row;
}

/** The schedules on the student's roster, with what decides their meetings (common/meeting-rule.ts notAMeeting). */
export async function selectRosteredCalendars(db: DbOrTx, studentId: number) {
  const rows = await db
    .select({
      scheduleId: schedules.id,
      courseName: courses.courseName,
      programId: courses.programId,
      startTime: schedules.startTime,
      endTime: schedules.endTime,
      courseStartDate: schedules.courseStartDate,
      courseEndDate: schedules.courseEndDate,
      dayOfWeek: schedules.dayOfWeek,
      holidayExceptions: schedules.holidayExceptions,
      makeupDates: schedules.makeupDates,
    })
    .from(scheduleRosters)
    .innerJoin(schedules, eq(schedules.id, scheduleRosters.scheduleId))
    .innerJoin(courses, eq(courses.id, schedules.courseId))
    .where(eq(scheduleRosters.studentId, studentId));
  return rows.map((r) => ({ ...r, startTime: r.startTime.slice(0, 5), endTime: r.endTime.slice(0, 5) }));
}

type RequestOfMeeting = {
  studentId: number;
  scheduleId: number;
  sessionDate: string;
  status: MissedPunchStatus;
  decisionReason: string | null;
  createdAt: Date;
};

/** The requests of these students' meetings from–to, oldest first. */
export async function selectRequestsOfStudents(db: DbOrTx, studentIds: number[], from: string, to: string): Promise<RequestOfMeeting[]> {
  if (studentIds.length === 0) return [];
  const rows = await db
    .select({
      studentId: missedPunchRequests.studentId,
      scheduleId: missedPunchRequests.scheduleId,
      sessionDate: missedPunchRequests.sessionDate,
      status: missedPunchRequests.status,
      decisionReason: missedPunchRequests.decisionReason,
      createdAt: missedPunchRequests.createdAt,
    })
    .from(missedPunchRequests)
    .where(and(inArray(missedPunchRequests.studentId, studentIds), gte(missedPunchRequests.sessionDate, from), lte(missedPunchRequests.sessionDate, to)))
    .orderBy(missedPunchRequests.createdAt, missedPunchRequests.id);
  return rows.map((r) => ({ ...r, status: r.status }));
}

type NewRequest = {
  studentId: number;
  scheduleId: number;
  sessionDate: string;
  recordId: number | null;
  checkInAt: Date | null;
  checkOutAt: Date | null;
  reason: string;
  source: MissedPunchSource;
  createdAt: Date;
};

/** A pending request; null when the meeting has one pending already (missed_punch_requests_one_pending). */
export async function insertRequest(tx: DbOrTx, r: NewRequest): Promise<number | null> {
  const [row] = await tx.insert(missedPunchRequests).values(r).onConflictDoNothing().returning({ id: missedPunchRequests.id });
  return row?.id ?? null;
}

// ---- Staff ----

export type RequestRow = typeof missedPunchRequests.$inferSelect;

export async function lockRequest(tx: DbOrTx, id: number): Promise<RequestRow | undefined> {
  const [row] = await tx.select().from(missedPunchRequests).where(eq(missedPunchRequests.id, id)).for('update');
  return row;
}

export async function setDecision(
  tx: DbOrTx,
  id: number,
  d: { status: Exclude<MissedPunchStatus, 'pending'>; decidedBy: number; decidedAt: Date; decisionReason: string; recordId?: number },
): Promise<void> {
  await tx.update(missedPunchRequests).set(d).where(eq(missedPunchRequests.id, id));
}

type RequestFilter = { id?: number; status?: MissedPunchStatus; scheduleId?: number; date?: string; studentId?: number; instructorId?: number | null };

const requestColumns = {
  id: missedPunchRequests.id,
  studentId: missedPunchRequests.studentId,
  firstName: students.firstName,
  lastName: students.lastName,
  sisStudentId: students.sisStudentId,
  scheduleId: missedPunchRequests.scheduleId,
  courseName: courses.courseName,
  sessionDate: missedPunchRequests.sessionDate,
  checkInAt: missedPunchRequests.checkInAt,
  checkOutAt: missedPunchRequests.checkOutAt,
  reason: missedPunchRequests.reason,
  source: missedPunchRequests.source,
  status: missedPunchRequests.status,
  createdAt: missedPunchRequests.createdAt,
  decidedAt: missedPunchRequests.decidedAt,
  decidedBy: userFullName,
  decisionReason: missedPunchRequests.decisionReason,
  recordId: missedPunchRequests.recordId,
};
export type RequestListRow = Pick<
  RequestRow,
  | 'id'
  | 'studentId'
  | 'scheduleId'
  | 'sessionDate'
  | 'checkInAt'
  | 'checkOutAt'
  | 'reason'
  | 'source'
  | 'status'
  | 'createdAt'
  | 'decidedAt'
  | 'decisionReason'
  | 'recordId'
> & {
  firstName: string;
  lastName: string;
  sisStudentId: string | null;
  courseName: string;
  decidedBy: string | null;
};

function requestWhere(f: RequestFilter): SQL | undefined {
  return and(
    f.id != null ? eq(missedPunchRequests.id, f.id) : undefined,
    f.status ? eq(missedPunchRequests.status, f.status) : undefined,
    f.scheduleId != null ? eq(missedPunchRequests.scheduleId, f.scheduleId) : undefined,
    f.date ? eq(missedPunchRequests.sessionDate, f.date) : undefined,
    f.studentId != null ? eq(missedPunchRequests.studentId, f.studentId) : undefined,
    f.instructorId != null ? eq(schedules.instructorId, f.instructorId) : undefined,
  );
}

/** One page of requests, newest meeting first (then newest request), with the filtered total. */
export async function selectRequestPage(
  db: DbOrTx,
  f: RequestFilter,
  page: { limit: number; offset: number },
): Promise<{ rows: RequestListRow[]; total: number }> {
  const where = requestWhere(f);
  const [rows, [totalRow]] = await Promise.all([
    db
      .select(requestColumns)
      .from(missedPunchRequests)
      .innerJoin(students, eq(students.id, missedPunchRequests.studentId))
      .innerJoin(schedules, eq(schedules.id, missedPunchRequests.scheduleId))
      .innerJoin(courses, eq(courses.id, schedules.courseId))
      .leftJoin(users, eq(users.id, missedPunchRequests.decidedBy))
      .where(where)
      .orderBy(desc(missedPunchRequests.sessionDate), desc(missedPunchRequests.createdAt), desc(missedPunchRequests.id))
      .limit(page.limit)
      .offset(page.offset),
    db.select({ n: count() }).from(missedPunchRequests).innerJoin(schedules, eq(schedules.id, missedPunchRequests.scheduleId)).where(where),
  ]);
  return { rows, total: totalRow?.n ?? 0 };
}

export async function countOpenRequests(db: DbOrTx, studentId: number): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(missedPunchRequests)
    .where(and(eq(missedPunchRequests.studentId, studentId), eq(missedPunchRequests.status, 'pending')));
  return row?.n ?? 0;
}

// ---- Exception rates ----

type ExceptionScope = { from?: string; to?: string; programId?: number; instructorId?: number | null; studentId?: number };
type ExceptionCountRow = { studentId: number; firstName: string; lastName: string; sisStudentId: string | null; meetings: number; exceptions: number };

/**
 * Per student: the meetings counted (an attended record, or a missed-punch request) and the
 * exceptions among them (a request of any status, or a correction that approved one), in the scope.
 * Only students with at least one exception when `onlyWithExceptions`.
 */
export async function selectExceptionCounts(db: DbOrTx, s: ExceptionScope, onlyWithExceptions: boolean): Promise<ExceptionCountRow[]> {
  const dates = (column: SQL) => sql`${s.from ? sql`and ${column} >= ${s.from}::date` : sql``} ${s.to ? sql`and ${column} <= ${s.to}::date` : sql``}`;
  const scope = (student: SQL, schedule: SQL) =>
    sql`${s.studentId != null ? sql`and ${student} = ${s.studentId}` : sql``}
        ${s.instructorId != null ? sql`and exists (select 1 from schedules sc where sc.id = ${schedule} and sc.instructor_id = ${s.instructorId})` : sql``}
        ${s.programId != null ? sql`and exists (select 1 from students st where st.id = ${student} and st.program_id = ${s.programId})` : sql``}`;
  const { rows } = await db.execute<ExceptionCountRow>(sql`
    with exceptions as (
      select q.student_id, q.schedule_id, q.session_date from missed_punch_requests q
       where true ${dates(sql`q.session_date`)} ${scope(sql`q.student_id`, sql`q.schedule_id`)}
      union
      select r.student_id, r.schedule_id, r.session_date from attendance_corrections c
        join attendance_records r on r.id = c.attendance_record_id
       where c.missed_punch_request_id is not null ${dates(sql`r.session_date`)} ${scope(sql`r.student_id`, sql`r.schedule_id`)}
    ), meetings as (
      select r.student_id, r.schedule_id, r.session_date from attendance_records r
       where r.status in ('present', 'late', 'incomplete') ${dates(sql`r.session_date`)} ${scope(sql`r.student_id`, sql`r.schedule_id`)}
      union
      select * from exceptions
    ), counted as (
      select m.student_id, count(*)::int as meetings, count(e.student_id)::int as exceptions
        from meetings m left join exceptions e using (student_id, schedule_id, session_date)
       group by m.student_id
    )
    select c.student_id as "studentId", st.first_name as "firstName", st.last_name as "lastName", st.sis_student_id as "sisStudentId",
           c.meetings, c.exceptions
      from counted c join students st on st.id = c.student_id
     where ${onlyWithExceptions ? sql`c.exceptions > 0` : sql`true`}
     order by c.exceptions::numeric / c.meetings desc, c.exceptions desc, st.last_name, st.first_name, c.student_id`);
  return rows;
}
