import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../lib/clock.ts';
import { createTestApp, sessionCookie, type TestApp } from '../../test/helpers.ts';

const clock = fixedClock('2026-03-02T15:00:00Z');
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ clock });
});
afterAll(() => t.close());

const FIREFOX_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0';
const SAFARI_IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const PASSWORD = 'correct horse battery';

type Listed = { id: string; current: boolean; createdAt: string; lastSeenAt: string; expiresAt: string; ipAddress: string | null; browser: string };

async function signInFrom(email: string, userAgent: string, address: string) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    remoteAddress: address,
    headers: { 'user-agent': userAgent },
    payload: { email, password: PASSWORD },
  });
  expect(res.statusCode).toBe(200);
  return sessionCookie(res);
}

const list = async (cookie: string) => {
  const res = await t.app.inject({ url: '/api/auth/sessions', headers: { cookie } });
  expect(res.statusCode).toBe(200);
  return res.json() as Listed[];
};
const whoAmI = async (cookie: string) => (await t.app.inject({ url: '/api/auth/user', headers: { cookie } })).statusCode;

describe('your sessions', () => {
  it('lists your own sessions in force, the current one marked, with opaque ids that are never the session key', async () => {
    const { email, cookie: helperSession } = await t.signedIn('support_staff');
    const laptop = await signInFrom(email, FIREFOX_WINDOWS, '192.0.2.10');
    clock.advance(5 * 60_000);
    const phone = await signInFrom(email, SAFARI_IPHONE, '198.51.100.7');
    await t.signedIn('instructor'); // someone else's session never shows up
    // An ended session is not listed.
    expect((await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: { cookie: helperSession } })).statusCode).toBe(200);

    const sessions = await list(phone);
    expect(sessions).toHaveLength(2);
    const [current, other] = sessions;
    expect(current).toMatchObject({ current: true, browser: 'Safari on iOS', ipAddress: '198.51.100.7', createdAt: '2026-03-02T15:05:00.000Z' });
    expect(other).toMatchObject({ current: false, browser: 'Firefox on Windows', ipAddress: '192.0.2.10', createdAt: '2026-03-02T15:00:00.000Z' });
    expect(other!.expiresAt).toBe('2026-03-03T03:00:00.000Z'); // 12 hours, the default lifetime
    expect(Object.keys(current!).sort()).toEqual(['browser', 'createdAt', 'current', 'expiresAt', 'id', 'ipAddress', 'lastSeenAt']);

    const { rows } = await t.db.execute<{ id: string }>(sql`select id from login_sessions`);
    const token = phone.split('=')[1]!;
    for (const s of sessions) {
      expect(s.id).toMatch(/^[0-9a-f]{32}$/);
      for (const r of rows) expect(r.id).not.toContain(s.id);
      expect(s.id).not.toBe(token);
      expect(createHash('sha256').update(token).digest('hex')).not.toContain(s.id);
    }
    // The laptop sees the same two, itself marked.
    expect((await list(laptop)).map((s) => [s.browser, s.current])).toEqual([
      ['Safari on iOS', false],
      ['Firefox on Windows', true],
    ]);
  });

  it('ends one of your own sessions; another user’s id is 404 and changes nothing', async () => {
    const me = await t.signedIn('it_admin');
    const mine = await signInFrom(me.email, FIREFOX_WINDOWS, '192.0.2.20');
    const them = await t.signedIn('instructor');
    const theirId = (await list(them.cookie))[0]!.id;

    const cross = await t.app.inject({ method: 'DELETE', url: `/api/auth/sessions/${theirId}`, headers: { cookie: me.cookie } });
    expect(cross.statusCode).toBe(404);
    expect(await whoAmI(them.cookie)).toBe(200);

    const malformed = await t.app.inject({ method: 'DELETE', url: '/api/auth/sessions/not-an-id', headers: { cookie: me.cookie } });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().errors[0].field).toBe('id');

    const target = (await list(me.cookie)).find((s) => !s.current)!;
    const res = await t.app.inject({ method: 'DELETE', url: `/api/auth/sessions/${target.id}`, headers: { cookie: me.cookie } });
    expect(res.statusCode).toBe(200);
    expect(await whoAmI(mine)).toBe(401);
    expect(await whoAmI(me.cookie)).toBe(200);
    expect(await list(me.cookie)).toHaveLength(1);
    // Ending it twice finds nothing.
    expect((await t.app.inject({ method: 'DELETE', url: `/api/auth/sessions/${target.id}`, headers: { cookie: me.cookie } })).statusCode).toBe(404);

    const { rows } = await t.db.execute<{ user_id: number; table_name: string }>(
      sql`select user_id, table_name from audit_logs where action = 'Logout' order by id desc limit 1`,
    );
    expect(rows[0]).toEqual({ user_id: me.userId, table_name: 'login_sessions' });
  });

  it('ending your current session signs this browser out', async () => {
    const me = await t.signedIn('instructor');
    const [current] = await list(me.cookie);
    const res = await t.app.inject({ method: 'DELETE', url: `/api/auth/sessions/${current!.id}`, headers: { cookie: me.cookie } });
    expect(res.statusCode).toBe(200);
    expect(res.cookies.find((c) => c.name === 'muster_session')?.value).toBe('');
    expect(await whoAmI(me.cookie)).toBe(401);
  });

  it('ends every other session and keeps this one', async () => {
    const me = await t.signedIn('super_admin');
    const others = [await signInFrom(me.email, FIREFOX_WINDOWS, '192.0.2.30'), await signInFrom(me.email, SAFARI_IPHONE, '192.0.2.31')];
    const bystander = await t.signedIn('super_admin');
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/sessions/end-others', headers: { cookie: me.cookie } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ended: 2 });
    for (const c of others) expect(await whoAmI(c)).toBe(401);
    expect(await whoAmI(me.cookie)).toBe(200);
    expect(await whoAmI(bystander.cookie)).toBe(200);
    expect((await list(me.cookie)).map((s) => s.current)).toEqual([true]);
  });

  it('keeps at most ten sessions per user: the twelfth sign-in leaves ten, and the oldest cookies stop working', async () => {
    const me = await t.signedIn('support_staff'); // sign-in 1
    const cookies = [me.cookie];
    for (let i = 2; i <= 12; i++) {
      clock.advance(1000);
      cookies.push(await signInFrom(me.email, i % 2 ? FIREFOX_WINDOWS : SAFARI_IPHONE, '192.0.2.40'));
    }
    const open = await t.db.execute<{ n: number }>(sql`select count(*)::int as n from login_sessions where user_id = ${me.userId} and ended_at is null`);
    expect(open.rows[0]!.n).toBe(10);
    expect(await whoAmI(cookies[0]!)).toBe(401);
    expect(await whoAmI(cookies[1]!)).toBe(401);
    for (const c of cookies.slice(2)) expect(await whoAmI(c)).toBe(200);
    expect(await list(cookies[11]!)).toHaveLength(10);
    // Another user's sessions are not touched.
    const other = await t.signedIn('support_staff');
    expect(await whoAmI(other.cookie)).toBe(200);
    expect(await whoAmI(cookies[2]!)).toBe(200);
  });

  it('is for signed-in users only', async () => {
    expect((await t.app.inject({ url: '/api/auth/sessions' })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'POST', url: '/api/auth/sessions/end-others' })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'DELETE', url: `/api/auth/sessions/${'a'.repeat(32)}` })).statusCode).toBe(401);
  });
});
