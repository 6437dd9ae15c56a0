import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INVALID_CREDENTIALS } from '../../../common/auth.ts';
import { fixedClock } from '../../lib/clock.ts';
import { createTestApp, sessionCookie, type TestApp } from '../../test/helpers.ts';

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
  it('offers setup while no user exists, creates the first super_admin and signs them in', async () => {
    expect((await t.app.inject({ url: '/api/setup/status' })).json()).toEqual({ needsSetup: true });
    expect((await t.app.inject({ url: '/api/login' })).headers.location).toBe('/setup');

    const bad = await t.app.inject({ method: 'POST', url: '/api/setup', payload: { ...admin, email: 'nope', password: 'short' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors.map((e: { field: string }) => e.field).sort()).toEqual(['email', 'password']);

    const res = await t.app.inject({ method: 'POST', url: '/api/setup', payload: admin });
    expect(res.statusCode).toBe(201);
    const me = await t.app.inject({ url: '/api/auth/user', headers: { cookie: sessionCookie(res) } });
    expect(me.json()).toMatchObject({ firstName: 'Ada', lastName: 'Admin', email: 'ada@school.edu', role: 'super_admin' });
    expect(Object.keys(me.json()).sort()).toEqual(['email', 'firstName', 'id', 'lastName', 'role']);
  });

  it('refuses setup once a user exists', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/setup', payload: { ...admin, email: 'eve@evil.test' } });
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

  it('answers a wrong password and an unknown e-mail alike, and audits both', async () => {
    const wrong = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: admin.email, password: 'wrong password' } });
    const unknown = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'who@school.edu', password: 'wrong password' } });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json().message).toBe(INVALID_CREDENTIALS);
    expect(unknown.json()).toEqual(wrong.json());
    const failed = (await audit('Login')).filter((r) => r.new_values.outcome === 'failed');
    expect(failed.map((f) => f.new_values.email)).toEqual([admin.email, 'who@school.edu']);
  });

  it('locks an account after five failures in 15 minutes, then lets it in again later', async () => {
    const email = 'locked@school.edu';
    await t.signedIn('it_admin', { email, password: 'the right one' });
    for (let i = 0; i < 5; i++) {
      const r = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password: 'bad' } });
      expect(r.statusCode).toBe(401);
    }
    const locked = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password: 'the right one' } });
    expect(locked.statusCode).toBe(429);
    clock.advance(16 * 60_000);
    const later = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password: 'the right one' } });
    expect(later.statusCode).toBe(200);
  });

  it('GET /api/auth/user without a session is 401 with Unauthorized', async () => {
    const res = await t.app.inject({ url: '/api/auth/user' });
    expect(res.statusCode).toBe(401);
    expect(res.body).toContain('Unauthorized');
  });

  it('ends the session on logout and redirects home', async () => {
    const { cookie } = await t.signedIn('instructor');
    const out = await t.app.inject({ url: '/api/logout', headers: { cookie } });
    expect(out.statusCode).toBe(302);
    expect(out.headers.location).toBe('/');
    expect((await t.app.inject({ url: '/api/auth/user', headers: { cookie } })).statusCode).toBe(401);
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
