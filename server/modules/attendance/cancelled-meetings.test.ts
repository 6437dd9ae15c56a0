import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attendanceRecords, courses, programs, scheduleRosters, schedules, students } from '../../db/schema/index.ts';
import { auditEntries, createTestApp, fixedClock, type TestApp } from '../../test/helpers.ts';

/*
 * Decision 043: a class that did not meet, and a class nobody took attendance at. Chicago;
 * today is Thursday 26 Nov 2026, 18:00. One course, a schedule for each of Mon–Thu, 08:00–12:00,
 * since Mon 16 Nov; Ana and Ben on every roster.
 *   Mon 16: a QR session ran, Ana checked in, Ben was marked absent by the job (source auto).
 *   Mon 23: Ana's record only (attendance was taken).
 *   Tue 24: nothing at all (no session, no record): for review, not an absence.
 *   Wed 25: nothing either; the instructor was sick: cancelled.
 *   Thu 19: only the job's automatic absences (the session ran with nobody scanning): cancelled.
 *   Thu 26: nothing yet either (the class ended at noon).
 */

const clock = fixedClock('2026-11-27T00:00:00Z');
let t: TestApp;
let admin: string;
let instructor: string;
let other: string;
let ana: number;
let ben: number;
const scheduleOf: Record<number, number> = {};

beforeAll(async () => {
  t = await createTestApp({ clock });
  admin = (await t.signedIn('super_admin')).cookie;
  await t.app.inject({ method: 'PUT', url: '/api/settings', headers: { cookie: admin }, payload: { attendance: { timeZone: 'America/Chicago' } } });
  const teacher = await t.signedIn('instructor');
  instructor = teacher.cookie;
  other = (await t.signedIn('instructor')).cookie;
  const [{ id: programId }] = (await t.db.insert(programs).values({ programName: 'Barbering' }).returning({ id: programs.id })) as [{ id: number }];
  const [{ id: courseId }] = (await t.db
    .insert(courses)
    .values({ courseCode: 'BAR-1', courseName: 'Barbering I', programId, clockHours: '100' })
    .returning({ id: courses.id })) as [{ id: number }];
  for (const day of [1, 2, 3, 4]) {
    const [{ id }] = (await t.db
      .insert(schedules)
      .values({
        courseId,
        instructorId: teacher.userId,
        cohortNumber: 1,
        termNumber: 1,
        dayOfWeek: day,
        startTime: '08:00',
        endTime: '12:00',
        courseStartDate: '2026-11-16',
        courseEndDate: '2027-03-31',
      })
      .returning({ id: schedules.id })) as [{ id: number }];
    scheduleOf[day] = id;
  }
  const inserted = await t.db
    .insert(students)
    .values([
      { firstName: 'Ana', lastName: 'Cruz', sisStudentId: 'B-1', programId, enrollmentDate: '2026-11-16' },
      { firstName: 'Ben', lastName: 'Lee', sisStudentId: 'B-2', programId, enrollmentDate: '2026-11-16' },
    ])
    .returning({ id: students.id });
  [ana, ben] = inserted.map((s) => s.id) as [number, number];
  await t.db.insert(scheduleRosters).values(Object.values(scheduleOf).flatMap((scheduleId) => [ana, ben].map((studentId) => ({ scheduleId, studentId }))));
  const present = (studentId: number, day: number, date: string) => ({
    studentId,
    scheduleId: scheduleOf[day]!,
    sessionDate: date,
    status: 'present' as const,
    source: 'manual',
    isManualOverride: true,
    overrideReason: 'Paper sheet',
    minutesAttended: 240,
    scheduledMinutes: 240,
  });
  const autoAbsent = (studentId: number, day: number, date: string) => ({
    studentId,
    scheduleId: scheduleOf[day]!,
    sessionDate: date,
    status: 'absent' as const,
    source: 'auto',
    minutesAttended: 0,
    scheduledMinutes: 240,
  });
  await t.db
    .insert(attendanceRecords)
    .values([
      present(ana, 1, '2026-11-16'),
      autoAbsent(ben, 1, '2026-11-16'),
      present(ana, 1, '2026-11-23'),
      autoAbsent(ana, 4, '2026-11-19'),
      autoAbsent(ben, 4, '2026-11-19'),
    ]);
  // The other meetings of the first week were taken on paper for both.
  for (const [day, date] of [
    [2, '2026-11-17'],
    [3, '2026-11-18'],
  ] as const)
    await t.db.insert(attendanceRecords).values([present(ana, day, date), present(ben, day, date)]);
});
afterAll(() => t?.close());

const cancel = (day: number, date: string, cookie = instructor, reason = 'Instructor sick') =>
  t.app.inject({ method: 'POST', url: `/api/schedules/${scheduleOf[day]}/meetings/${date}/cancel`, headers: { cookie }, payload: { reason } });
const review = async (cookie = instructor) =>
  (await t.app.inject({ url: '/api/attendance/meetings-to-review', headers: { cookie } })).json() as { scheduleId: number; date: string }[];
const dayOf = async (studentId: number, date: string) => {
  const h = (await t.app.inject({ url: `/api/students/${studentId}/hours?from=2026-11-16&to=2026-11-26`, headers: { cookie: admin } })).json();
  return h.days.find((d: { date: string }) => d.date === date);
};

describe('meetings that did not take place', () => {
  it('lists the meetings nobody took attendance at for review, and does not count them as absences', async () => {
    expect((await review()).map((m) => m.date)).toEqual(['2026-11-24', '2026-11-25', '2026-11-26']);
    expect(await dayOf(ben, '2026-11-24')).toMatchObject({ scheduledMinutes: 0, attendedMinutes: 0, unrecordedMinutes: 240 });
    // Where attendance was taken, a student without a record is absent.
    expect(await dayOf(ben, '2026-11-23')).toMatchObject({ scheduledMinutes: 240, attendedMinutes: 0, unrecordedMinutes: 0 });
    expect(await review(other)).toEqual([]);
  });

  it('cancels a meeting: never scheduled nor absent, off the review list, audited with the reason', async () => {
    expect((await cancel(3, '2026-11-25', other)).statusCode).toBe(403);
    const res = await cancel(3, '2026-11-25');
    expect(res.statusCode, res.body).toBe(204);
    expect(await dayOf(ben, '2026-11-25')).toMatchObject({ scheduledMinutes: 0, unrecordedMinutes: 0 });
    expect((await review()).map((m) => m.date)).toEqual(['2026-11-24', '2026-11-26']);
    expect((await auditEntries(t.db, 'schedules')).at(-1)).toMatchObject({
      action: 'Update',
      new_values: { cancelledMeeting: '2026-11-25', reason: 'Instructor sick' },
    });
    // The start check now says the class does not meet that day.
    expect((await cancel(3, '2026-11-25')).json().errors[0].field).toBe('date');
  });

  it('removes the automatic absences of a cancelled meeting, and refuses one where attendance was taken', async () => {
    expect(await dayOf(ben, '2026-11-19')).toMatchObject({ scheduledMinutes: 240, attendedMinutes: 0 });
    expect((await cancel(4, '2026-11-19')).statusCode).toBe(204);
    expect(await dayOf(ben, '2026-11-19')).toMatchObject({ scheduledMinutes: 0 });
    const left = await t.db.execute(
      sql`select count(*)::int as n from attendance_records where schedule_id = ${scheduleOf[4]} and session_date = '2026-11-19'`,
    );
    expect(left.rows[0]).toEqual({ n: 0 });
    const refused = await cancel(1, '2026-11-23');
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toMatch(/Attendance was taken at this meeting \(1 record\)/);
    expect((await cancel(1, '2026-11-24')).json().errors[0]).toMatchObject({ field: 'date' });
  });

  it('restores a meeting cancelled by mistake', async () => {
    const res = await t.app.inject({
      method: 'DELETE',
      url: `/api/schedules/${scheduleOf[3]}/meetings/2026-11-25/cancel`,
      headers: { cookie: admin },
      payload: { reason: 'She came in after all' },
    });
    expect(res.statusCode).toBe(204);
    expect((await review(admin)).map((m) => m.date)).toEqual(['2026-11-24', '2026-11-25', '2026-11-26']);
  });
});
