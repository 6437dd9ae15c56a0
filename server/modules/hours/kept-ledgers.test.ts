import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AttendanceStatus } from '../../../common/constants.ts';
import { addDays } from '../../../common/dates.ts';
import {
  attendanceBreaks,
  attendanceRecords,
  calendarClosures,
  ledgerState,
  makeUpSessions,
  meetingBreaks,
  programPolicies,
  programTimeClockVersions,
  scheduleRosters,
  schedules,
  schoolSettings,
  studentLeaves,
  students,
} from '../../db/schema/index.ts';
import { localDate } from '../../lib/school-time.ts';
import { classWindow } from '../attendance/service.ts';
import {
  buildAttendanceRecords,
  buildCourse,
  buildProgram,
  buildProgramPolicy,
  buildQrSession,
  buildRosterEntry,
  buildSchedule,
  buildStudent,
  buildUser,
  buildWithdrawal,
} from '../../test/factories.ts';
import { createTestApp, fixedClock, type TestApp } from '../../test/helpers.ts';
import { SUM_KEYS } from './kept-ledger-queries.ts';
import { keepHorizon, keptLedgersFor, refreshStaleLedgers } from './kept-ledgers.ts';
import { gapOf, isAttendanceDay } from './ledger.ts';
import { ledgersFor, type StudentLedger } from './ledgers.ts';
import { selectLedgerStudent, type LedgerStudentRow } from './queries.ts';

/*
 * The property of kept ledgers (docs/decisions/056-kept-ledger-totals.md): whatever is written, by
 * whichever path, the figures read from the kept ledgers are the ones computing every ledger from the
 * start gives, to the minute. A randomised school (seeded: the seed is in the test's name) takes a
 * random series of writes to every table the ledger reads, days pass, and after each step every
 * student's kept figures are compared with the computed ledger.
 */

const SEED = Number(process.env.KEPT_LEDGER_SEED ?? 20261127);
const TZ = 'America/Chicago';
const clock = fixedClock('2026-05-20T20:00:00Z'); // Wednesday 20 May, 15:00 in Chicago
let t: TestApp;
let rand: () => number;
let supervisorId: number;
const programIds: number[] = [];
const scheduleIds: number[] = [];
let studentRows: LedgerStudentRow[] = [];

function mulberry32(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let x = Math.imul(a ^ (a >>> 15), 1 | a);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}
const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)]!;
const between = (lo: number, hi: number) => lo + Math.floor(rand() * (hi - lo + 1));
const today = () => localDate(clock.now(), TZ);
/** A day the kept ledgers hold (before the keep horizon), or now and then a recent one. */
const pastDay = (back = 70) => addDays(today(), -between(rand() < 0.2 ? 0 : 2, back));

const SCHEDULES = [
  { dayOfWeek: 1, startTime: '08:00', endTime: '12:00' },
  { dayOfWeek: 2, startTime: '13:00', endTime: '17:30' },
  { dayOfWeek: 3, startTime: '08:30', endTime: '14:30', breaks: [{ start: '11:30', end: '12:00' }] },
  { dayOfWeek: 4, startTime: '18:00', endTime: '22:00' },
  { dayOfWeek: 6, startTime: '09:00', endTime: '13:00' },
];

/** A record of a meeting, with times around the class window. */
function randomRecord(scheduleId: number, studentId: number, date: string) {
  const s = SCHEDULES[scheduleIds.indexOf(scheduleId)]!;
  const w = classWindow(date, s.startTime, s.endTime, TZ);
  const roll = rand();
  const status: AttendanceStatus = roll < 0.7 ? 'present' : roll < 0.8 ? 'late' : roll < 0.9 ? 'absent' : 'excused';
  const inAt = new Date(w.start.getTime() + between(-10, status === 'late' ? 40 : 5) * 60_000);
  const out = rand() < 0.1 ? null : new Date(w.end.getTime() + between(-30, 10) * 60_000);
  return status === 'absent' || status === 'excused'
    ? { scheduleId, studentId, sessionDate: date, status, source: 'manual' as const }
    : { scheduleId, studentId, sessionDate: date, status, scanInTime: inAt, scanOutTime: out, source: 'qr' as const };
}

async function meetingsOf(scheduleId: number, from: string, to: string): Promise<string[]> {
  const s = SCHEDULES[scheduleIds.indexOf(scheduleId)]!;
  const dates: string[] = [];
  for (let d = from; d <= to; d = addDays(d, 1)) if (new Date(`${d}T12:00:00Z`).getUTCDay() === s.dayOfWeek) dates.push(d);
  return dates;
}

async function rosterOf(scheduleId: number): Promise<number[]> {
  return (await t.db.select({ id: scheduleRosters.studentId }).from(scheduleRosters).where(eq(scheduleRosters.scheduleId, scheduleId))).map((r) => r.id);
}

async function reloadStudents() {
  studentRows = [];
  for (const id of (await t.db.select({ id: students.id }).from(students)).map((r) => r.id)) studentRows.push((await selectLedgerStudent(t.db, id))!);
}

/** What compliance reads take from a ledger: every figure but the days. */
const figures = (l: StudentLedger) => ({
  startDate: l.startDate,
  lastDateOfAttendance: l.lastDateOfAttendance,
  totals: l.totals,
  attendancePercent: l.attendancePercent,
  paymentPeriods: l.paymentPeriods,
  sapCheckpoints: l.sapCheckpoints,
  firstScheduledDate: l.firstScheduledDate,
  firstGapDate: l.firstGapDate,
});

/** Every student's kept figures against the ledger computed from the start, with running sums at a few dates. */
async function expectKeptToMatchComputed(step: string) {
  const now = clock.now();
  const asOf = today();
  const dates = [addDays(asOf, -40), addDays(asOf, -15), keepHorizon(asOf), addDays(asOf, -1), asOf].concat([pastDay(), pastDay()]);
  const computed = await ledgersFor(t.db, studentRows, asOf, TZ, now);
  const kept = await keptLedgersFor(t.db, studentRows, asOf, TZ, now, { dates: () => dates });
  for (const s of studentRows) {
    const c = computed.get(s.id)!;
    const k = kept.get(s.id)!;
    expect(figures(k), `${step}: student ${s.id}`).toEqual(figures(c));
    for (const date of dates) {
      const days = c.days.filter((d) => d.date <= date);
      const expected: Record<string, number | string | null> = {
        gapMinutes: days.reduce((n, d) => n + gapOf(d), 0),
        lastAttended: days.findLast(isAttendanceDay)?.date ?? null,
      };
      for (const key of SUM_KEYS) if (key !== 'gapMinutes') expected[key] = days.reduce((n, d) => n + d[key], 0);
      expect(k.sumsAt(date), `${step}: student ${s.id} running through ${date}`).toEqual(expected);
    }
  }
}

beforeAll(async () => {
  rand = mulberry32(SEED);
  t = await createTestApp({ clock });
  await t.db.update(schoolSettings).set({ timeZone: TZ });
  supervisorId = (await buildUser(t.db, { role: 'instructor' })).id;
  for (let p = 0; p < 2; p++) {
    const program = await buildProgram(t.db);
    programIds.push(program.id);
    await buildProgramPolicy(t.db, {
      programId: program.id,
      programHours: p === 0 ? '150' : '300',
      programWeeks: p === 0 ? '10' : '20',
      sapCheckpointHours: ['40', '90'],
    });
  }
  // The second program rounds to 15 minutes and caps days at 6 hours and weeks at 8.
  await t.db
    .insert(programTimeClockVersions)
    .values({
      programId: programIds[1]!,
      missingCheckOut: 'credit_to_scheduled_end',
      rounding: 'nearest',
      roundingMinutes: 15,
      graceMinutes: 5,
      dailyMaxMinutes: 360,
      weeklyMaxMinutes: 480,
    })
    .onConflictDoNothing();
  for (const s of SCHEDULES) {
    const course = await buildCourse(t.db, { programId: pick(programIds) });
    scheduleIds.push((await buildSchedule(t.db, { ...s, courseId: course.id, courseStartDate: '2026-03-02', courseEndDate: '2026-08-28' })).id);
  }
  for (let i = 0; i < 14; i++) {
    const student = await buildStudent(t.db, {
      programId: rand() < 0.9 ? pick(programIds) : null,
      enrollmentDate: rand() < 0.85 ? addDays('2026-03-02', between(0, 40)) : null,
    });
    const mine = scheduleIds.filter(() => rand() < 0.5);
    for (const scheduleId of mine.length ? mine : [pick(scheduleIds)]) await buildRosterEntry(t.db, { scheduleId, studentId: student.id });
  }
  // Attendance taken at most meetings up to yesterday; a few meetings nobody took.
  const records = [];
  for (const scheduleId of scheduleIds) {
    for (const date of await meetingsOf(scheduleId, '2026-03-02', addDays(today(), -1))) {
      if (rand() < 0.05) continue;
      for (const studentId of await rosterOf(scheduleId)) if (rand() < 0.97) records.push(randomRecord(scheduleId, studentId, date));
    }
  }
  await buildAttendanceRecords(t.db, records);
  await reloadStudents();
}, 120_000);

afterAll(async () => {
  await t?.close();
});

/** One random write to one of the tables a ledger is read from. */
const WRITES: Record<string, () => Promise<unknown>> = {
  async 'a record corrected'() {
    const [r] = await t.db
      .execute<{ id: number }>(sql`select id from attendance_records where session_date <= ${pastDay()}::date order by random() limit 1`)
      .then((x) => x.rows);
    if (r)
      await t.db
        .update(attendanceRecords)
        .set({ status: pick(['present', 'absent', 'excused', 'late'] as const), minutesAttended: null })
        .where(eq(attendanceRecords.id, r.id));
  },
  async 'a record removed'() {
    const [r] = await t.db
      .execute<{ id: number }>(sql`select id from attendance_records where session_date <= ${pastDay()}::date order by random() limit 1`)
      .then((x) => x.rows);
    if (r) await t.db.delete(attendanceRecords).where(eq(attendanceRecords.id, r.id));
  },
  async 'a paper sheet entered for a meeting nobody took'() {
    const scheduleId = pick(scheduleIds);
    const date = pick(await meetingsOf(scheduleId, addDays(today(), -60), addDays(today(), -1)));
    const roster = await rosterOf(scheduleId);
    if (!date || roster.length === 0) return;
    await t.db.execute(sql`delete from attendance_records where schedule_id = ${scheduleId} and session_date = ${date}::date`);
    await buildAttendanceRecords(t.db, [randomRecord(scheduleId, pick(roster), date)]);
  },
  async 'a make-up session'() {
    await t.db
      .insert(makeUpSessions)
      .values({ studentId: pick(studentRows).id, sessionDate: pastDay(), startTime: '13:00', endTime: '14:30', minutes: 90, supervisorId });
  },
  async 'a leave of absence'() {
    const start = pastDay(60);
    await t.db.insert(studentLeaves).values({ studentId: pick(studentRows).id, startDate: start, endDate: addDays(start, between(0, 12)), reason: 'Medical' });
  },
  async 'a closure'() {
    const start = pastDay(60);
    await t.db
      .insert(calendarClosures)
      .values({ name: 'Closed', startDate: start, endDate: addDays(start, between(0, 6)), programId: rand() < 0.5 ? pick(programIds) : null });
  },
  async 'a schedule moved'() {
    const id = pick(scheduleIds);
    const s = SCHEDULES[scheduleIds.indexOf(id)]!;
    s.endTime = s.endTime === '12:00' ? '12:30' : s.endTime;
    await t.db
      .update(schedules)
      .set({ endTime: s.endTime, holidayExceptions: [pastDay(40)] })
      .where(eq(schedules.id, id));
  },
  async 'a roster change'() {
    const studentId = pick(studentRows).id;
    const scheduleId = pick(scheduleIds);
    const on = (await rosterOf(scheduleId)).includes(studentId);
    if (on) await t.db.delete(scheduleRosters).where(sql`${scheduleRosters.scheduleId} = ${scheduleId} and ${scheduleRosters.studentId} = ${studentId}`);
    else await buildRosterEntry(t.db, { scheduleId, studentId });
  },
  async 'a policy change'() {
    await t.db
      .update(programPolicies)
      .set({ excusedCapPercent: String(between(2, 10)), minimumAttendancePercent: String(between(70, 95)) })
      .where(eq(programPolicies.programId, pick(programIds)));
  },
  async 'new time-clock rules'() {
    await t.db
      .insert(programTimeClockVersions)
      .values({
        programId: pick(programIds),
        effectiveFrom: pastDay(50),
        missingCheckOut: 'no_credit',
        rounding: 'down',
        roundingMinutes: 6,
        graceMinutes: 0,
        weeklyMaxMinutes: 900,
      })
      .onConflictDoNothing();
  },
  async 'a student left for a break'() {
    const [r] = await t.db
      .execute<{ id: number; in: Date }>(
        sql`
      select id, scan_in_time as in from attendance_records where scan_in_time is not null and scan_out_time is not null and session_date <= ${pastDay()}::date
       order by random() limit 1`,
      )
      .then((x) => x.rows);
    if (!r) return;
    const start = new Date(new Date(r.in).getTime() + 60 * 60_000);
    await t.db.insert(attendanceBreaks).values({ recordId: r.id, kind: 'break', startedAt: start, endedAt: new Date(start.getTime() + 25 * 60_000) });
  },
  async 'an instructor-led break'() {
    const scheduleId = pick(scheduleIds);
    const date = pick(await meetingsOf(scheduleId, addDays(today(), -50), addDays(today(), -1)));
    if (!date) return;
    const s = SCHEDULES[scheduleIds.indexOf(scheduleId)]!;
    const w = classWindow(date, s.startTime, s.endTime, TZ);
    const start = new Date(w.start.getTime() + 90 * 60_000);
    await t.db.insert(meetingBreaks).values({
      scheduleId,
      sessionDate: date,
      startedAt: start,
      endedAt: new Date(start.getTime() + 20 * 60_000),
      recheckUntil: new Date(start.getTime() + 30 * 60_000),
    });
  },
  async 'a QR session at a meeting nobody took'() {
    const scheduleId = pick(scheduleIds);
    const date = pick(await meetingsOf(scheduleId, addDays(today(), -60), addDays(today(), -1)));
    if (!date) return;
    await t.db.execute(sql`delete from attendance_records where schedule_id = ${scheduleId} and session_date = ${date}::date`);
    const createdAt = new Date(`${date}T15:00:00Z`);
    await buildQrSession(t.db, { scheduleId, sessionDate: date, createdAt, isActive: false, endedAt: new Date(createdAt.getTime() + 3_600_000) });
  },
  async 'a withdrawal'() {
    const studentId = pick(studentRows).id;
    const date = pastDay(30);
    await t.db.execute(sql`delete from student_withdrawals where student_id = ${studentId}`);
    await buildWithdrawal(t.db, { studentId, withdrawalDate: date, determinationDate: date, lastDateOfAttendance: addDays(date, -3) });
  },
  async 'an enrolment date corrected'() {
    await t.db
      .update(students)
      .set({ enrollmentDate: addDays('2026-03-02', between(0, 30)) })
      .where(eq(students.id, pick(studentRows).id));
    await reloadStudents();
  },
  async 'the date Muster keeps attendance from'() {
    await t.db.update(schoolSettings).set({ recordsStartDate: rand() < 0.3 ? null : addDays('2026-03-02', between(0, 20)) });
  },
  async 'days pass, with attendance taken'() {
    const from = today();
    clock.advance(between(1, 3) * 86_400_000);
    const records = [];
    for (const scheduleId of scheduleIds)
      for (const date of await meetingsOf(scheduleId, from, addDays(today(), -1)))
        for (const studentId of await rosterOf(scheduleId)) {
          const exists = await t.db.execute(
            sql`select 1 from attendance_records where schedule_id = ${scheduleId} and student_id = ${studentId} and session_date = ${date}::date`,
          );
          if (exists.rows.length === 0 && rand() < 0.9) records.push(randomRecord(scheduleId, studentId, date));
        }
    await buildAttendanceRecords(t.db, records);
  },
};

describe(`kept ledgers (seed ${SEED})`, () => {
  it('agree with the computed ledgers from the start', async () => {
    await expectKeptToMatchComputed('first read');
    const kept = await t.db.select({ staleFrom: ledgerState.staleFrom, validThrough: ledgerState.validThrough }).from(ledgerState);
    expect(kept).toHaveLength(studentRows.length);
    expect(kept.every((k) => k.staleFrom === null && k.validThrough === keepHorizon(today()))).toBe(true);
  });

  it('agree with the computed ledgers after every write, by every path a ledger is read from', async () => {
    const names = Object.keys(WRITES);
    // Each kind of write once, then a random series.
    // Each kind of write alone (a write checked beside another could hide behind the other's marks),
    // then a random series two at a time.
    const steps = [...names.map((name) => [name]), ...Array.from({ length: 15 }, () => [pick(names), pick(names)])];
    for (const [i, step] of steps.entries()) {
      for (const name of step) await WRITES[name]!();
      await expectKeptToMatchComputed(`step ${i + 1} (${step.join(', ')})`);
    }
  }, 240_000);

  it('say how many students are being recomputed after a policy change, until the refresher is done', async () => {
    await keptLedgersFor(t.db, studentRows, today(), TZ, clock.now());
    const admin = (await t.signedIn('it_admin')).cookie;
    const ask = async () => (await t.app.inject({ url: '/api/hours/recomputing', headers: { cookie: admin } })).json<{ students: number }>();
    expect(await ask()).toEqual({ students: 0 });
    const programId = programIds[0]!;
    await t.db.update(programPolicies).set({ excusedCapPercent: '4' }).where(eq(programPolicies.programId, programId));
    const ofProgram = studentRows.filter((s) => s.programId === programId).length;
    expect(ofProgram).toBeGreaterThan(0);
    expect(await ask()).toEqual({ students: ofProgram });
    expect(await refreshStaleLedgers(t.db, () => clock.now())).toEqual({ refreshed: ofProgram, remaining: 0 });
    expect(await ask()).toEqual({ students: 0 });
    await expectKeptToMatchComputed('after the refresher');
  });

  it('mark nothing when a student checks in today', async () => {
    // On the database's own clock: its today is the one the triggers know.
    clock.set(new Date());
    await keptLedgersFor(t.db, studentRows, today(), TZ, clock.now());
    const before = await t.db.select({ version: ledgerState.version }).from(ledgerState).orderBy(ledgerState.studentId);
    const scheduleId = pick(scheduleIds);
    const roster = await rosterOf(scheduleId);
    await t.db.execute(sql`delete from attendance_records where session_date = ${today()}::date`);
    if (roster.length) await buildAttendanceRecords(t.db, [{ scheduleId, studentId: roster[0]!, sessionDate: today(), scanInTime: clock.now() }]);
    const after = await t.db.select({ version: ledgerState.version }).from(ledgerState).orderBy(ledgerState.studentId);
    expect(after).toEqual(before);
  });
});
