import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  attendanceRecords,
  courses,
  programPolicies,
  programTimeClockVersions,
  programs,
  scheduleRosters,
  schedules,
  students,
} from '../../db/schema/index.ts';
import { createTestApp, fixedClock, type TestApp } from '../../test/helpers.ts';

/*
 * Today is not finished until its classes are. Chicago; Thursday 26 Nov 2026 (a
 * school day here). Two classes on Thursdays: 08:00–12:00 (240 min) and 13:00–16:00 (180 min).
 * Ana checked in at 05:26 for the morning class (no check-out); Ben was marked present for the
 * afternoon class ahead of time. Read at 06:43, 11:34, 12:39 and 16:30.
 */

const clock = fixedClock('2026-11-26T12:43:00Z'); // 06:43 in Chicago
let t: TestApp;
let admin: string;
let ana: number;
let ben: number;
let morning: number;

/** Move the clock, and sign in again (a session idle for hours has ended). */
const at = async (chicago: string) => {
  clock.set(new Date(`2026-11-26T${chicago}:00-06:00`));
  admin = (await t.signedIn('it_admin')).cookie;
};

beforeAll(async () => {
  t = await createTestApp({ clock });
  const sa = (await t.signedIn('super_admin')).cookie;
  await t.app.inject({ method: 'PUT', url: '/api/settings', headers: { cookie: sa }, payload: { attendance: { timeZone: 'America/Chicago' } } });
  const instructor = await t.signedIn('instructor');
  const [{ id: programId }] = (await t.db.insert(programs).values({ programName: 'Cosmetology' }).returning({ id: programs.id })) as [{ id: number }];
  await t.db.insert(programPolicies).values({ programId, programHours: '600', programWeeks: '30' });
  // Ana never checks out: a program from before time-clock rules credits her to the class end (decision 050).
  await t.db
    .insert(programTimeClockVersions)
    .values({ programId, effectiveFrom: null, missingCheckOut: 'credit_to_scheduled_end', rounding: 'none', roundingMinutes: 15, graceMinutes: 0 });
  const [{ id: courseId }] = (await t.db
    .insert(courses)
    .values({ courseCode: 'COS-1', courseName: 'Cosmetology I', programId, clockHours: '100' })
    .returning({ id: courses.id })) as [{ id: number }];
  const common = {
    courseId,
    instructorId: instructor.userId,
    cohortNumber: 1,
    termNumber: 1,
    dayOfWeek: 4,
    courseStartDate: '2026-11-26',
    courseEndDate: '2027-03-31',
  };
  [{ id: morning }] = (await t.db
    .insert(schedules)
    .values({ ...common, startTime: '08:00', endTime: '12:00' })
    .returning({ id: schedules.id })) as [{ id: number }];
  const [{ id: afternoon }] = (await t.db
    .insert(schedules)
    .values({ ...common, startTime: '13:00', endTime: '16:00' })
    .returning({ id: schedules.id })) as [{ id: number }];
  const inserted = await t.db
    .insert(students)
    .values([
      { firstName: 'Ana', lastName: 'Early', sisStudentId: 'E-1', programId, enrollmentDate: '2026-11-26' },
      { firstName: 'Ben', lastName: 'Ahead', sisStudentId: 'E-2', programId, enrollmentDate: '2026-11-26' },
    ])
    .returning({ id: students.id });
  [ana, ben] = inserted.map((s) => s.id) as [number, number];
  await t.db.insert(scheduleRosters).values([morning, afternoon].flatMap((scheduleId) => [ana, ben].map((studentId) => ({ scheduleId, studentId }))));
  await t.db.insert(attendanceRecords).values([
    {
      studentId: ana,
      scheduleId: morning,
      sessionDate: '2026-11-26',
      status: 'present',
      source: 'qr',
      scanInTime: new Date('2026-11-26T05:26:00-06:00'),
      minutesAttended: 240,
      scheduledMinutes: 240,
    },
    {
      studentId: ben,
      scheduleId: afternoon,
      sessionDate: '2026-11-26',
      status: 'present',
      source: 'manual',
      isManualOverride: true,
      overrideReason: 'Entered ahead',
      minutesAttended: 180,
      scheduledMinutes: 180,
    },
  ]);
});
afterAll(() => t?.close());

const today = async (studentId: number) => {
  const res = await t.app.inject({ url: `/api/students/${studentId}/hours`, headers: { cookie: admin } });
  expect(res.statusCode, res.body).toBe(200);
  const h = res.json();
  return { day: h.days.find((d: { date: string }) => d.date === '2026-11-26'), totals: h.totals, percent: h.attendancePercent };
};

describe('today counts only what has happened', () => {
  it('credits nothing before a class has ended, however early the check-in', async () => {
    await at('06:43');
    const a = await today(ana);
    expect(a.day).toMatchObject({ scheduledMinutes: 0, attendedMinutes: 0, creditedMinutes: 0, pendingMinutes: 420 });
    expect(a.totals).toMatchObject({ scheduledMinutes: 0, creditedMinutes: 0 });
    expect(a.percent).toBeNull();
    // Entered ahead of time: still nothing until the afternoon class has ended.
    expect((await today(ben)).day).toMatchObject({ scheduledMinutes: 0, attendedMinutes: 0, pendingMinutes: 420 });
  });

  it('counts the morning class once it ended, and leaves the afternoon pending', async () => {
    await at('12:39');
    expect((await today(ana)).day).toMatchObject({ scheduledMinutes: 240, attendedMinutes: 240, pendingMinutes: 180 });
    // Ben's afternoon is not an absence yet; his missed morning is.
    expect((await today(ben)).day).toMatchObject({ scheduledMinutes: 240, attendedMinutes: 0, pendingMinutes: 180 });
  });

  it('counts the whole day once every class ended', async () => {
    await at('16:30');
    expect((await today(ana)).day).toMatchObject({ scheduledMinutes: 420, attendedMinutes: 240, pendingMinutes: 0 });
    expect((await today(ben)).day).toMatchObject({ scheduledMinutes: 420, attendedMinutes: 180, pendingMinutes: 0 });
  });

  it('the hours list and the compliance lists agree with the student page', async () => {
    await at('11:34');
    const list = await t.app.inject({ url: '/api/hours', headers: { cookie: admin } });
    expect(list.json().map((r: { totals: { scheduledMinutes: number } }) => r.totals.scheduledMinutes)).toEqual([0, 0]);
    const overview = (await t.app.inject({ url: '/api/compliance/overview', headers: { cookie: admin } })).json();
    expect(overview.makeUpOwed).toEqual([]);
  });

  it("the dashboard's attendance rate counts the classes that have begun, not the afternoon's", async () => {
    await at('12:39');
    const stats = (await t.app.inject({ url: '/api/dashboard/executive-summary', headers: { cookie: admin } })).json();
    // The morning class: Ana checked in, Ben did not. Ben's afternoon record does not count yet.
    expect(stats.todayMetrics).toMatchObject({ totalStudentsExpected: 2, studentsCheckedIn: 1, attendanceRate: 50 });
    await at('13:05');
    const later = (await t.app.inject({ url: '/api/dashboard/executive-summary', headers: { cookie: admin } })).json();
    expect(later.todayMetrics).toMatchObject({ totalStudentsExpected: 4, studentsCheckedIn: 2 });
  });
});
