import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { AttendanceStatus, StudentStatus } from '../../common/constants.ts';
import { ROLES, type Role } from '../../common/roles.ts';
import { hashPassword } from '../lib/passwords.ts';
import { recordAudit } from '../modules/audit-logs/service.ts';
import { getSettings } from '../modules/settings/service.ts';
import type { Db, Tx } from '../db/client.ts';
import {
  attendanceRecords,
  coursePrerequisites,
  courses,
  instructorProfiles,
  programTimeClockVersions,
  programs,
  qrSessions,
  scheduleRosters,
  schedules,
  students,
  users,
} from '../db/schema/index.ts';
import {
  CITIES,
  COHORTS,
  COURSES,
  EXCUSE_REASONS,
  FINANCIAL_AID,
  FIRST_NAMES,
  LAST_NAMES,
  LATE_OVERRIDE_REASONS,
  PRESENT_OVERRIDE_REASONS,
  PROGRAMS,
  RELATIONS,
  SCHEDULES,
  STAFF,
  STREETS,
  STUDENT_DOMAIN,
  type CohortSeed,
} from './catalog.ts';
import { addDays, dayOfWeek, localDate, minutesOfDay, mondayOnOrBefore, zonedInstant } from '../lib/school-time.ts';
import { makeRng, mulberry32, type Rng } from './random.ts';

export type SeedAccount = { role: Role; email: string; password: string };
export type SeedResult = { accounts: SeedAccount[]; counts: Record<string, number> };
type SeedOptions = { today: Date; random?: () => number };

const DEMO_SEED = 20250901;
const CHUNK = 1000;
// The term began on the Monday four weeks back and runs 15 weeks; every meeting before today has
// records, because a missing record reads as an absence (PRODUCT.md).
const WEEKS_OF_HISTORY = 4;
const TERM_WEEKS = 15;

type AttendanceRow = typeof attendanceRecords.$inferInsert;
type Profile = { absent: number; excused: number; late: number; incomplete: number; forgotScan: number; stoppedAfter?: string };

const NORMAL: Profile = { absent: 0.025, excused: 0.015, late: 0.06, incomplete: 0.02, forgotScan: 0.01 };
const AT_RISK: Profile = { absent: 0.27, excused: 0.03, late: 0.17, incomplete: 0.08, forgotScan: 0 };

/** Tables whose rows mean "this school is already set up". */
const GUARDED_TABLES = ['users', 'students', 'programs', 'courses', 'schedules'] as const;

function chunks<T>(rows: T[], size = CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < rows.length; i += size) out.push(rows.slice(i, i + size));
  return out;
}

const money = (n: number) => n.toFixed(2);
const slug = (s: string) => s.toLowerCase().replace(/[^a-z]/g, '');
const phone = (rng: Rng) => `(${rng.pick(['512', '737'])}) 555-01${String(rng.int(0, 99)).padStart(2, '0')}`;
const minutesBetween = (a: Date, b: Date) => (b.getTime() - a.getTime()) / 60_000;
const plusMinutes = (d: Date, m: number) => new Date(d.getTime() + m * 60_000);
const earlier = (a: Date, b: Date) => (a < b ? a : b);

/** Whole minutes of [scanIn, scanOut or class end] that fall inside the class (PRODUCT.md clock hours). */
function overlapMinutes(scanIn: Date, scanOut: Date | null, start: Date, end: Date): number {
  const from = Math.max(scanIn.getTime(), start.getTime());
  const to = Math.min((scanOut ?? end).getTime(), end.getTime());
  return Math.max(0, Math.floor((to - from) / 60_000));
}

function termName(date: string): { term: string; academicYear: string } {
  const year = Number(date.slice(0, 4));
  const month = Number(date.slice(5, 7));
  const season = month <= 4 ? 'Spring' : month <= 7 ? 'Summer' : 'Fall';
  const academicYear = month >= 7 ? `${year}-${year + 1}` : `${year - 1}-${year}`;
  return { term: `${season} ${year}`, academicYear };
}

async function assertEmpty(tx: Tx): Promise<void> {
  // Block concurrent writers (first-run setup, an import) until we commit.
  await tx.execute(sql.raw(`lock table ${GUARDED_TABLES.join(', ')} in share row exclusive mode`));
  const { rows } = await tx.execute<{ name: string }>(
    sql.raw(GUARDED_TABLES.map((t) => `select '${t}' as name where exists (select 1 from ${t})`).join(' union all ')),
  );
  if (rows.length > 0) {
    throw new Error(
      `The demo seed only fills an empty database, and this one already has data (${rows.map((r) => r.name).join(', ')}). ` +
        'Nothing was changed. Point DATA_DIR or DATABASE_URL at a new database to try the demo school.',
    );
  }
}

/**
 * Fill an empty database with a small, believable career school: two programs, their courses,
 * four instructors, ~120 students, a weekly timetable with rosters and about four weeks of past
 * attendance. One account per role gets a fresh random password, returned to the caller.
 * All in one transaction; refuses (and writes nothing) if the school already has data.
 */
export async function seedDemoSchool(db: Db, opts: SeedOptions): Promise<SeedResult> {
  const rng = makeRng(opts.random ?? mulberry32(DEMO_SEED));

  return db.transaction(async (tx) => {
    await assertEmpty(tx);
    const settings = (await getSettings(tx)).attendance;
    const tz = settings.timeZone;
    const todayLocal = localDate(opts.today, tz);
    const termStart = mondayOnOrBefore(addDays(todayLocal, -7 * WEEKS_OF_HISTORY));
    const termEnd = addDays(termStart, 7 * TERM_WEEKS - 3);
    const { term, academicYear } = termName(termStart);
    const lastSync = zonedInstant(addDays(todayLocal, -1), 2 * 60, tz);
    const at = (date: string, time: string) => zonedInstant(date, minutesOfDay(time), tz);

    // Programs and courses, as the SIS would have sent them.
    const programRows = await tx
      .insert(programs)
      .values(
        PROGRAMS.map((p) => ({
          sisProgramId: p.sisProgramId,
          programName: p.programName,
          programCode: p.programCode,
          durationHours: String(p.durationHours),
          credentialType: p.credentialType,
          description: p.description,
          status: 'active' as const,
          startDate: p.startDate,
          accreditationBody: p.accreditationBody,
          programDirector: p.programDirector,
          tuitionCost: money(p.tuitionCost),
          capacity: p.capacity,
          campusLocation: p.campusLocation,
          externalProgramId: `EXT-${p.programCode}-001`,
          regulatoryCode: p.regulatoryCode,
          lastSyncDate: lastSync,
          syncStatus: 'synced',
        })),
      )
      .returning({ id: programs.id, code: programs.programCode });
    const programId = new Map(programRows.map((r) => [r.code!, r.id]));
    // The demo school has kept attendance by Muster's first rule all along (a forgotten check-out
    // earns up to the class end), as a school that adopted Muster before time-clock rules existed.
    await tx.insert(programTimeClockVersions).values(
      programRows.map((r) => ({
        programId: r.id,
        effectiveFrom: null,
        missingCheckOut: 'credit_to_scheduled_end',
        rounding: 'none',
        roundingMinutes: 15,
        graceMinutes: 0,
      })),
    );

    const courseRows = await tx
      .insert(courses)
      .values(
        COURSES.map((c, i) => ({
          sisCourseId: `CRS-${c.courseCode}`,
          programId: programId.get(c.program)!,
          courseCode: c.courseCode,
          courseName: c.courseName,
          clockHours: String(c.clockHours),
          description: c.description,
          isActive: true,
          syllabusUrl: `https://www.example.edu/syllabi/${c.courseCode.toLowerCase()}.pdf`,
          textbooks: c.textbooks,
          labHours: String(c.clockHours - c.lectureHours),
          lectureHours: String(c.lectureHours),
          passingGrade: String(c.passingGrade),
          category: c.category,
          credits: String(c.credits),
          externalCourseId: `EXT-C${String(i + 1).padStart(3, '0')}`,
          departmentCode: c.program === 'PN' ? 'NUR' : 'AHS',
          transferCredits: c.category !== 'Clinical',
          lastSyncDate: lastSync,
          syncStatus: 'synced',
        })),
      )
      .returning({ id: courses.id, code: courses.courseCode });
    const courseId = new Map(courseRows.map((r) => [r.code, r.id]));
    const prerequisiteRows = COURSES.flatMap((c) => c.prerequisites.map((p) => ({ courseId: courseId.get(c.courseCode)!, prerequisiteId: courseId.get(p)! })));
    if (prerequisiteRows.length > 0) await tx.insert(coursePrerequisites).values(prerequisiteRows);

    // Staff. Only the four role accounts get a password; the other instructors would get a set-password link.
    const accounts: SeedAccount[] = [];
    const staffRows = await Promise.all(
      STAFF.map(async (s) => {
        const password = s.login ? randomBytes(12).toString('base64url') : null;
        if (password) accounts.push({ role: s.role, email: s.email, password });
        return {
          email: s.email,
          username: s.username,
          firstName: s.firstName,
          lastName: s.lastName,
          role: s.role,
          passwordHash: password ? await hashPassword(password) : null,
          sisUserId: s.profile ? `EMP-${s.username.toUpperCase()}` : null,
        };
      }),
    );
    accounts.sort((a, b) => ROLES.indexOf(a.role) - ROLES.indexOf(b.role));
    const userRows = await tx.insert(users).values(staffRows).returning({ id: users.id, email: users.email });
    const userId = new Map(userRows.map((r) => [r.email, r.id]));
    const staffId = new Map(STAFF.map((s) => [s.key, userId.get(s.email)!]));
    const instructors = STAFF.filter((s) => s.profile);
    await tx.insert(instructorProfiles).values(
      instructors.map((s, i) => ({
        userId: staffId.get(s.key)!,
        ...s.profile!,
        salary: money(s.profile!.salary),
        employeeId: `E-${String(1041 + i * 17)}`,
        externalInstructorId: `EXT-I${String(i + 1).padStart(3, '0')}`,
        lastSyncDate: lastSync,
        syncStatus: 'synced',
      })),
    );

    // Students, cohort by cohort. A few withdrew or are on leave; they are on no roster.
    const usedEmails = new Set<string>();
    const usedNames = new Set<string>();
    type StudentPlan = { cohort: CohortSeed; sisStudentId: string; status: StudentStatus; profile: Profile };
    const plans: StudentPlan[] = [];
    const studentValues: (typeof students.$inferInsert)[] = [];
    let seq = 0;
    for (const cohort of COHORTS) {
      const statuses = rng.shuffle([
        ...Array<StudentStatus>(cohort.withdrawn).fill('withdrawn'),
        ...Array<StudentStatus>(cohort.onLeave).fill('loa'),
        ...Array<StudentStatus>(cohort.size - cohort.withdrawn - cohort.onLeave).fill('enrolled'),
      ]);
      // Term-2 cohorts enrolled a term earlier.
      const cohortStart = cohort.termNumber === 1 ? termStart : addDays(termStart, -7 * TERM_WEEKS);
      for (const status of statuses) {
        let first: string;
        let last: string;
        do {
          first = rng.pick(FIRST_NAMES);
          last = rng.pick(LAST_NAMES);
        } while (usedNames.has(`${first} ${last}`));
        usedNames.add(`${first} ${last}`);
        let email = `${slug(first)}.${slug(last)}@${STUDENT_DOMAIN}`;
        for (let n = 2; usedEmails.has(email); n++) email = `${slug(first)}.${slug(last)}${n}@${STUDENT_DOMAIN}`;
        usedEmails.add(email);
        seq += 1;
        const enrollmentDate = addDays(cohortStart, -rng.int(10, 45));
        const sisStudentId = `STU-${enrollmentDate.slice(0, 4)}-${String(seq).padStart(4, '0')}`;
        const age = 18 + Math.floor(28 * rng.next() ** 2);
        plans.push({ cohort, sisStudentId, status, profile: NORMAL });
        studentValues.push({
          sisStudentId,
          firstName: first,
          lastName: last,
          email,
          phone: phone(rng),
          programId: programId.get(cohort.program)!,
          enrollmentDate,
          status,
          dateOfBirth: addDays(todayLocal, -(age * 365 + rng.int(0, 364))),
          address: `${rng.int(100, 9899)} ${rng.pick(STREETS)}, ${rng.pick(CITIES)}`,
          emergencyContact: `${rng.pick(FIRST_NAMES)} ${last} (${rng.pick(RELATIONS)}) ${phone(rng)}`,
          financialAid: rng.pick(FINANCIAL_AID),
          veteranStatus: rng.chance(0.06),
          externalStudentId: `EXT-S${String(seq).padStart(5, '0')}`,
          lastSyncDate: lastSync,
          syncStatus: 'synced',
        });
      }
    }
    const studentIdBySis = new Map<string, number>();
    for (const chunk of chunks(studentValues)) {
      const rows = await tx.insert(students).values(chunk).returning({ id: students.id, sis: students.sisStudentId });
      for (const r of rows) studentIdBySis.set(r.sis!, r.id);
    }

    // A handful of students struggle, so low-attendance alerts and the 14-day rule have something to find.
    for (const cohort of COHORTS) {
      const enrolled = rng.shuffle(plans.filter((p) => p.cohort === cohort && p.status === 'enrolled'));
      if (enrolled[0]) enrolled[0].profile = AT_RISK;
      // One per cohort stopped coming 15–18 days ago: a case for the 14-day withdrawal rule.
      const gone = enrolled[1];
      if (gone) gone.profile = { ...NORMAL, stoppedAfter: addDays(todayLocal, -rng.int(15, 18)) };
    }
    const variance = new Map(plans.map((p) => [p.sisStudentId, 0.4 + rng.next()]));

    // Weekly timetable and rosters.
    const scheduleRows = await tx
      .insert(schedules)
      .values(
        SCHEDULES.map((s, i) => {
          const cohort = COHORTS.find((c) => c.key === s.cohort)!;
          const course = COURSES.find((c) => c.courseCode === s.course)!;
          return {
            sisScheduleId: `SCH-${termStart.slice(0, 4)}-${String(i + 1).padStart(3, '0')}`,
            courseId: courseId.get(s.course)!,
            instructorId: staffId.get(s.instructor)!,
            cohortNumber: cohort.cohortNumber,
            termNumber: cohort.termNumber,
            dayOfWeek: s.dayOfWeek,
            startTime: s.startTime,
            endTime: s.endTime,
            roomNumber: s.roomNumber,
            courseStartDate: termStart,
            courseEndDate: termEnd,
            isActive: true,
            room: s.room,
            capacity: 32,
            notes: course.category === 'Clinical' ? 'Scrubs, badge and closed-toe shoes required.' : null,
            gradingPolicy: 'Exams 60%, skills check-offs 30%, professionalism 10%; 90% attendance required.',
            term,
            academicYear,
            registrationCode: `${s.course}-C${cohort.cohortNumber}-${['SU', 'MO', 'TU', 'WE', 'TH', 'FR', 'SA'][s.dayOfWeek]}`,
            lastSyncDate: lastSync,
            syncStatus: 'synced',
          };
        }),
      )
      .returning({ id: schedules.id });

    const rosterAddedAt = at(addDays(termStart, -3), '09:00');
    const rosterOf = new Map<number, StudentPlan[]>();
    const rosterValues: (typeof scheduleRosters.$inferInsert)[] = [];
    SCHEDULES.forEach((s, i) => {
      const sid = scheduleRows[i]!.id;
      const roster = plans.filter((p) => p.cohort.key === s.cohort && p.status === 'enrolled');
      rosterOf.set(sid, roster);
      for (const p of roster) rosterValues.push({ scheduleId: sid, studentId: studentIdBySis.get(p.sisStudentId)!, addedAt: rosterAddedAt });
    });
    for (const chunk of chunks(rosterValues)) await tx.insert(scheduleRosters).values(chunk);

    // Every meeting strictly before today's school-local date: one closed QR session each.
    type Meeting = { scheduleId: number; date: string; start: Date; end: Date; instructorId: number };
    const meetings: Meeting[] = [];
    SCHEDULES.forEach((s, i) => {
      const startMin = minutesOfDay(s.startTime);
      let endMin = minutesOfDay(s.endTime);
      if (endMin <= startMin) endMin += 24 * 60; // crosses midnight
      for (let d = termStart; d < todayLocal; d = addDays(d, 1)) {
        if (dayOfWeek(d) !== s.dayOfWeek) continue;
        meetings.push({
          scheduleId: scheduleRows[i]!.id,
          date: d,
          start: zonedInstant(d, startMin, tz),
          end: zonedInstant(d, endMin, tz),
          instructorId: staffId.get(s.instructor)!,
        });
      }
    });
    const qrId = new Map<string, number>();
    for (const chunk of chunks(meetings)) {
      const rows = await tx
        .insert(qrSessions)
        .values(
          chunk.map((m) => ({
            scheduleId: m.scheduleId,
            createdBy: m.instructorId,
            tokenSecret: randomBytes(32),
            sessionDate: m.date,
            createdAt: plusMinutes(m.start, -10),
            // Kept open through the class so students can scan out at the end.
            expiresAt: plusMinutes(m.end, 15),
            endedAt: plusMinutes(m.end, rng.int(1, 12)),
            isActive: false,
          })),
        )
        .returning({ id: qrSessions.id, scheduleId: qrSessions.scheduleId, date: qrSessions.sessionDate });
      for (const r of rows) qrId.set(`${r.scheduleId}|${r.date}`, r.id);
    }

    // Attendance: one record per meeting and rostered student.
    const deviceOf = new Map(plans.map((p) => [p.sisStudentId, `web-${rng.hex(16)}`]));
    const syncedBefore = addDays(todayLocal, -7);
    const attendance: AttendanceRow[] = [];
    for (const m of meetings) {
      const scheduled = Math.round(minutesBetween(m.start, m.end));
      for (const p of rosterOf.get(m.scheduleId)!) {
        attendance.push(
          attendanceRecord(rng, {
            studentId: studentIdBySis.get(p.sisStudentId)!,
            profile: p.profile,
            variance: variance.get(p.sisStudentId)!,
            meeting: m,
            scheduled,
            qrSessionId: qrId.get(`${m.scheduleId}|${m.date}`)!,
            deviceId: deviceOf.get(p.sisStudentId)!,
            autoAbsentAt: plusMinutes(m.end, settings.autoMarkAbsentHours * 60),
            today: opts.today,
            syncStatus: m.date < syncedBefore ? 'synced' : 'pending',
          }),
        );
      }
    }
    for (const chunk of chunks(attendance)) await tx.insert(attendanceRecords).values(chunk);

    const byStatus = (s: AttendanceStatus) => attendance.filter((a) => a.status === s).length;
    const counts: Record<string, number> = {
      programs: programRows.length,
      courses: courseRows.length,
      coursePrerequisites: prerequisiteRows.length,
      users: userRows.length,
      instructors: instructors.length,
      students: studentValues.length,
      enrolledStudents: plans.filter((p) => p.status === 'enrolled').length,
      schedules: scheduleRows.length,
      rosterEntries: rosterValues.length,
      qrSessions: meetings.length,
      attendanceRecords: attendance.length,
      present: byStatus('present'),
      late: byStatus('late'),
      incomplete: byStatus('incomplete'),
      absent: byStatus('absent'),
      excused: byStatus('excused'),
      manualOverrides: attendance.filter((a) => a.isManualOverride).length,
      atRiskStudents: plans.filter((p) => p.profile !== NORMAL).length,
    };

    await recordAudit(tx, {
      userId: null,
      action: 'Create',
      tableName: 'seed',
      recordId: 'demo-school',
      newValues: counts,
      always: true,
    });
    return { accounts, counts };
  });
}

type RecordInput = {
  studentId: number;
  profile: Profile;
  variance: number;
  meeting: { date: string; scheduleId: number; start: Date; end: Date; instructorId: number };
  scheduled: number;
  qrSessionId: number;
  deviceId: string;
  autoAbsentAt: Date;
  today: Date;
  syncStatus: 'synced' | 'pending';
};

/** One student's record for one class meeting, drawn from their attendance profile. */
function attendanceRecord(rng: Rng, r: RecordInput): AttendanceRow {
  const { start, end } = r.meeting;
  const base = {
    studentId: r.studentId,
    scheduleId: r.meeting.scheduleId,
    sessionDate: r.meeting.date,
    scheduledMinutes: r.scheduled,
    syncStatus: r.syncStatus,
  };
  const override = (reasons: readonly string[]) => {
    const overriddenAt = earlier(plusMinutes(end, rng.int(15, 240)), r.today);
    return {
      isManualOverride: true,
      overrideReason: rng.pick(reasons),
      overriddenBy: r.meeting.instructorId,
      overriddenAt,
      updatedAt: overriddenAt,
    };
  };

  const stopped = r.profile.stoppedAfter !== undefined && r.meeting.date > r.profile.stoppedAfter;
  const v = r.variance;
  const roll = rng.next();
  const pAbsent = stopped ? 1 : r.profile.absent * v;
  const pExcused = pAbsent + r.profile.excused * v;
  const pForgot = pExcused + r.profile.forgotScan;
  const pLate = pForgot + r.profile.late * v;
  const pIncomplete = pLate + r.profile.incomplete * v;

  if (roll < pAbsent) {
    // Marked by the auto-absent job after the class.
    return {
      ...base,
      status: 'absent',
      minutesAttended: 0,
      source: 'auto',
      createdAt: earlier(r.autoAbsentAt, r.today),
      updatedAt: earlier(r.autoAbsentAt, r.today),
    };
  }
  if (roll < pExcused) {
    const o = override(EXCUSE_REASONS);
    return { ...base, status: 'excused', minutesAttended: 0, source: 'manual', createdAt: o.overriddenAt, ...o };
  }
  if (roll < pForgot) {
    // Present but never scanned: the instructor records the whole class by hand.
    const o = override(PRESENT_OVERRIDE_REASONS);
    return { ...base, status: 'present', scanInTime: start, scanOutTime: end, minutesAttended: r.scheduled, source: 'manual', createdAt: o.overriddenAt, ...o };
  }

  const late = roll < pLate;
  const incomplete = !late && roll < pIncomplete;
  // Scans land on whole seconds a few minutes around the bell; late means after start + 10 min.
  const inOffset = late ? rng.int(11, 50) : rng.int(-9, 8);
  const scanIn = new Date(start.getTime() + inOffset * 60_000 + rng.int(0, 59) * 1000);
  let scanOut: Date | null;
  if (incomplete) {
    scanOut = plusMinutes(start, rng.int(60, r.scheduled - 20));
  } else if (rng.chance(0.12)) {
    scanOut = null; // forgot to scan out; counted to the end of class
  } else {
    scanOut = new Date(end.getTime() + rng.int(-8, 6) * 60_000 + rng.int(0, 59) * 1000);
  }
  if (scanOut && scanOut < scanIn) scanOut = null;
  const qr = {
    ...base,
    scanInTime: scanIn,
    scanOutTime: scanOut,
    clientScanInTime: new Date(scanIn.getTime() + rng.int(-90, 90) * 1000),
    minutesAttended: overlapMinutes(scanIn, scanOut, start, end),
    qrSessionId: r.qrSessionId,
    deviceId: r.deviceId,
    source: 'qr' as const,
    createdAt: scanIn,
    updatedAt: scanOut ?? scanIn,
  };
  if (incomplete) return { ...qr, status: 'incomplete' };
  if (late && rng.chance(0.12)) return { ...qr, status: 'present', ...override(LATE_OVERRIDE_REASONS) };
  return { ...qr, status: late ? 'late' : 'present' };
}
