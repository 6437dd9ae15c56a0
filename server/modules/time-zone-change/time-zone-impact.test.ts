import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildAttendanceRecords, buildCourse, buildProgram, buildRosterEntry, buildSchedule, buildStudent, meetingDates } from '../../test/factories.ts';
import { createTestApp, fixedClock, type TestApp } from '../../test/helpers.ts';

/*
 * Decision 046: changing the school's zone recounted all history, and only "Settings saved" was
 * said. A school on UTC; classes Mon–Fri 08:00–14:00 since Monday 2 March 2026 (59 of them through Thursday 21 May); today is Friday
 * 22 May 2026, 17:00 UTC. Ana scanned in and out of every class through yesterday; Ben never came.
 * On UTC Ben alone is overdue. On Los Angeles' clock (UTC−7 in May) the classes are 15:00–21:00 UTC,
 * none of Ana's check-ins falls in one, and she is overdue too.
 */

const clock = fixedClock('2026-05-22T17:00:00Z');
let t: TestApp;
let admin: string;
let itAdmin: string;

beforeAll(async () => {
  t = await createTestApp({ clock });
  admin = (await t.signedIn('super_admin')).cookie;
  itAdmin = (await t.signedIn('it_admin')).cookie;
  const instructor = await t.signedIn('instructor');
  const programId = (await buildProgram(t.db, { programName: 'Practical Nursing' })).id;
  const courseId = (await buildCourse(t.db, { courseCode: 'PN-100', courseName: 'Nursing I', programId, clockHours: '150' })).id;
  const scheduleIds: number[] = [];
  for (const dayOfWeek of [1, 2, 3, 4, 5]) {
    const schedule = await buildSchedule(t.db, {
      courseId,
      instructorId: instructor.userId,
      dayOfWeek,
      startTime: '08:00',
      endTime: '14:00',
      courseStartDate: '2026-03-02',
      courseEndDate: '2026-08-28',
    });
    scheduleIds.push(schedule.id);
  }
  const ana = await buildStudent(t.db, { firstName: 'Ana', lastName: 'Diaz', sisStudentId: 'TZ-1', programId, enrollmentDate: '2026-03-02' });
  const ben = await buildStudent(t.db, { firstName: 'Ben', lastName: 'Okafor', sisStudentId: 'TZ-2', programId, enrollmentDate: '2026-03-02' });
  for (const s of [ana, ben]) for (const scheduleId of scheduleIds) await buildRosterEntry(t.db, { scheduleId, studentId: s.id });
  // Ana's QR check-ins: 07:58 to 14:01 UTC on every class day through Thursday 21 May.
  await buildAttendanceRecords(
    t.db,
    (await meetingDates(t.db, scheduleIds, '2026-03-02', '2026-05-21')).map((m) => ({
      ...m,
      studentId: ana.id,
      status: 'present',
      source: 'qr',
      scanInTime: new Date(`${m.sessionDate}T07:58:00Z`),
      scanOutTime: new Date(`${m.sessionDate}T14:01:00Z`),
    })),
  );
});
afterAll(() => t?.close());

const impact = (timeZone: string | null, cookie = admin) =>
  t.app.inject({ url: `/api/settings/time-zone-impact${timeZone == null ? '' : `?timeZone=${encodeURIComponent(timeZone)}`}`, headers: { cookie } });

describe('GET /api/settings/time-zone-impact', () => {
  it('says what a new zone recounts: class times moved, the history read on the new clock, the withdrawal watch now and after', async () => {
    const res = await impact('America/Los_Angeles');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toEqual({
      from: 'UTC',
      to: 'America/Los_Angeles',
      classTimesMoveMinutes: 7 * 60,
      schedules: 5,
      attendanceRecords: 59,
      checkIns: 59,
      openSessions: 0,
      overdueWithdrawals: { now: 1, after: 2 },
      onWithdrawalWatch: { now: 1, after: 2 },
    });
    // A preview: nothing was saved.
    const settings = (await t.app.inject({ url: '/api/settings', headers: { cookie: admin } })).json();
    expect(settings.attendance.timeZone).toBe('UTC');
  });

  it('the same zone changes nothing', async () => {
    const body = (await impact('UTC', itAdmin)).json();
    expect(body.classTimesMoveMinutes).toBe(0);
    expect(body.overdueWithdrawals).toEqual({ now: 1, after: 1 });
  });

  it('refuses a zone that is not an IANA zone, or none, naming the field', async () => {
    for (const zone of ['Mars/Olympus', '', null]) {
      const res = await impact(zone);
      expect(res.statusCode, String(zone)).toBe(400);
      expect(
        res.json().errors.map((e: { field: string }) => e.field),
        String(zone),
      ).toEqual(['timeZone']);
    }
  });

  it('is for those who may change the attendance settings', async () => {
    for (const role of ['instructor', 'support_staff'] as const) {
      const { cookie } = await t.signedIn(role);
      expect((await impact('America/Chicago', cookie)).statusCode, role).toBe(403);
    }
    expect((await t.app.inject({ url: '/api/settings/time-zone-impact?timeZone=UTC' })).statusCode).toBe(401);
  });
});
