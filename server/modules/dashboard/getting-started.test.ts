import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, fixedClock, type TestApp } from '../../test/helpers.ts';
import { seedClass } from '../attendance/test-support.ts';

// The first-run checklist is ticked from real rows, not guessed on the web.

// Monday 2 March 2026, 08:00:05 in Chicago: the seeded class meets 08:00–12:00.
const clock = fixedClock('2026-03-02T14:00:05Z');
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ clock });
});
afterAll(async () => t?.close());

const read = async (role: 'super_admin' | 'it_admin' | 'instructor' | 'support_staff') =>
  t.app.inject({ url: '/api/dashboard/getting-started', headers: { cookie: (await t.signedIn(role)).cookie } });

describe('GET /api/dashboard/getting-started', () => {
  it('counts nothing in an empty school, and no time zone chosen yet', async () => {
    const res = await read('super_admin');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ timeZoneChosen: false, schoolNamed: false, programs: 0, courses: 0, students: 0, schedules: 0, attendanceRecords: 0 });
  });

  it('counts programs, courses, students, instructors, schedules and check-ins as they appear', async () => {
    const cls = await seedClass(t, 3, 'A');
    const { sessionId } = await cls.startSession();
    const { res } = await cls.scan(sessionId, cls.students[0]!, { ip: '10.0.0.9' });
    expect(res.statusCode).toBe(200);
    const body = (await read('it_admin')).json();
    expect(body).toMatchObject({ timeZoneChosen: true, timeZone: 'America/Chicago', programs: 1, courses: 1, students: 3, schedules: 1, attendanceRecords: 1 });
    expect(body.instructors).toBeGreaterThanOrEqual(1);
  });

  it('ticks "Name your school" once Settings › System has a name', async () => {
    const sa = (await t.signedIn('super_admin')).cookie;
    const put = (schoolName: string) => t.app.inject({ method: 'PUT', url: '/api/settings', headers: { cookie: sa }, payload: { system: { schoolName } } });
    expect((await put('   ')).statusCode).toBe(200);
    expect((await read('super_admin')).json().schoolNamed).toBe(false);
    expect((await put('Lakeside Career College')).statusCode).toBe(200);
    expect((await read('super_admin')).json().schoolNamed).toBe(true);
  });

  it('is for administrators only', async () => {
    expect((await read('instructor')).statusCode).toBe(403);
    expect((await read('support_staff')).statusCode).toBe(403);
    expect((await t.app.inject({ url: '/api/dashboard/getting-started' })).statusCode).toBe(401);
  });
});
