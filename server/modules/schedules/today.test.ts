import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TodayClasses } from '../../../common/schedules.ts';
import { createTestApp, fixedClock, type TestApp } from '../../test/helpers.ts';
import { seedClass, type TestClass } from '../attendance/test-support.ts';

// GET /api/schedules/today (decision 031, an instructor's day): the meetings of today on the school's
// clock, scoped like the schedules themselves (an instructor's own; the whole school for admins).

const clock = fixedClock('2026-03-02T14:30:00Z'); // Monday 08:30 in Chicago
let t: TestApp;
let a: TestClass, b: TestClass;
let wednesdayId: number;

beforeAll(async () => {
  t = await createTestApp({ clock });
  a = await seedClass(t, 2, 'A');
  b = await seedClass(t, 1, 'B');
  // A's second class meets on Wednesdays: not today.
  const courseId = (await t.db.execute<{ course_id: number }>(sql`select course_id from schedules where id = ${a.scheduleId}`)).rows[0]!.course_id;
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/schedules',
    headers: { cookie: a.admin },
    payload: {
      courseId,
      instructorId: a.instructor.userId,
      cohortNumber: 2,
      termNumber: 1,
      dayOfWeek: 3,
      startTime: '13:00',
      endTime: '15:00',
      courseStartDate: '2026-01-05',
      courseEndDate: '2026-06-01',
    },
  });
  wednesdayId = res.json().id;
});
afterAll(() => t.close());

const today = async (cookie: string): Promise<TodayClasses> => {
  const res = await t.app.inject({ url: '/api/schedules/today', headers: { cookie } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};
const ids = (list: TodayClasses) => list.classes.map((c) => c.id);

describe("today's classes", () => {
  it('gives an instructor their own meetings of today, with roster count and no session yet', async () => {
    const list = await today(a.instructor.cookie);
    expect(list.date).toBe('2026-03-02');
    expect(list.classes).toEqual([
      expect.objectContaining({
        id: a.scheduleId,
        courseName: 'Fundamentals of Nursing A',
        startTime: '08:00',
        endTime: '12:00',
        roomNumber: 'B-204',
        rosterCount: 2,
        openSession: null,
        sessionsToday: 0,
      }),
    ]);
    expect(ids(await today(b.instructor.cookie))).toEqual([b.scheduleId]);
  });

  it('gives administrators every meeting of today, and refuses roles that do not take attendance', async () => {
    expect(ids(await today(a.admin)).sort()).toEqual([a.scheduleId, b.scheduleId].sort());
    const support = (await t.signedIn('support_staff')).cookie;
    expect((await t.app.inject({ url: '/api/schedules/today', headers: { cookie: support } })).statusCode).toBe(403);
    expect((await t.app.inject({ url: '/api/schedules/today' })).statusCode).toBe(401);
  });

  it('shows the open QR session of a class and the sessions run today', async () => {
    const { sessionId } = await a.startSession();
    const [cls] = (await today(a.instructor.cookie)).classes;
    expect(cls!.openSession).toEqual({ sessionId, expiresAt: expect.any(String) });
    expect(cls!.sessionsToday).toBe(1);
    await t.app.inject({ method: 'PUT', url: `/api/qr-sessions/${sessionId}/deactivate`, headers: { cookie: a.instructor.cookie } });
    expect((await today(a.instructor.cookie)).classes[0]).toMatchObject({ openSession: null, sessionsToday: 1 });
  });

  it('follows the calendar: holidays and closures drop a class, a make-up date adds one', async () => {
    await t.db.execute(sql`update schedules set holiday_exceptions = '{2026-03-02}' where id = ${b.scheduleId}`);
    await t.db.execute(sql`update schedules set makeup_dates = '{2026-03-02}' where id = ${wednesdayId}`);
    expect(ids(await today(b.instructor.cookie))).toEqual([]);
    expect(ids(await today(a.instructor.cookie))).toEqual([a.scheduleId, wednesdayId]);
    const programId = (
      await t.db.execute<{ program_id: number }>(sql`select c.program_id from schedules s join courses c on c.id = s.course_id where s.id = ${a.scheduleId}`)
    ).rows[0]!.program_id;
    const closure = await t.app.inject({
      method: 'POST',
      url: '/api/calendar/closures',
      headers: { cookie: a.admin },
      payload: { startDate: '2026-03-02', endDate: '2026-03-02', name: 'Clinical site closed', programId },
    });
    expect(closure.statusCode).toBe(201);
    expect(ids(await today(a.instructor.cookie))).toEqual([]);
    expect(ids(await today(a.admin))).toEqual([]);
  });
});
