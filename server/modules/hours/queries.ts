import { and, asc, count, desc, eq, gte, ilike, inArray, lte, or, sql, type SQL } from 'drizzle-orm';
import type { BreakKind } from '../../../common/attendance.ts';
import type { AttendanceStatus } from '../../../common/constants.ts';
import type { DbOrTx } from '../../db/client.ts';
import {
  attendanceBreaks,
  attendanceRecords,
  courses,
  meetingBreaks,
  makeUpSessions,
  programs,
  scheduleRosters,
  schedules,
  studentLeaves,
  studentWithdrawals,
  students,
  users,
} from '../../db/schema/index.ts';
import { studentsInScope } from '../../db/roster-membership.ts';
import { userFullName } from '../../db/user-name.ts';
import { likePattern } from '../../lib/paging.ts';
import { anyInt, anyOf } from '../../db/bulk-upsert.ts';
import type { ViewerScope } from '../access/service.ts';

// Reads and writes of the hours ledger. The ledger is a read model over other modules' tables
// (rosters, schedules, records): decision 010 allows reads across tables, writes stay with their module.

export type LedgerStudentRow = Pick<
  typeof students.$inferSelect,
  'id' | 'programId' | 'enrollmentDate' | 'status' | 'firstName' | 'lastName' | 'sisStudentId'
> & {
  programName: string | null;
};

const studentColumns = {
  id: students.id,
  programId: students.programId,
  enrollmentDate: students.enrollmentDate,
  status: students.status,
  firstName: students.firstName,
  lastName: students.lastName,
  sisStudentId: students.sisStudentId,
  programName: programs.programName,
};

export async function selectLedgerStudentsById(db: DbOrTx, studentIds: number[]): Promise<LedgerStudentRow[]> {
  if (studentIds.length === 0) return [];
  return db.select(studentColumns).from(students).leftJoin(programs, eq(programs.id, students.programId)).where(anyInt(students.id, studentIds));
}

export async function selectLedgerStudent(db: DbOrTx, studentId: number): Promise<LedgerStudentRow | undefined> {
  const [row] = await db.select(studentColumns).from(students).leftJoin(programs, eq(programs.id, students.programId)).where(eq(students.id, studentId));
  return row;
}

type LedgerScheduleRow = Pick<
  typeof schedules.$inferSelect,
  'id' | 'dayOfWeek' | 'startTime' | 'endTime' | 'courseStartDate' | 'courseEndDate' | 'holidayExceptions' | 'makeupDates' | 'breaks'
>;

const ledgerScheduleColumns = {
  id: schedules.id,
  dayOfWeek: schedules.dayOfWeek,
  startTime: schedules.startTime,
  endTime: schedules.endTime,
  courseStartDate: schedules.courseStartDate,
  courseEndDate: schedules.courseEndDate,
  holidayExceptions: schedules.holidayExceptions,
  makeupDates: schedules.makeupDates,
  breaks: schedules.breaks,
};

/** Which schedules the students are on the rosters of (the schedules themselves are read once, by id). */
export async function selectLedgerRosters(db: DbOrTx, studentIds: number[]): Promise<{ studentId: number; scheduleId: number }[]> {
  if (studentIds.length === 0) return [];
  const { rows } = await db.execute<{ studentId: number; scheduleId: number }>(
    sql`select student_id as "studentId", schedule_id as "scheduleId" from ${scheduleRosters} where student_id = ${anyOf(studentIds, 'int')}`,
  );
  return rows;
}

/** Schedules by id, with what the ledger reads of them. */
export async function selectSchedulesById(db: DbOrTx, scheduleIds: number[]): Promise<LedgerScheduleRow[]> {
  if (scheduleIds.length === 0) return [];
  return db.select(ledgerScheduleColumns).from(schedules).where(anyInt(schedules.id, scheduleIds));
}

type LedgerRecordRow = Pick<
  typeof attendanceRecords.$inferSelect,
  'id' | 'studentId' | 'scheduleId' | 'sessionDate' | 'scanInTime' | 'scanOutTime' | 'minutesAttended'
> & {
  status: AttendanceStatus;
  /** Set by the ledger's loader from selectLedgerBreaks. */
  breaks?: { startedAt: number; endedAt: number | null }[];
};

/** Check-in/out as epoch milliseconds: a number per row instead of a timestamp text to parse (hundreds of thousands in an export). */
const epochMs = (column: typeof attendanceRecords.scanInTime | typeof attendanceRecords.scanOutTime) =>
  sql<number | null>`(extract(epoch from ${column}) * 1000)::float8`;

/** `from`: only the days from it (a ledger resumed from a kept carry); absent, all of them. */
export async function selectLedgerRecords(db: DbOrTx, studentIds: number[], asOf: string, from?: string): Promise<LedgerRecordRow[]> {
  if (studentIds.length === 0) return [];
  // Plain SQL rather than a drizzle select: its per-field row mapping was a tenth of a compliance
  // read's CPU over the hundreds of thousands of rows an export or the watch reads.
  const { rows } = await db.execute<{
    id: number;
    studentId: number;
    scheduleId: number;
    sessionDate: string;
    status: AttendanceStatus;
    scanInMs: number | null;
    scanOutMs: number | null;
    minutesAttended: number | null;
  }>(sql`
    select id, student_id as "studentId", schedule_id as "scheduleId", session_date as "sessionDate", status,
           ${epochMs(attendanceRecords.scanInTime)} as "scanInMs", ${epochMs(attendanceRecords.scanOutTime)} as "scanOutMs",
           minutes_attended as "minutesAttended"
      from ${attendanceRecords}
     where student_id = ${anyOf(studentIds, 'int')} and session_date <= ${asOf}::date
       ${from ? sql`and session_date >= ${from}::date` : sql``}`);
  // Spelled out, with no object rest per row: it adds up over the half million rows of an export.
  return rows.map((r) => ({
    id: r.id,
    studentId: r.studentId,
    scheduleId: r.scheduleId,
    sessionDate: r.sessionDate,
    status: r.status,
    scanInTime: r.scanInMs == null ? null : new Date(r.scanInMs),
    scanOutTime: r.scanOutMs == null ? null : new Date(r.scanOutMs),
    minutesAttended: r.minutesAttended,
  }));
}

/**
 * The breaks of the students' records up to asOf, by record, in order (ms since the epoch; end null:
 * not back). Most records have none: one indexed read for all, not a column on every record row.
 * `of.recordIds`: the records already read (a resumed walk reads a few days): looked up by id
 * rather than by joining the records again.
 */
export async function selectLedgerBreaks(
  db: DbOrTx,
  of: { recordIds: number[] } | { studentIds: number[]; asOf: string; from?: string },
): Promise<Map<number, { startedAt: number; endedAt: number | null }[]>> {
  const byRecord = new Map<number, { startedAt: number; endedAt: number | null }[]>();
  const columns = {
    recordId: attendanceBreaks.recordId,
    start: sql<number>`(extract(epoch from ${attendanceBreaks.startedAt}) * 1000)::float8`,
    end: sql<number | null>`(extract(epoch from ${attendanceBreaks.endedAt}) * 1000)::float8`,
  };
  const order = [attendanceBreaks.recordId, attendanceBreaks.startedAt] as const;
  let rows: { recordId: number; start: number; end: number | null }[];
  if ('recordIds' in of) {
    if (of.recordIds.length === 0) return byRecord;
    rows = await db
      .select(columns)
      .from(attendanceBreaks)
      .where(anyInt(attendanceBreaks.recordId, of.recordIds))
      .orderBy(...order);
  } else {
    if (of.studentIds.length === 0) return byRecord;
    rows = await db
      .select(columns)
      .from(attendanceBreaks)
      .innerJoin(attendanceRecords, eq(attendanceRecords.id, attendanceBreaks.recordId))
      .where(
        and(
          anyInt(attendanceRecords.studentId, of.studentIds),
          lte(attendanceRecords.sessionDate, of.asOf),
          of.from ? gte(attendanceRecords.sessionDate, of.from) : undefined,
        ),
      )
      .orderBy(...order);
  }
  for (const r of rows) (byRecord.get(r.recordId) ?? byRecord.set(r.recordId, []).get(r.recordId)!).push({ startedAt: r.start, endedAt: r.end });
  return byRecord;
}

/** Instructor-led breaks of the schedules up to asOf, by `scheduleId|date` (end null: still on break). */
export async function selectMeetingBreaks(
  db: DbOrTx,
  scheduleIds: number[],
  asOf: string,
  from?: string,
): Promise<Map<string, { start: number; end: number | null }[]>> {
  const byMeeting = new Map<string, { start: number; end: number | null }[]>();
  if (scheduleIds.length === 0) return byMeeting;
  const rows = await db
    .select({
      scheduleId: meetingBreaks.scheduleId,
      sessionDate: meetingBreaks.sessionDate,
      start: sql<number>`(extract(epoch from ${meetingBreaks.startedAt}) * 1000)::float8`,
      end: sql<number | null>`(extract(epoch from ${meetingBreaks.endedAt}) * 1000)::float8`,
    })
    .from(meetingBreaks)
    .where(and(anyInt(meetingBreaks.scheduleId, scheduleIds), lte(meetingBreaks.sessionDate, asOf), from ? gte(meetingBreaks.sessionDate, from) : undefined));
  for (const r of rows) {
    const key = `${r.scheduleId}|${r.sessionDate}`;
    (byMeeting.get(key) ?? byMeeting.set(key, []).get(key)!).push({ start: r.start, end: r.end });
  }
  return byMeeting;
}

export async function selectLedgerMakeUps(
  db: DbOrTx,
  studentIds: number[],
  asOf: string,
  from?: string,
): Promise<{ studentId: number; date: string; minutes: number }[]> {
  if (studentIds.length === 0) return [];
  return db
    .select({ studentId: makeUpSessions.studentId, date: makeUpSessions.sessionDate, minutes: makeUpSessions.minutes })
    .from(makeUpSessions)
    .where(and(anyInt(makeUpSessions.studentId, studentIds), lte(makeUpSessions.sessionDate, asOf), from ? gte(makeUpSessions.sessionDate, from) : undefined));
}

// ---- The program summary: one page of students, in SQL order ----

/** `scope`: whose students (the access module's viewer scope; WHOLE_SCHOOL for the school's export). */
type HoursStudentFilter = { programId?: number; search?: string; scope: ViewerScope };
const SORT_COLUMNS = { lastName: sql`lower(${students.lastName})`, firstName: sql`lower(${students.firstName})`, sisStudentId: students.sisStudentId };

function summaryWhere(f: HoursStudentFilter): SQL | undefined {
  const pattern = f.search ? likePattern(f.search) : undefined;
  return and(
    f.programId != null ? eq(students.programId, f.programId) : undefined,
    studentsInScope(students.id, f.scope),
    pattern
      ? or(
          ilike(students.firstName, pattern),
          ilike(students.lastName, pattern),
          ilike(students.sisStudentId, pattern),
          ilike(sql`${students.firstName} || ' ' || ${students.lastName}`, pattern),
        )
      : undefined,
  );
}

export async function selectHoursStudents(
  db: DbOrTx,
  f: HoursStudentFilter & { sort: keyof typeof SORT_COLUMNS; order: 'asc' | 'desc'; limit?: number; offset?: number; afterId?: number },
): Promise<LedgerStudentRow[]> {
  const by = SORT_COLUMNS[f.sort];
  const q = db
    .select(studentColumns)
    .from(students)
    .leftJoin(programs, eq(programs.id, students.programId))
    .where(and(summaryWhere(f), f.afterId != null ? sql`${students.id} > ${f.afterId}` : undefined))
    .orderBy(...(f.afterId != null ? [asc(students.id)] : [f.order === 'desc' ? desc(by) : asc(by), asc(students.id)]))
    .$dynamic();
  if (f.limit != null) q.limit(f.limit);
  if (f.offset) q.offset(f.offset);
  return q;
}

export async function countHoursStudents(db: DbOrTx, f: HoursStudentFilter): Promise<number> {
  const [row] = await db.select({ n: count() }).from(students).where(summaryWhere(f));
  return row?.n ?? 0;
}

// ---- Make-up sessions ----

export type MakeUpRow = typeof makeUpSessions.$inferSelect & { supervisorName: string; courseCode: string | null };

export async function selectMakeUps(db: DbOrTx, studentId: number): Promise<MakeUpRow[]> {
  const rows = await db
    .select({ m: makeUpSessions, supervisorName: sql<string>`coalesce(${userFullName}, ${users.email})`, courseCode: courses.courseCode })
    .from(makeUpSessions)
    .innerJoin(users, eq(users.id, makeUpSessions.supervisorId))
    .leftJoin(courses, eq(courses.id, makeUpSessions.courseId))
    .where(eq(makeUpSessions.studentId, studentId))
    .orderBy(desc(makeUpSessions.sessionDate), desc(makeUpSessions.startTime), desc(makeUpSessions.id));
  return rows.map((r) => ({ ...r.m, supervisorName: r.supervisorName, courseCode: r.courseCode }));
}

export async function selectMakeUp(db: DbOrTx, studentId: number, id: number): Promise<typeof makeUpSessions.$inferSelect | undefined> {
  const [row] = await db
    .select()
    .from(makeUpSessions)
    .where(and(eq(makeUpSessions.id, id), eq(makeUpSessions.studentId, studentId)))
    .for('update');
  return row;
}

export async function insertMakeUp(tx: DbOrTx, values: typeof makeUpSessions.$inferInsert): Promise<number> {
  const [row] = await tx.insert(makeUpSessions).values(values).returning({ id: makeUpSessions.id });
  return row!.id;
}

export async function deleteMakeUpRow(tx: DbOrTx, id: number): Promise<void> {
  await tx.delete(makeUpSessions).where(eq(makeUpSessions.id, id));
}

/** The student's make-up minutes so far, with the row locked so two dialogs cannot both pass the cap. */
export async function lockStudentMakeUpMinutes(tx: DbOrTx, studentId: number): Promise<number> {
  await tx.select({ id: students.id }).from(students).where(eq(students.id, studentId)).for('update');
  const [row] = await tx
    .select({ minutes: sql<string | null>`sum(${makeUpSessions.minutes})` })
    .from(makeUpSessions)
    .where(eq(makeUpSessions.studentId, studentId));
  return Number(row?.minutes ?? 0);
}

type SupervisorRow = Pick<typeof users.$inferSelect, 'id' | 'role' | 'isActive'>;
export async function selectSupervisor(db: DbOrTx, userId: number): Promise<SupervisorRow | undefined> {
  const [row] = await db.select({ id: users.id, role: users.role, isActive: users.isActive }).from(users).where(eq(users.id, userId));
  return row;
}

export async function courseExists(db: DbOrTx, courseId: number): Promise<boolean> {
  const [row] = await db.select({ id: courses.id }).from(courses).where(eq(courses.id, courseId));
  return row != null;
}

// ---- A student's records (the History tab) ----

export async function selectStudentRecords(db: DbOrTx, studentId: number, from: string | undefined, to: string | undefined) {
  return db
    .select({
      id: attendanceRecords.id,
      scheduleId: attendanceRecords.scheduleId,
      courseCode: courses.courseCode,
      courseName: courses.courseName,
      sessionDate: attendanceRecords.sessionDate,
      status: attendanceRecords.status,
      scanInTime: attendanceRecords.scanInTime,
      scanOutTime: attendanceRecords.scanOutTime,
      minutesAttended: attendanceRecords.minutesAttended,
      source: attendanceRecords.source,
      isManualOverride: attendanceRecords.isManualOverride,
      corrections: sql<number>`(select count(*)::int from attendance_corrections c where c.attendance_record_id = ${attendanceRecords.id})`,
      breaks: sql<
        { kind: BreakKind; startedAt: string; endedAt: string | null }[]
      >`(select coalesce(json_agg(json_build_object('kind', b.kind, 'startedAt', b.started_at, 'endedAt', b.ended_at) order by b.started_at), '[]')
        from attendance_breaks b where b.record_id = ${attendanceRecords.id})`,
    })
    .from(attendanceRecords)
    .innerJoin(schedules, eq(schedules.id, attendanceRecords.scheduleId))
    .innerJoin(courses, eq(courses.id, schedules.courseId))
    .where(
      and(
        eq(attendanceRecords.studentId, studentId),
        from ? sql`${attendanceRecords.sessionDate} >= ${from}` : undefined,
        to ? sql`${attendanceRecords.sessionDate} <= ${to}` : undefined,
      ),
    )
    .orderBy(desc(attendanceRecords.sessionDate), asc(schedules.startTime));
}

// ---- Leaves and withdrawals (decision 016), as the ledger needs them ----

export async function selectLedgerLeaves(db: DbOrTx, studentIds: number[]): Promise<{ studentId: number; startDate: string; endDate: string }[]> {
  if (studentIds.length === 0) return [];
  return db
    .select({ studentId: studentLeaves.studentId, startDate: studentLeaves.startDate, endDate: studentLeaves.endDate })
    .from(studentLeaves)
    .where(anyInt(studentLeaves.studentId, studentIds));
}

export async function selectLedgerWithdrawals(
  db: DbOrTx,
  studentIds: number[],
): Promise<{ studentId: number; withdrawalDate: string; lastDateOfAttendance: string | null }[]> {
  if (studentIds.length === 0) return [];
  return db
    .select({
      studentId: studentWithdrawals.studentId,
      withdrawalDate: studentWithdrawals.withdrawalDate,
      lastDateOfAttendance: studentWithdrawals.lastDateOfAttendance,
    })
    .from(studentWithdrawals)
    .where(anyInt(studentWithdrawals.studentId, studentIds));
}

/** The ledger rows of the students these SIS ids name (those that exist). */
export async function selectLedgerStudentsBySis(db: DbOrTx, sisStudentIds: string[]): Promise<LedgerStudentRow[]> {
  if (sisStudentIds.length === 0) return [];
  return db.select(studentColumns).from(students).leftJoin(programs, eq(programs.id, students.programId)).where(inArray(students.sisStudentId, sisStudentIds));
}
