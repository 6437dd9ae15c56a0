import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INVALID_CREDENTIALS, SETUP_CODE_WRONG } from '../../../common/auth.ts';
import { fixedClock } from '../../lib/clock.ts';
import { createTestApp, sessionCookie, type TestApp } from '../../test/helpers.ts';
import { createSetupCodeIfNeeded } from './service.ts';

const clock = fixedClock('2026-03-02T15:00:00Z');
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ clock });
});
afterAll(() => t.close());

const admin = { firstName: 'Ada', lastName: 'Admin', email: 'ada@school.edu', password: 'a long passphrase' };

async function audit(action: string) {
  const { rows } = await t.db.execute<{ new_values: Record<string, unknown>; user_id: number | null; ip_address: string }>(
    sql`select new_values, user_id, ip_address from audit_logs where action = ${action} order by id`,
  );
  return rows;
}

describe('first-run setup and sign-in', () => {
  it('offers setup while no user exists, creates the first super_admin with the console’s setup code and signs them in', async () => {
    expect((await t.app.inject({ url: '/api/setup/status' })).json()).toEqual({ needsSetup: true });
    expect((await t.app.inject({ url: '/api/login' })).headers.location).toBe('/setup');
    // Two instances started on the empty database: each printed its own code, and either works.
    const code = await createSetupCodeIfNeeded(t.db);
    const otherInstanceCode = await createSetupCodeIfNeeded(t.db);
    expect(code).toMatch(/^[A-Z2-9]{4}(-[A-Z2-9]{4}){3}$/);
    expect(otherInstanceCode).not.toBe(code);
    // Only hashes are stored.
    const { rows: stored } = await t.db.execute<{ code_hash: string }>(sql`select code_hash from setup_codes`);
    expect(stored).toHaveLength(2);
    expect(JSON.stringify(stored)).not.toContain(code!.replace(/-/g, ''));

    const bad = await t.app.inject({ method: 'POST', url: '/api/setup', payload: { ...admin, setupCode: code, email: 'nope', password: 'short' } });
    expect(bad.statusCode).toBe(400);
    expect(
      bad
        .json()
        .errors.map((e: { field: string }) => e.field)
        .sort(),
    ).toEqual(['email', 'password']);

    const missing = await t.app.inject({ method: 'POST', url: '/api/setup', payload: admin });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().errors).toEqual([{ field: 'setupCode', message: 'Setup code is required' }]);

    const wrong = await t.app.inject({ method: 'POST', url: '/api/setup', payload: { ...admin, setupCode: 'AAAA-BBBB-CCCC-DDDD' } });
    expect(wrong.statusCode).toBe(403);
    expect(wrong.json()).toMatchObject({ message: SETUP_CODE_WRONG, errors: [{ field: 'setupCode', message: SETUP_CODE_WRONG }] });
    expect((await t.app.inject({ url: '/api/setup/status' })).json()).toEqual({ needsSetup: true });

    // Typed as a person might: lower case, spaces for dashes.
    const typed = otherInstanceCode!.toLowerCase().replace(/-/g, ' ');
    const res = await t.app.inject({ method: 'POST', url: '/api/setup', payload: { ...admin, setupCode: typed } });
    expect(res.statusCode).toBe(201);
    const me = await t.app.inject({ url: '/api/auth/user', headers: { cookie: sessionCookie(res) } });
    expect(me.json()).toMatchObject({ firstName: 'Ada', lastName: 'Admin', email: 'ada@school.edu', role: 'super_admin' });
    expect(Object.keys(me.json()).sort()).toEqual(['email', 'firstName', 'id', 'lastName', 'role']);
    // Every code is gone once setup has succeeded, and a restart prints none.
    expect((await t.db.execute(sql`select 1 from setup_codes`)).rows).toHaveLength(0);
    expect(await createSetupCodeIfNeeded(t.db)).toBeNull();
  });

  it('refuses setup once a user exists', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/setup', payload: { ...admin, setupCode: 'AAAA-BBBB-CCCC-DDDD', email: 'eve@evil.test' } });
    expect(res.statusCode).toBe(409);
    const { rows } = await t.db.execute<{ n: number }>(sql`select count(*)::int as n from users`);
    expect(rows[0]!.n).toBe(1);
    expect((await t.app.inject({ url: '/api/login' })).headers.location).toBe('/login');
  });

  it('signs in with an httpOnly SameSite=Lax cookie and records the sign-in', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'ADA@school.edu', password: admin.password } });
    expect(res.statusCode).toBe(200);
    const cookie = res.cookies.find((c) => c.name === 'muster_session')!;
    expect(cookie.httpOnly).toBe(true);
    expect(cookie.sameSite).toBe('Lax');
    const logins = await audit('Login');
    expect(logins.at(-1)!.new_values).toMatchObject({ outcome: 'success' });
  });

  it('answers a wrong password and an unknown e-mail alike, and audits both without storing what was typed', async () => {
    const typedUnknown = 'who.typed.this@school.edu';
    const wrong = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: admin.email, password: 'wrong password' } });
    const unknown = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: typedUnknown, password: 'wrong password' } });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json().message).toBe(INVALID_CREDENTIALS);
    expect(unknown.json()).toEqual(wrong.json());
    const [known, stranger] = (await audit('Login')).filter((r) => r.new_values.outcome === 'failed').slice(-2);
    // A known account: its id only.
    const { rows } = await t.db.execute<{ id: number }>(sql`select id from users where email = ${admin.email}`);
    expect(known).toMatchObject({ user_id: rows[0]!.id, new_values: { outcome: 'failed', reason: 'wrong password' } });
    expect(JSON.stringify(known!.new_values)).not.toContain(admin.email);
    // An unknown e-mail: no identifier at all, anywhere in the audit log.
    expect(stranger).toMatchObject({ user_id: null, new_values: { outcome: 'failed', reason: 'unknown account' } });
    const { rows: anywhere } = await t.db.execute(sql`select 1 from audit_logs a where a::text ilike ${'%who.typed.this%'}`);
    expect(anywhere).toHaveLength(0);
    // Both still count as failed sign-ins in the audit summary.
    const { cookie } = await t.signedIn('super_admin');
    const summary = await t.app.inject({ url: '/api/audit-logs/summary', headers: { cookie } });
    expect(summary.json().failedLoginAttempts24h).toBe(2);
  });

  it('GET /api/auth/user without a session is 401 with Unauthorized', async () => {
    const res = await t.app.inject({ url: '/api/auth/user' });
    expect(res.statusCode).toBe(401);
    expect(res.body).toContain('Unauthorized');
  });

  it('ends the session on a same-origin GET /api/logout and redirects home', async () => {
    const { cookie } = await t.signedIn('instructor');
    const out = await t.app.inject({ url: '/api/logout', headers: { cookie, 'sec-fetch-site': 'same-origin' } });
    expect(out.statusCode).toBe(302);
    expect(out.headers.location).toBe('/');
    expect((await t.app.inject({ url: '/api/auth/user', headers: { cookie } })).statusCode).toBe(401);

    // Typed into the address bar or opened from a bookmark.
    const typed = await t.signedIn('instructor');
    expect((await t.app.inject({ url: '/api/logout', headers: { cookie: typed.cookie, 'sec-fetch-site': 'none' } })).headers.location).toBe('/');
    expect((await t.app.inject({ url: '/api/auth/user', headers: { cookie: typed.cookie } })).statusCode).toBe(401);

    // A browser without Sec-Fetch-Site: its Referer names this host.
    const older = await t.signedIn('instructor');
    const byReferer = await t.app.inject({
      url: '/api/logout',
      headers: { cookie: older.cookie, host: 'muster.school.edu', referer: 'http://muster.school.edu/students' },
    });
    expect(byReferer.headers.location).toBe('/');
    expect((await t.app.inject({ url: '/api/auth/user', headers: { cookie: older.cookie } })).statusCode).toBe(401);
  });

  it('a GET /api/logout from another site does not end the session: it lands on a page that asks first', async () => {
    const { cookie } = await t.signedIn('instructor');
    const attempts: Record<string, string>[] = [
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site' },
      { host: 'muster.school.edu', referer: 'https://evil.example/page' },
      { host: 'muster.school.edu', origin: 'https://evil.example' },
      {}, // no evidence either way
    ];
    for (const headers of attempts) {
      const res = await t.app.inject({ url: '/api/logout', headers: { cookie, ...headers } });
      expect(res.statusCode).toBe(302);
      expect(res.headers.location).toBe('/sign-out');
      expect(res.headers['set-cookie']).toBeUndefined();
      expect((await t.app.inject({ url: '/api/auth/user', headers: { cookie } })).statusCode).toBe(200);
    }
    // The confirm page's button: a same-origin POST.
    const confirm = await t.app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: { cookie, host: 'muster.school.edu', origin: 'http://muster.school.edu' },
    });
    expect(confirm.statusCode).toBe(200);
    expect((await t.app.inject({ url: '/api/auth/user', headers: { cookie } })).statusCode).toBe(401);
    // A cross-site POST cannot do it either.
    const other = await t.signedIn('instructor');
    const forged = await t.app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: { cookie: other.cookie, host: 'muster.school.edu', origin: 'https://evil.example' },
    });
    expect(forged.statusCode).toBe(403);
    expect((await t.app.inject({ url: '/api/auth/user', headers: { cookie: other.cookie } })).statusCode).toBe(200);
  });

  it('expires a session idle longer than sessionTimeoutMinutes, and keeps an active one alive', async () => {
    const { cookie } = await t.signedIn('support_staff');
    clock.advance(50 * 60_000);
    expect((await t.app.inject({ url: '/api/auth/user', headers: { cookie } })).statusCode).toBe(200);
    clock.advance(50 * 60_000); // 100 minutes after sign-in, but only 50 idle
    expect((await t.app.inject({ url: '/api/auth/user', headers: { cookie } })).statusCode).toBe(200);
    clock.advance(61 * 60_000);
    expect((await t.app.inject({ url: '/api/auth/user', headers: { cookie } })).statusCode).toBe(401);
  });

  it('ends a session sessionLifetimeHours after sign-in however active it is, and follows the setting', async () => {
    const { cookie } = await t.signedIn('instructor');
    // Busy all day: a request every 50 minutes keeps it from idling out…
    for (let minutes = 50; minutes < 12 * 60; minutes += 50) {
      clock.advance(50 * 60_000);
      expect((await t.app.inject({ url: '/api/auth/user', headers: { cookie } })).statusCode, `after ${minutes} min`).toBe(200);
    }
    // …but 12 hours (the default) after signing in, it ends.
    clock.advance(12 * 60 * 60_000 - 700 * 60_000 + 1_000);
    expect((await t.app.inject({ url: '/api/auth/user', headers: { cookie } })).statusCode).toBe(401);

    const sa = await t.signedIn('super_admin');
    const put = await t.app.inject({ method: 'PUT', url: '/api/settings', headers: { cookie: sa.cookie }, payload: { security: { sessionLifetimeHours: 2 } } });
    expect(put.statusCode).toBe(200);
    expect(put.json().security.sessionLifetimeHours).toBe(2);
    const short = await t.signedIn('instructor');
    clock.advance(59 * 60_000);
    expect((await t.app.inject({ url: '/api/auth/user', headers: { cookie: short.cookie } })).statusCode).toBe(200);
    clock.advance(59 * 60_000);
    expect((await t.app.inject({ url: '/api/auth/user', headers: { cookie: short.cookie } })).statusCode).toBe(200);
    clock.advance(3 * 60_000);
    expect((await t.app.inject({ url: '/api/auth/user', headers: { cookie: short.cookie } })).statusCode).toBe(401);
  });

  it('signs out a deactivated user at once', async () => {
    const { cookie, userId } = await t.signedIn('it_admin');
    await t.db.execute(sql`update users set is_active = false where id = ${userId}`);
    expect((await t.app.inject({ url: '/api/auth/user', headers: { cookie } })).statusCode).toBe(401);
  });

  it('sets strict security headers', async () => {
    const res = await t.app.inject({ url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json().database.status).toBe('healthy');
    expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['cache-control']).toBe('no-store');
  });
});
