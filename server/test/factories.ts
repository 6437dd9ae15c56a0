// Typed test factories, in the spirit of Outline's server/test/factories.ts: each takes a database
// (or a transaction) and optional overrides, creates what the row depends on when it is not given,
// and returns the row it wrote, with its id. They write through drizzle's typed insert, so a change
// to the schema breaks them (and the tests' overrides) at compile time, not at run time.
//
// A dependency left out is created; given as null (where the column allows it) it stays null: a
// course of no program is `buildCourse(db, { programId: null })`.
import { randomBytes } from 'node:crypto';
import { eq, inArray } from 'drizzle-orm';
import type { Role } from '../../common/roles.ts';
import type { DbOrTx } from '../db/client.ts';
import {
  attendanceRecords,
  auditLogs,
  calendarClosures,
  courses,
  fileUploads,
  loginSessions,
  maintenanceNotices,
  programPolicies,
  programs,
  qrSessions,
  scheduleRosters,
  schedules,
  studentWithdrawals,
  students,
  users,
} from '../db/schema/index.ts';
import { insertUser } from '../modules/auth/service.ts';

let sequence = 0;
/** A number no other factory call of this test file has had: names and codes that must not collide. */
const next = () => ++sequence;

type NewProgram = typeof programs.$inferInsert;
type NewProgramPolicy = typeof programPolicies.$inferInsert;
type NewCourse = typeof courses.$inferInsert;
type NewStudent = typeof students.$inferInsert;
type NewSchedule = typeof schedules.$inferInsert;
type NewRosterEntry = typeof scheduleRosters.$inferInsert;
type NewQrSession = typeof qrSessions.$inferInsert;
type NewAttendanceRecord = typeof attendanceRecords.$inferInsert;
type NewClosure = typeof calendarClosures.$inferInsert;
type NewWithdrawal = typeof studentWithdrawals.$inferInsert;
type NewAuditEntry = typeof auditLogs.$inferInsert;
type NewUpload = typeof fileUploads.$inferInsert;
type NewLoginSession = typeof loginSessions.$inferInsert;
type NewMaintenanceNotice = typeof maintenanceNotices.$inferInsert;

const DAY_MS = 24 * 60 * 60 * 1000;

/** A staff account, created the way the app creates one (auth's insertUser: the password hashed, the e-mail trimmed). */
export async function buildUser(
  db: DbOrTx,
  o: Partial<{ role: Role; email: string; password: string | null; firstName: string; lastName: string; username: string | null }> = {},
) {
  const n = next();
  const role = o.role ?? 'instructor';
  const id = await insertUser(db, {
    email: o.email ?? `${role}.${n}@factory.test`,
    password: o.password ?? null,
    firstName: o.firstName ?? 'Test',
    lastName: o.lastName ?? `User${n}`,
    role,
    username: o.username ?? null,
  });
  const [row] = await db.select().from(users).where(eq(users.id, id));
  return row!;
}

export async function buildProgram(db: DbOrTx, o: Partial<NewProgram> = {}) {
  const [row] = await db
    .insert(programs)
    .values({ programName: `Program ${next()}`, ...o })
    .returning();
  return row!;
}

/** A program's clock-hour policy row; its program is created when not given. */
export async function buildProgramPolicy(db: DbOrTx, o: Partial<NewProgramPolicy> = {}) {
  const programId = o.programId ?? (await buildProgram(db)).id;
  const [row] = await db
    .insert(programPolicies)
    .values({ ...o, programId })
    .returning();
  return row!;
}

/** A course; in a new program unless `programId` is given (null: a course of no program). */
export async function buildCourse(db: DbOrTx, o: Partial<NewCourse> = {}) {
  const n = next();
  const programId = o.programId === undefined ? (await buildProgram(db)).id : o.programId;
  const [row] = await db
    .insert(courses)
    .values({ courseCode: `C-${n}`, courseName: `Course ${n}`, ...o, programId })
    .returning();
  return row!;
}

/** A student (enrolled, the table's default); in a new program unless `programId` is given (null: in none). */
export async function buildStudent(db: DbOrTx, o: Partial<NewStudent> = {}) {
  const n = next();
  const programId = o.programId === undefined ? (await buildProgram(db)).id : o.programId;
  const [row] = await db
    .insert(students)
    .values({ firstName: 'Student', lastName: `No${n}`, ...o, programId })
    .returning();
  return row!;
}

/**
 * A schedule: by default Mondays 08:00–12:00, cohort 1, term 1, from Monday 5 January to Monday
 * 1 June 2026 (as attendance's seedClass). Its course is created when not given.
 */
export async function buildSchedule(db: DbOrTx, o: Partial<NewSchedule> = {}) {
  const courseId = o.courseId ?? (await buildCourse(db)).id;
  const [row] = await db
    .insert(schedules)
    .values({
      cohortNumber: 1,
      termNumber: 1,
      dayOfWeek: 1,
      startTime: '08:00',
      endTime: '12:00',
      courseStartDate: '2026-01-05',
      courseEndDate: '2026-06-01',
      ...o,
      courseId,
    })
    .returning();
  return row!;
}

/** A student on a schedule's roster; the schedule and the student are created when not given. */
export async function buildRosterEntry(db: DbOrTx, o: Partial<NewRosterEntry> = {}) {
  const scheduleId = o.scheduleId ?? (await buildSchedule(db)).id;
  const studentId = o.studentId ?? (await buildStudent(db)).id;
  const [row] = await db
    .insert(scheduleRosters)
    .values({ ...o, scheduleId, studentId })
    .returning();
  return row!;
}

/** A QR session, open for a day from its creation unless told otherwise; its schedule is created when not given. */
export async function buildQrSession(db: DbOrTx, o: Partial<NewQrSession> = {}) {
  const scheduleId = o.scheduleId ?? (await buildSchedule(db)).id;
  const createdAt = o.createdAt ?? new Date();
  const [row] = await db
    .insert(qrSessions)
    .values({
      tokenSecret: randomBytes(32),
      sessionDate: createdAt.toISOString().slice(0, 10),
      expiresAt: new Date(createdAt.getTime() + DAY_MS),
      ...o,
      createdAt,
      scheduleId,
    })
    .returning();
  return row!;
}

/** What a record written by hand from a paper sign-in sheet carries (a manual override with its reason). */
export const paperSheet = { source: 'manual', isManualOverride: true, overrideReason: 'Paper sheet' } as const;

/**
 * An attendance record: present, by QR, on Monday 5 January 2026 unless told otherwise; its
 * schedule and its student are created when not given.
 */
export async function buildAttendanceRecord(db: DbOrTx, o: Partial<NewAttendanceRecord> = {}) {
  const scheduleId = o.scheduleId ?? (await buildSchedule(db)).id;
  const studentId = o.studentId ?? (await buildStudent(db)).id;
  const [row] = await db
    .insert(attendanceRecords)
    .values({ sessionDate: '2026-01-05', status: 'present', source: 'qr', ...o, scheduleId, studentId })
    .returning();
  return row!;
}

type RecordOf = Partial<NewAttendanceRecord> & Pick<NewAttendanceRecord, 'studentId' | 'scheduleId' | 'sessionDate'>;

/** Many attendance records of existing students and schedules at once (present, by QR, unless told otherwise), in a few statements. */
export async function buildAttendanceRecords(db: DbOrTx, records: readonly RecordOf[]) {
  const rows: (typeof attendanceRecords.$inferSelect)[] = [];
  for (let i = 0; i < records.length; i += 1000) {
    const chunk = records.slice(i, i + 1000).map((r) => ({ status: 'present' as const, source: 'qr', ...r }));
    if (chunk.length) rows.push(...(await db.insert(attendanceRecords).values(chunk).returning()));
  }
  return rows;
}

/**
 * The meetings of these schedules from–to (YYYY-MM-DD, both included): every date that falls on a
 * schedule's weekday, by date then schedule. With `withinCourse`, only the dates between the
 * schedule's course start and end. Closures, holidays and make-up dates are not looked at.
 */
export async function meetingDates(
  db: DbOrTx,
  scheduleIds: readonly number[],
  from: string,
  to: string,
  opts: { withinCourse?: boolean } = {},
): Promise<{ scheduleId: number; sessionDate: string }[]> {
  if (!scheduleIds.length) return [];
  const found = await db
    .select({ id: schedules.id, dayOfWeek: schedules.dayOfWeek, start: schedules.courseStartDate, end: schedules.courseEndDate })
    .from(schedules)
    .where(inArray(schedules.id, [...scheduleIds]))
    .orderBy(schedules.id);
  const out: { scheduleId: number; sessionDate: string }[] = [];
  for (let d = new Date(`${from}T00:00:00Z`); d <= new Date(`${to}T00:00:00Z`); d = new Date(d.getTime() + DAY_MS)) {
    const date = d.toISOString().slice(0, 10);
    for (const s of found) {
      if (s.dayOfWeek !== d.getUTCDay()) continue;
      if (opts.withinCourse && (date < s.start || date > s.end)) continue;
      out.push({ scheduleId: s.id, sessionDate: date });
    }
  }
  return out;
}

/** A school closure (programId null) or a program's; the dates default to one Monday. */
export async function buildClosure(db: DbOrTx, o: Partial<NewClosure> = {}) {
  const [row] = await db
    .insert(calendarClosures)
    .values({ startDate: '2026-01-05', endDate: '2026-01-05', name: `Closure ${next()}`, ...o })
    .returning();
  return row!;
}

/** A recorded withdrawal; its student is created when not given. */
export async function buildWithdrawal(db: DbOrTx, o: Partial<NewWithdrawal> = {}) {
  const studentId = o.studentId ?? (await buildStudent(db)).id;
  const [row] = await db
    .insert(studentWithdrawals)
    .values({ withdrawalDate: '2026-03-09', determinationDate: '2026-03-09', reason: 'Moved away', statusBefore: 'enrolled', ...o, studentId })
    .returning();
  return row!;
}

/** An audit-log entry as a past write left it (the table only takes inserts). */
export async function buildAuditEntry(db: DbOrTx, o: Partial<NewAuditEntry> = {}) {
  const [row] = await db
    .insert(auditLogs)
    .values({ action: 'Create', tableName: 'students', ...o })
    .returning();
  return row!;
}

/** An upload's log row: a finished students file unless told otherwise. */
export async function buildUpload(db: DbOrTx, o: Partial<NewUpload> = {}) {
  const [row] = await db
    .insert(fileUploads)
    .values({ uploadType: 'students', fileName: 'students.csv', fileSize: 10, status: 'completed', ...o })
    .returning();
  return row!;
}

/** A sign-in session row (no cookie stands for it); its user is created when not given. */
export async function buildLoginSession(db: DbOrTx, o: Partial<NewLoginSession> = {}) {
  const userId = o.userId ?? (await buildUser(db)).id;
  const [row] = await db
    .insert(loginSessions)
    .values({ id: randomBytes(16).toString('hex'), ...o, userId })
    .returning();
  return row!;
}

/** A maintenance notice; by default an hour's window starting a day from now. */
export async function buildMaintenanceNotice(db: DbOrTx, o: Partial<NewMaintenanceNotice> = {}) {
  const startsAt = o.startsAt ?? new Date(Date.now() + DAY_MS);
  const [row] = await db
    .insert(maintenanceNotices)
    .values({ message: `Maintenance ${next()}`, endsAt: new Date(startsAt.getTime() + 60 * 60 * 1000), ...o, startsAt })
    .returning();
  return row!;
}
