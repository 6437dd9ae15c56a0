import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  attendanceRecords,
  calendarClosures,
  courses,
  programPolicies,
  programTimeClockVersions,
  programs,
  scheduleRosters,
  schedules,
  students,
} from '../../db/schema/index.ts';
import { createTestApp, fixedClock, type TestApp } from '../../test/helpers.ts';
import type { AttendanceStatus } from '../../../common/constants.ts';

/*
 * A hand-computed school (decision 014). Chicago; a 100-hour, 8-week program: two payment periods of
 * 50 h / 4 weeks, excused cap 10 % = 300 min each, SAP at 50 and 100 h. Classes of 4 h (240 min)
 * Mon, Tue, Wed, Thu 08:00–12:00 from Monday 2026-03-02, and one night class Sat 7 Mar 23:00–03:00
 * across the spring-forward change (real length 180 min). Monday 16 March is a holiday of the Monday
 * class, Saturday 21 March its make-up date; the school is closed Wed 25 – Thu 26 March.
 *
 * The student enrolled 2026-03-02. Records (present = the whole meeting unless times are given):
 *   3/2 P 240 · 3/3 excused · 3/4 late in 08:20, out 11:30 = 190 · 3/5 P 240 · 3/7 night in 23:00, no out = 180
 *   3/9 P 240 · 3/10 excused · 3/11 P · 3/12 absent · 3/13 (Fri) make-up 13:00–15:00 = 120
 *   3/17 scanned 09:00–12:00 (180), corrected to 08:00 → 240 · 3/18 P · 3/19 P · 3/21 (make-up date) P
 *   3/23 P · 3/24 P · 3/30 P · 3/31 excused · 4/1 P · 4/2 P · 4/6 P · 4/7 absent · 4/8 P · 4/9 P
 *
 * Walking the days (credited C / scheduled S, minutes):
 *   3/3 excused 240 → all credited (cap 300 left). 3/10 excused 240 → 60 credited, 180 uncredited.
 *   3/13 C 1750 / S 2100. 3/24: C 2950 → 3190 crosses 3000: period 1's hours reached on 3/24; its
 *   4 weeks end 3/29, so it is completed on 3/29. SAP 50 h evaluated 3/24: 3190 / 3540 = 90.1 % met.
 *   3/31 excused 240 → credited in full under period 2's own cap. 4/9: C 4870 / S 5460.
 */

const clock = fixedClock('2026-04-10T17:00:00Z'); // Friday 10 April, noon in Chicago
let t: TestApp;
let admin: string;
let instructor: { cookie: string; userId: number };
let otherInstructor: string;
let support: string;
let studentId: number;
let programId: number;
let correctedRecordId: number;

const MON_TO_THU = [1, 2, 3, 4];

beforeAll(async () => {
  t = await createTestApp({ clock });
  const sa = (await t.signedIn('super_admin')).cookie;
  await t.app.inject({ method: 'PUT', url: '/api/settings', headers: { cookie: sa }, payload: { attendance: { timeZone: 'America/Chicago' } } });
  admin = (await t.signedIn('it_admin')).cookie;
  instructor = await t.signedIn('instructor', { firstName: 'Dana', lastName: 'Supervisor' });
  otherInstructor = (await t.signedIn('instructor')).cookie;
  support = (await t.signedIn('support_staff')).cookie;

  [{ id: programId }] = (await t.db.insert(programs).values({ programName: 'Cosmetology' }).returning({ id: programs.id })) as [{ id: number }];
  await t.db.insert(programPolicies).values({ programId, programHours: '100', programWeeks: '8', makeUpCapPercent: '3' });
  // A program from before time-clock rules (migration 0026 gave it this version): a missing check-out earns up to the class end.
  await t.db
    .insert(programTimeClockVersions)
    .values({ programId, effectiveFrom: null, missingCheckOut: 'credit_to_scheduled_end', rounding: 'none', roundingMinutes: 15, graceMinutes: 0 });
  const [{ id: courseId }] = (await t.db
    .insert(courses)
    .values({ courseCode: 'COS-101', courseName: 'Cosmetology I', programId, clockHours: '100' })
    .returning({ id: courses.id })) as [{ id: number }];
  [{ id: studentId }] = (await t.db
    .insert(students)
    .values({ firstName: 'Rosa', lastName: 'Diaz', sisStudentId: 'COS-1', programId, enrollmentDate: '2026-03-02' })
    .returning({ id: students.id })) as [{ id: number }];

  const common = { courseId, instructorId: instructor.userId, cohortNumber: 1, termNumber: 1, courseStartDate: '2026-03-02', courseEndDate: '2026-05-31' };
  const scheduleOf = new Map<number, number>();
  for (const day of MON_TO_THU) {
    const [{ id }] = (await t.db
      .insert(schedules)
      .values({
        ...common,
        dayOfWeek: day,
        startTime: '08:00',
        endTime: '12:00',
        ...(day === 1 ? { holidayExceptions: ['2026-03-16'], makeupDates: ['2026-03-21'] } : {}),
      })
      .returning({ id: schedules.id })) as [{ id: number }];
    scheduleOf.set(day, id);
  }
  const [{ id: night }] = (await t.db
    .insert(schedules)
    .values({ ...common, dayOfWeek: 6, startTime: '23:00', endTime: '03:00', courseStartDate: '2026-03-07', courseEndDate: '2026-03-07' })
    .returning({ id: schedules.id })) as [{ id: number }];
  await t.db.insert(scheduleRosters).values([...scheduleOf.values(), night].map((scheduleId) => ({ scheduleId, studentId })));
  await t.db.insert(calendarClosures).values({ startDate: '2026-03-25', endDate: '2026-03-26', name: 'Spring break' });
  // A closure of another program does not close this one.
  const [{ id: otherProgram }] = (await t.db.insert(programs).values({ programName: 'Barbering' }).returning({ id: programs.id })) as [{ id: number }];
  await t.db.insert(calendarClosures).values({ startDate: '2026-03-30', endDate: '2026-03-30', name: 'Barbering expo', programId: otherProgram });

  const weekday = (date: string) => new Date(`${date}T00:00:00Z`).getUTCDay();
  const record = (date: string, status: AttendanceStatus, times?: [string, string | null], scheduleId?: number) => ({
    studentId,
    scheduleId: scheduleId ?? scheduleOf.get(weekday(date) === 6 ? 1 : weekday(date))!,
    sessionDate: date,
    status,
    scanInTime: times ? new Date(times[0]) : null,
    scanOutTime: times?.[1] ? new Date(times[1]) : null,
    source: times ? 'qr' : 'manual',
    isManualOverride: !times,
    overrideReason: times ? null : 'Paper sign-in sheet',
  });
  const present = [
    '2026-03-02',
    '2026-03-05',
    '2026-03-09',
    '2026-03-11',
    '2026-03-18',
    '2026-03-19',
    '2026-03-21',
    '2026-03-23',
    '2026-03-24',
    '2026-03-30',
    '2026-04-01',
    '2026-04-02',
    '2026-04-06',
    '2026-04-08',
    '2026-04-09',
  ];
  await t.db.insert(attendanceRecords).values([
    ...present.map((d) => record(d, 'present')),
    record('2026-03-03', 'excused'),
    record('2026-03-10', 'excused'),
    record('2026-03-31', 'excused'),
    record('2026-03-12', 'absent'),
    record('2026-04-07', 'absent'),
    record('2026-03-04', 'incomplete', ['2026-03-04T14:20:00Z', '2026-03-04T17:30:00Z']), // 08:20–11:30 CST
    record('2026-03-07', 'present', ['2026-03-08T05:00:00Z', null], night), // 23:00 CST, no check-out
    record('2026-03-17', 'late', ['2026-03-17T14:00:00Z', '2026-03-17T17:00:00Z']), // 09:00–12:00 CDT
  ]);
  const { rows } = await t.db.execute<{ id: number }>(sql`select id from attendance_records where student_id = ${studentId} and session_date = '2026-03-17'`);
  correctedRecordId = rows[0]!.id;
});
afterAll(() => t?.close());

const get = (url: string, cookie = admin) => t.app.inject({ url, headers: { cookie } });

describe('the clock-hour ledger, hand-computed', () => {
  it('corrects a punch through an override, keeping the original readable', async () => {
    const res = await t.app.inject({
      method: 'PUT',
      url: `/api/attendance/${correctedRecordId}`,
      headers: { cookie: instructor.cookie },
      payload: { status: 'present', overrideReason: 'Badge reader was down; arrived on time (sign-in sheet)', scanInTime: '2026-03-17T13:00:00Z' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'present', minutesAttended: 240 });
    const history = (await get(`/api/attendance/${correctedRecordId}/history`)).json();
    expect(history.original).toMatchObject({ status: 'late', scanInTime: '2026-03-17T14:00:00.000Z', scanOutTime: '2026-03-17T17:00:00.000Z', source: 'qr' });
    expect(history.changes).toHaveLength(1);
    expect(history.changes[0]).toMatchObject({
      by: 'Dana Supervisor',
      reason: expect.stringContaining('Badge reader'),
      after: { status: 'present', scanInTime: '2026-03-17T13:00:00.000Z', minutesAttended: 240 },
    });
    expect(history.current).toMatchObject({ status: 'present', scanInTime: '2026-03-17T13:00:00.000Z' });
  });

  it('records a make-up session supervised by an instructor', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/students/${studentId}/make-up-sessions`,
      headers: { cookie: admin },
      payload: { date: '2026-03-13', startTime: '13:00', endTime: '15:00', supervisorId: instructor.userId, courseId: null, note: 'Missed practical on 3/12' },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ date: '2026-03-13', minutes: 120, supervisorName: 'Dana Supervisor' });
  });

  it('gives every figure of the ledger as of 10 April', async () => {
    const res = await get(`/api/students/${studentId}/hours?asOf=2026-04-10&from=2026-03-01&to=2026-04-10`);
    expect(res.statusCode).toBe(200);
    const h = res.json();
    expect(h).toMatchObject({
      studentId,
      programId,
      asOf: '2026-04-10',
      enrollmentDate: '2026-03-02',
      lastDateOfAttendance: '2026-04-09',
      attendancePercent: 89.2,
    });
    expect(h.totals).toEqual({
      scheduledMinutes: 5460,
      attendedMinutes: 4210,
      excusedMinutes: 720,
      excusedCreditedMinutes: 540,
      excusedUncreditedMinutes: 180,
      makeUpMinutes: 120,
      creditedMinutes: 4870,
      openingScheduledMinutes: 0,
      openingCreditedMinutes: 0,
      // The 3/7 night class has no check-out: 180 minutes credited to its end, none punched (raw).
      rawMinutes: 4030,
      roundedMinutes: 4210,
      deductedMinutes: 0,
      cappedMinutes: 0,
      pendingExceptionMinutes: 0,
      autoCheckOutMinutes: 0,
    });
    expect(h.paymentPeriods).toEqual([
      {
        number: 1,
        startHours: 0,
        endHours: 50,
        weeks: 4,
        creditedMinutes: 3000,
        excusedCreditedMinutes: 300,
        excusedCapMinutes: 300,
        status: 'completed',
        completedOn: '2026-03-29',
        startedOn: '2026-03-02',
        weeksEndOn: '2026-03-29',
        hoursRemaining: 0,
      },
      {
        number: 2,
        startHours: 50,
        endHours: 100,
        weeks: 4,
        creditedMinutes: 1870,
        excusedCreditedMinutes: 240,
        excusedCapMinutes: 300,
        status: 'in_progress',
        completedOn: null,
        startedOn: '2026-03-30',
        weeksEndOn: '2026-04-26',
        hoursRemaining: 18.83,
      },
    ]);
    expect(h.sapCheckpoints).toEqual([
      { atHours: 50, status: 'met', evaluatedOn: '2026-03-24', attendancePercent: 90.1 },
      { atHours: 100, status: 'pending', evaluatedOn: null, attendancePercent: null },
    ]);
    const day = (date: string) => h.days.find((d: { date: string }) => d.date === date);
    expect(h.days[0].date).toBe('2026-03-02');
    expect(day('2026-03-04')).toMatchObject({ scheduledMinutes: 240, attendedMinutes: 190 }); // late in, early out
    expect(day('2026-03-07')).toMatchObject({ scheduledMinutes: 180, attendedMinutes: 180 }); // across spring-forward
    expect(day('2026-03-10')).toMatchObject({ scheduledMinutes: 240, excusedMinutes: 240, creditedMinutes: 60 }); // over the cap
    expect(day('2026-03-13')).toMatchObject({ scheduledMinutes: 0, makeUpMinutes: 120 });
    expect(day('2026-03-16')).toMatchObject({ scheduledMinutes: 0, attendedMinutes: 0, closed: false }); // the class's holiday
    expect(day('2026-03-17')).toMatchObject({ attendedMinutes: 240 }); // the corrected punch
    expect(day('2026-03-21')).toMatchObject({ scheduledMinutes: 240, attendedMinutes: 240 }); // make-up date
    expect(day('2026-03-25')).toMatchObject({ scheduledMinutes: 0, excusedMinutes: 0, closed: true });
    expect(day('2026-03-30')).toMatchObject({ scheduledMinutes: 240, closed: false }); // another program's closure
    expect(day('2026-04-07')).toMatchObject({ scheduledMinutes: 240, attendedMinutes: 0, excusedMinutes: 0 });
  });

  it('gives the ledger as it stood on a past date', async () => {
    const h = (await get(`/api/students/${studentId}/hours?asOf=2026-03-13`)).json();
    expect(h.totals).toEqual({
      scheduledMinutes: 2100,
      attendedMinutes: 1330,
      excusedMinutes: 480,
      excusedCreditedMinutes: 300,
      excusedUncreditedMinutes: 180,
      makeUpMinutes: 120,
      creditedMinutes: 1750,
      openingScheduledMinutes: 0,
      openingCreditedMinutes: 0,
      rawMinutes: 1150,
      roundedMinutes: 1330,
      deductedMinutes: 0,
      cappedMinutes: 0,
      pendingExceptionMinutes: 0,
      autoCheckOutMinutes: 0,
    });
    expect(h.attendancePercent).toBe(83.3);
    expect(h.lastDateOfAttendance).toBe('2026-03-13');
    expect(h.paymentPeriods.map((p: { status: string; hoursRemaining: number }) => [p.status, p.hoursRemaining])).toEqual([
      ['in_progress', 20.83],
      ['not_started', 50],
    ]);
    // Days default to the 31 days up to asOf, from the student's start.
    expect(h.days.map((d: { date: string }) => d.date)).toEqual(Array.from({ length: 12 }, (_, i) => `2026-03-${String(i + 2).padStart(2, '0')}`));
  });

  it('defaults asOf to today in the school time zone', async () => {
    const h = (await get(`/api/students/${studentId}/hours`)).json();
    expect(h.asOf).toBe('2026-04-10');
    expect(h.totals.creditedMinutes).toBe(4870);
  });

  it('lets instructors read only students on their own rosters, decided before anything is read', async () => {
    expect((await get(`/api/students/${studentId}/hours`, instructor.cookie)).statusCode).toBe(200);
    expect((await get(`/api/students/${studentId}/hours`, otherInstructor)).statusCode).toBe(403);
    expect((await get(`/api/students/999999/hours`, otherInstructor)).statusCode).toBe(403);
    expect((await get(`/api/attendance/${correctedRecordId}/history`, otherInstructor)).statusCode).toBe(403);
    expect((await get(`/api/students/${studentId}/hours`, support)).statusCode).toBe(200);
    expect((await get(`/api/students/999999/hours`)).statusCode).toBe(404);
  });

  it('refuses bad queries with a 400 naming the field', async () => {
    const res = await get(`/api/students/${studentId}/hours?asOf=2026-02-30`);
    expect(res.statusCode).toBe(400);
    expect(JSON.stringify(res.json())).toContain('asOf');
    expect((await get(`/api/students/${studentId}/hours?from=2026-04-01&to=2026-03-01`)).statusCode).toBe(400);
  });
});

describe('the program summary and the hours export', () => {
  it('lists one summary row per student with the same figures', async () => {
    const res = await get(`/api/hours?programId=${programId}&asOf=2026-04-10&page=1&pageSize=25`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-total-count']).toBe('1');
    expect(res.json()[0]).toMatchObject({
      studentId,
      sisStudentId: 'COS-1',
      programName: 'Cosmetology',
      totals: { creditedMinutes: 4870, scheduledMinutes: 5460 },
      attendancePercent: 89.2,
      currentPaymentPeriod: 2,
      hoursRemaining: 18.83,
      sapStatus: 'met',
      lastDateOfAttendance: '2026-04-09',
    });
    expect((await get(`/api/hours?programId=${programId}`, otherInstructor)).json()).toEqual([]);
  });

  it('exports the hours of a date range as CSV', async () => {
    const res = await get(`/api/export/hours?programId=${programId}&from=2026-03-30&to=2026-04-10`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    const [header, row] = res.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split(/\r?\n/);
    expect(header).toBe(
      'sisStudentId,studentId,firstName,lastName,programName,from,to,scheduledHours,attendedHours,excusedHours,makeUpHours,creditedHours,attendancePercent,paymentPeriod,hoursToNextPaymentPeriod,lastDateOfAttendance,' +
        'rawHours,roundedHours,deductedHours,cappedHours,pendingExceptionHours,autoCheckOutHours',
    );
    // 30 Mar – 10 Apr: 8 meetings scheduled (1,920 min = 32 h), 6 attended (24 h), 1 excused (4 h, credited), 1 absent.
    // Paper-sheet records only: raw = rounded = attended, nothing deducted, capped or pending (the last six columns).
    expect(row).toBe(`COS-1,${studentId},Rosa,Diaz,Cosmetology,2026-03-30,2026-04-10,32,24,4,0,28,87.5,2,18.83,2026-04-09,24,24,0,0,0,0`);
    expect((await get(`/api/export/hours?programId=${programId}`, instructor.cookie)).statusCode).toBe(403);
  });
});

describe('make-up sessions', () => {
  const post = (payload: Record<string, unknown>, cookie = admin) =>
    t.app.inject({ method: 'POST', url: `/api/students/${studentId}/make-up-sessions`, headers: { cookie }, payload });
  const base = () => ({ date: '2026-04-03', startTime: '13:00', endTime: '14:00', supervisorId: instructor.userId });

  it('refuses a future date, an end before the start, and a supervisor who is not staff who teach', async () => {
    expect((await post({ ...base(), date: '2026-04-11' })).json().errors[0].field).toBe('date');
    expect((await post({ ...base(), endTime: '12:00' })).json().errors[0].field).toBe('endTime');
    const supportId = (await t.signedIn('support_staff')).userId;
    expect((await post({ ...base(), supervisorId: supportId })).json().errors[0].field).toBe('supervisorId');
  });

  it("refuses a make-up over the program's cap (3 % of 100 h = 180 min; 120 used)", async () => {
    const res = await post({ ...base(), endTime: '14:01' }); // 61 min → 181
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain("over the program's cap");
    expect((await post(base())).statusCode).toBe(201); // 60 min → exactly 180
  });

  it('lets an instructor record only as the supervisor, for students on their rosters', async () => {
    expect((await post({ ...base(), date: '2026-04-02', supervisorId: instructor.userId }, otherInstructor)).statusCode).toBe(403);
    const asSomeoneElse = await post({ ...base(), supervisorId: (await t.signedIn('it_admin')).userId }, instructor.cookie);
    expect(asSomeoneElse.json().errors[0].field).toBe('supervisorId');
    expect((await post(base(), support)).statusCode).toBe(403);
  });

  it('deletes with a reason kept in the audit log', async () => {
    const list = (await get(`/api/students/${studentId}/make-up-sessions`)).json();
    const target = list.find((m: { date: string }) => m.date === '2026-04-03');
    const url = `/api/students/${studentId}/make-up-sessions/${target.id}`;
    expect((await t.app.inject({ method: 'DELETE', url, headers: { cookie: admin } })).statusCode).toBe(400);
    const res = await t.app.inject({ method: 'DELETE', url, headers: { cookie: admin }, payload: { reason: 'Entered for the wrong student' } });
    expect(res.statusCode).toBe(204);
    const { rows } = await t.db.execute<{ old_values: { reason: string } }>(
      sql`select old_values from audit_logs where table_name = 'make_up_sessions' and action = 'Delete'`,
    );
    expect(rows[0]!.old_values.reason).toBe('Entered for the wrong student');
    expect((await get(`/api/students/${studentId}/make-up-sessions`)).json()).toHaveLength(1);
  });
});
