import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { courses, programs, scheduleRosters, schedules, students } from '../../db/schema/index.ts';
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
  const [{ id: programId }] = (await t.db.insert(programs).values({ programName: 'Practical Nursing' }).returning({ id: programs.id })) as [{ id: number }];
  const [{ id: courseId }] = (await t.db
    .insert(courses)
    .values({ courseCode: 'PN-100', courseName: 'Nursing I', programId, clockHours: '150' })
    .returning({ id: courses.id })) as [{ id: number }];
  const scheduleIds: number[] = [];
  for (const dayOfWeek of [1, 2, 3, 4, 5]) {
    const [{ id }] = (await t.db
      .insert(schedules)
      .values({
        courseId,
        instructorId: instructor.userId,
        cohortNumber: 1,
        termNumber: 1,
        dayOfWeek,
        startTime: '08:00',
        endTime: '14:00',
        courseStartDate: '2026-03-02',
        courseEndDate: '2026-08-28',
      })
      .returning({ id: schedules.id })) as [{ id: number }];
    scheduleIds.push(id);
  }
  const [ana, ben] = (await t.db
    .insert(students)
    .values([
      { firstName: 'Ana', lastName: 'Diaz', sisStudentId: 'TZ-1', programId, enrollmentDate: '2026-03-02' },
      { firstName: 'Ben', lastName: 'Okafor', sisStudentId: 'TZ-2', programId, enrollmentDate: '2026-03-02' },
    ])
    .returning({ id: students.id })) as [{ id: number }, { id: number }];
  for (const s of [ana, ben]) await t.db.insert(scheduleRosters).values(scheduleIds.map((scheduleId) => ({ scheduleId, studentId: s.id })));
  // Ana's QR check-ins: 07:58 to 14:01 UTC on every class day through Thursday 21 May.
  await t.db.execute(sql`
    insert into attendance_records (student_id, schedule_id, session_date, status, source, scan_in_time, scan_out_time)
    select ${ana.id}, s.id, d::date, 'present', 'qr', d + time '07:58', d + time '14:01'
      from schedules s cross join generate_series('2026-03-02'::timestamp, '2026-05-21'::timestamp, interval '1 day') d
     where s.id = any(${`{${scheduleIds.join(',')}}`}::int[]) and extract(dow from d) = s.day_of_week`);
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
