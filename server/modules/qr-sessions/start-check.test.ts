import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, fixedClock, type TestApp } from '../../test/helpers.ts';
import { seedClass, type TestClass } from '../attendance/test-support.ts';

// Starting a session when the class does not meet (decision 031): the start check says why, the start
// itself still works for existing clients and carries the same warning in an added field.

// Monday 07:00 in Chicago; the class meets Mondays 08:00–12:00. The clock only moves forward (sign-ins stay valid).
const clock = fixedClock('2026-03-02T13:00:00Z');
let t: TestApp;
let cls: TestClass;

beforeAll(async () => {
  t = await createTestApp({ clock });
  // The clock crosses days: keep the staff signed in meanwhile.
  const sa = (await t.signedIn('super_admin')).cookie;
  await t.app.inject({ method: 'PUT', url: '/api/settings', headers: { cookie: sa }, payload: { security: { sessionLifetimeHours: 168 } } });
  cls = await seedClass(t, 1);
});
afterAll(() => t.close());

const check = async (cookie = cls.instructor.cookie, scheduleId: unknown = cls.scheduleId) =>
  t.app.inject({ url: `/api/qr-sessions/start-check?scheduleId=${scheduleId}`, headers: { cookie } });
const warningAt = async (iso: string) => {
  clock.set(iso);
  const res = await check();
  expect(res.statusCode, res.body).toBe(200);
  return res.json().warning as string | null;
};
const start = (cookie = cls.instructor.cookie) =>
  t.app.inject({ method: 'POST', url: '/api/qr-sessions', headers: { cookie }, payload: { scheduleId: cls.scheduleId } });
const end = (sessionId: string, cookie = cls.instructor.cookie) =>
  t.app.inject({ method: 'PUT', url: `/api/qr-sessions/${sessionId}/deactivate`, headers: { cookie } });

describe('start check', () => {
  it('is quiet from half an hour before class to its end, and warns outside those hours', async () => {
    expect(await warningAt('2026-03-02T13:20:00Z')).toBe('Fundamentals of Nursing A meets from 08:00 to 12:00; it is 07:20 now.');
    expect(await warningAt('2026-03-02T13:35:00Z')).toBeNull(); // 07:35
    clock.set('2026-03-02T14:30:00Z');
    expect((await check()).json()).toEqual({ scheduleId: cls.scheduleId, sessionDate: '2026-03-02', warning: null });
    expect(await warningAt('2026-03-02T18:00:00Z')).toBeNull(); // 12:00, the end
    expect(await warningAt('2026-03-02T19:00:00Z')).toBe('Fundamentals of Nursing A meets from 08:00 to 12:00; it is 13:00 now.');
  });

  it('warns on a day the class does not meet', async () => {
    expect(await warningAt('2026-03-03T15:00:00Z')).toBe('Fundamentals of Nursing A meets on Mondays; today is Tuesday.');
  });

  it("refuses another instructor's class, a bad id and a missing id", async () => {
    const other = (await t.signedIn('instructor')).cookie;
    expect((await check(other)).statusCode).toBe(403);
    for (const bad of ['abc', '0', '']) {
      const res = await check(cls.instructor.cookie, bad);
      expect(res.statusCode, bad).toBe(400);
      expect(res.json().errors.map((e: { field: string }) => e.field)).toContain('scheduleId');
    }
    expect((await check((await t.signedIn('it_admin')).cookie)).statusCode).toBe(200);
  });

  it('keeps POST /api/qr-sessions as it was, adding the warning to its answer', async () => {
    clock.set('2026-03-03T15:00:00Z'); // a Tuesday: the session still starts
    const off = await start();
    expect(off.statusCode).toBe(201);
    expect(off.json()).toMatchObject({
      scheduleId: cls.scheduleId,
      sessionDate: '2026-03-03',
      status: 'active',
      warning: 'Fundamentals of Nursing A meets on Mondays; today is Tuesday.',
    });
    expect((await end(off.json().sessionId)).statusCode).toBe(200);
    clock.set('2026-03-09T14:05:00Z'); // the next Monday, 08:05 (a week on: an administrator signed in now)
    const admin = (await t.signedIn('it_admin')).cookie;
    const on = await start(admin);
    expect(on.statusCode).toBe(201);
    expect(on.json().warning).toBeNull();
    await end(on.json().sessionId, admin);
  });

  it('warns after the course has ended', async () => {
    clock.set('2026-06-08T14:00:00Z'); // a Monday after the course's last day (sign in again: months have passed)
    const admin = (await t.signedIn('it_admin')).cookie;
    expect((await check(admin)).json().warning).toBe('Fundamentals of Nursing A runs from 2026-01-05 to 2026-06-01; today is outside those dates.');
  });
});
