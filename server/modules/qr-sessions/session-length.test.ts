import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXTEND_LIMIT, SESSION_HAS_EXPIRED, SESSION_WAS_ENDED } from '../../../common/qr-sessions.ts';
import { schedules } from '../../db/schema/index.ts';
import { auditEntries, createTestApp, fixedClock, type TestApp } from '../../test/helpers.ts';
import { seedClass, type TestClass } from '../attendance/test-support.ts';

// A session lasts its class (docs/decisions/042): with the default 30-minute
// qrCodeExpirationMinutes, a 3-hour class's session closed 20 minutes in and latecomers could not
// check in. Now it stays open to the end of class plus 15 minutes; one started off schedule keeps
// the setting's length; the instructor can extend it, within bounds, audited.

// Monday 2 March 2026 in Chicago (UTC−6): class A meets 08:00–11:00 (3 hours), class B 08:00–12:00.
const clock = fixedClock('2026-03-02T13:50:00Z');
let t: TestApp;
let a: TestClass;
let b: TestClass;

beforeAll(async () => {
  t = await createTestApp({ clock });
  a = await seedClass(t, 3, 'A');
  b = await seedClass(t, 1, 'B');
  await t.db.update(schedules).set({ endTime: '11:00' }).where(eq(schedules.id, a.scheduleId));
  const sa = (await t.signedIn('super_admin')).cookie;
  // The clock crosses into Tuesday: keep the staff signed in meanwhile.
  await t.app.inject({ method: 'PUT', url: '/api/settings', headers: { cookie: sa }, payload: { security: { sessionLifetimeHours: 168 } } });
});
afterAll(() => t?.close());

const at = (iso: string) => clock.set(iso);
const start = (cls: TestClass, cookie = cls.instructor.cookie) =>
  t.app.inject({ method: 'POST', url: '/api/qr-sessions', headers: { cookie }, payload: { scheduleId: cls.scheduleId } });
const extend = (ref: string | number, cookie: string, payload: unknown = { minutes: 15 }) =>
  t.app.inject({ method: 'POST', url: `/api/qr-sessions/${ref}/extend`, headers: { cookie }, payload: payload as Record<string, unknown> });
const end = (ref: string, cookie: string) => t.app.inject({ method: 'PUT', url: `/api/qr-sessions/${ref}/deactivate`, headers: { cookie } });
const staffRead = (ref: string, cookie: string) => t.app.inject({ url: `/api/qr-sessions/${ref}`, headers: { cookie } });
const publicRead = async (sessionId: string) => (await t.app.inject({ url: `/api/qr-sessions/public/${sessionId}` })).json();
const activeIds = async (cookie: string) =>
  ((await t.app.inject({ url: '/api/qr-sessions/active', headers: { cookie } })).json() as { sessionId: string }[]).map((s) => s.sessionId);
const minutesLeft = (s: { expiresAt: string }) => (Date.parse(s.expiresAt) - clock.now().getTime()) / 60_000;

describe('a session started for its class', () => {
  let sessionId = '';

  it('stays open all class: a latecomer checks in 2 hours after the start, an early leaver checks out', async () => {
    at('2026-03-02T14:00:00Z'); // 08:00, the start of class
    const started = await start(a);
    expect(started.statusCode, started.body).toBe(201);
    expect(started.json()).toMatchObject({ warning: null, status: 'active', closed: null, expiresAt: '2026-03-02T17:15:00.000Z' }); // 11:00 + 15 min
    sessionId = started.json().sessionId;
    const created = (await auditEntries(t.db, 'qr_sessions')).at(-1)!;
    expect(created).toMatchObject({ action: 'Create', new_values: { lasts: 'class', expiresAt: '2026-03-02T17:15:00.000Z' } });

    at('2026-03-02T16:00:00Z'); // 10:00: two hours in (the old 30-minute session closed at 08:30)
    expect(await activeIds(a.instructor.cookie)).toContain(sessionId);
    expect(await publicRead(sessionId)).toMatchObject({ status: 'active', closed: null, expiresAt: '2026-03-02T17:15:00.000Z' });
    const late = await a.scan(sessionId, a.students[0]!, { ip: '10.0.0.10' });
    expect(late.res.statusCode, late.res.body).toBe(200);
    expect(late.res.json()).toMatchObject({ action: 'checked_in', status: 'late' });

    at('2026-03-02T16:30:00Z'); // 10:30: leaving half an hour early
    const leaving = await a.scan(sessionId, a.students[0]!, { ip: '10.0.0.10', device: late.device }, { intent: 'check-out', confirm: true });
    expect(leaving.res.statusCode, leaving.res.body).toBe(200);
    expect(leaving.res.json()).toMatchObject({ action: 'checked_out', status: 'incomplete' });
  });

  it('takes check-outs after the end of class, and closes 15 minutes after it', async () => {
    const early = await a.scan(sessionId, a.students[1]!, { ip: '10.0.0.11' });
    expect(early.res.json()).toMatchObject({ action: 'checked_in' });
    at('2026-03-02T17:10:00Z'); // 11:10, ten minutes after the end
    expect(await publicRead(sessionId)).toMatchObject({ status: 'expiring', closed: null });
    const out = await a.scan(sessionId, a.students[1]!, { ip: '10.0.0.11', device: early.device }, { intent: 'check-out' });
    expect(out.res.json()).toMatchObject({ action: 'checked_out' });

    at('2026-03-02T17:15:00Z'); // 11:15: closed
    expect(await publicRead(sessionId)).toMatchObject({ status: 'expired', closed: 'expired' });
    expect((await a.submit(sessionId, a.students[2]!, { ip: '10.0.0.12' }, { token: 'x' })).statusCode).toBe(410);
    expect(await activeIds(a.instructor.cookie)).not.toContain(sessionId);
    expect((await staffRead(sessionId, a.instructor.cookie)).json()).toMatchObject({ status: 'expired', closed: 'expired' });
    // A closed session is not reopened by an extension.
    const late = await extend(sessionId, a.instructor.cookie);
    expect(late.statusCode).toBe(410);
    expect(late.json()).toMatchObject({ code: 'SESSION_EXPIRED', message: SESSION_HAS_EXPIRED });
  });
});

describe('a session started off schedule', () => {
  it('keeps qrCodeExpirationMinutes (30): after class, and on a day the class does not meet', async () => {
    at('2026-03-02T17:20:00Z'); // 11:20, after class A
    const after = await start(a);
    expect(after.statusCode).toBe(201);
    expect(after.json().warning).toBe('Fundamentals of Nursing A meets from 08:00 to 11:00; it is 11:20 now.');
    expect(minutesLeft(after.json())).toBe(30);
    expect((await auditEntries(t.db, 'qr_sessions')).at(-1)!.new_values).toMatchObject({ lasts: 'unscheduled' });
    expect((await end(after.json().sessionId, a.instructor.cookie)).statusCode).toBe(200);
  });

  it('never closes sooner than the setting: started 10 minutes before the end of class', async () => {
    at('2026-03-02T17:50:00Z'); // 11:50: class B ends at 12:00, plus 15 is 12:15; 30 minutes is 12:20
    const started = await start(b);
    expect(started.json()).toMatchObject({ warning: null, expiresAt: '2026-03-02T18:20:00.000Z' });
  });
});

describe('Extend', () => {
  it('keeps an open session open longer, audited; bounded per call and to 12 hours after its start', async () => {
    const [open] = (await t.app.inject({ url: '/api/qr-sessions/active', headers: { cookie: b.instructor.cookie } })).json() as {
      sessionId: string;
      id: number;
    }[];
    at('2026-03-02T18:16:00Z'); // 12:16: four minutes left
    expect(await publicRead(open!.sessionId)).toMatchObject({ status: 'expiring' });
    const res = await extend(open!.sessionId, b.instructor.cookie);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ sessionId: open!.sessionId, status: 'active', closed: null, expiresAt: '2026-03-02T18:35:00.000Z' });
    expect(await publicRead(open!.sessionId)).toMatchObject({ status: 'active', expiresAt: '2026-03-02T18:35:00.000Z' });
    const audit = (await auditEntries(t.db, 'qr_sessions')).at(-1)!;
    expect(audit).toMatchObject({
      action: 'Update',
      record_id: String(open!.id),
      user_id: b.instructor.userId,
      old_values: { expiresAt: '2026-03-02T18:20:00.000Z' },
      new_values: { expiresAt: '2026-03-02T18:35:00.000Z', extendedByMinutes: 15 },
    });
    // The numeric id works as for the other staff routes; an administrator may extend it too.
    expect((await extend(open!.id, b.admin, { minutes: 5 })).json().expiresAt).toBe('2026-03-02T18:40:00.000Z');

    for (const bad of [{ minutes: 0 }, { minutes: 61 }, { minutes: 1.5 }, { minutes: '15' }, {}]) {
      const refused = await extend(open!.sessionId, b.instructor.cookie, bad);
      expect(refused.statusCode, JSON.stringify(bad)).toBe(400);
      expect(refused.json().errors.map((e: { field: string }) => e.field)).toContain('minutes');
    }
    // Started 11:50 (17:50Z): open at most until 05:50Z the next day, however it is extended.
    for (let i = 0; i < 11; i++) expect((await extend(open!.sessionId, b.instructor.cookie, { minutes: 60 })).statusCode).toBe(200);
    const over = await extend(open!.sessionId, b.instructor.cookie, { minutes: 60 });
    expect(over.statusCode).toBe(409);
    expect(over.json()).toMatchObject({ code: 'EXTEND_LIMIT', message: EXTEND_LIMIT });
    expect((await extend(open!.sessionId, b.instructor.cookie, { minutes: 10 })).json().expiresAt).toBe('2026-03-03T05:50:00.000Z');
    expect((await extend(open!.sessionId, b.instructor.cookie, { minutes: 1 })).statusCode).toBe(409);
    const extensions = (await auditEntries(t.db, 'qr_sessions')).filter((e) => e.record_id === String(open!.id) && e.new_values?.extendedByMinutes != null);
    expect(extensions).toHaveLength(1 + 1 + 11 + 1);
  });

  it('is refused to another instructor, to support staff, and for a session that does not exist', async () => {
    const [open] = (await t.app.inject({ url: '/api/qr-sessions/active', headers: { cookie: b.instructor.cookie } })).json() as {
      sessionId: string;
      expiresAt: string;
    }[];
    const other = await extend(open!.sessionId, a.instructor.cookie);
    expect(other.statusCode).toBe(403);
    expect((await staffRead(open!.sessionId, a.instructor.cookie)).statusCode).toBe(403);
    expect((await extend(open!.sessionId, (await t.signedIn('support_staff')).cookie)).statusCode).toBe(403);
    expect((await extend('00000000-0000-0000-0000-000000000000', b.admin)).statusCode).toBe(404);
    expect((await staffRead(open!.sessionId, b.instructor.cookie)).json().expiresAt).toBe(open!.expiresAt);
    // The one-session read does not shadow the fixed paths beside it, whatever their spelling.
    for (const path of ['/api/qr-sessions/active', '/API/QR-Sessions/Active', `/api/qr-sessions/start-check?scheduleId=${b.scheduleId}`]) {
      const res = await t.app.inject({ url: path, headers: { cookie: b.instructor.cookie } });
      expect(res.statusCode, path).toBe(200);
      expect(res.json().closed, path).toBeUndefined();
    }
  });

  it('says a session the instructor ended was ended, not expired', async () => {
    const [open] = (await t.app.inject({ url: '/api/qr-sessions/active', headers: { cookie: b.instructor.cookie } })).json() as { sessionId: string }[];
    const ended = await end(open!.sessionId, b.instructor.cookie);
    expect(ended.json()).toMatchObject({ status: 'expired', closed: 'ended' }); // SPEC's status stays
    expect(await publicRead(open!.sessionId)).toMatchObject({ status: 'expired', closed: 'ended' });
    expect((await staffRead(open!.sessionId, b.instructor.cookie)).json()).toMatchObject({ closed: 'ended' });
    const refused = await extend(open!.sessionId, b.instructor.cookie);
    expect(refused.statusCode).toBe(410);
    expect(refused.json()).toMatchObject({ code: 'SESSION_ENDED', message: SESSION_WAS_ENDED });
    const image = await t.app.inject({ url: `/api/qr-sessions/${open!.sessionId}/qr-image`, headers: { cookie: b.instructor.cookie } });
    expect(image.json()).toMatchObject({ code: 'SESSION_ENDED' });
  });
});

describe('a session started on a day the class does not meet', () => {
  it('keeps qrCodeExpirationMinutes', async () => {
    at('2026-03-03T15:00:00Z'); // Tuesday 09:00
    const started = await start(a);
    expect(started.json().warning).toBe('Fundamentals of Nursing A meets on Mondays; today is Tuesday.');
    expect(minutesLeft(started.json())).toBe(30);
  });
});
