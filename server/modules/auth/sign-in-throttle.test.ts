import type { LightMyRequestResponse } from 'fastify';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INVALID_CREDENTIALS } from '../../../common/auth.ts';
import { fixedClock } from '../../lib/clock.ts';
import { createTestApp, type TestApp } from '../../test/helpers.ts';
import { SIGN_IN_LIMITS } from './sign-in-throttle.ts';

// Mid-window, so a test's attempts never straddle a 15-minute window boundary by accident.
const clock = fixedClock('2026-03-02T15:05:00Z');
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ clock });
});
afterAll(() => t.close());

const RIGHT = 'the right passphrase';

function login(email: string, password: string, from: string, deviceCookie?: string) {
  return t.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    remoteAddress: from,
    payload: { email, password },
    headers: deviceCookie ? { cookie: deviceCookie } : {},
  });
}

function deviceCookieOf(res: LightMyRequestResponse): string {
  const c = res.cookies.find((x) => x.name === 'muster_known_browser');
  if (!c) throw new Error('no device cookie set');
  return `muster_known_browser=${c.value}`;
}

async function failedLoginAudits(): Promise<number> {
  const { rows } = await t.db.execute<{ n: number }>(
    sql`select count(*)::int as n from audit_logs where action = 'Login' and new_values->>'outcome' = 'failed'`,
  );
  return rows[0]!.n;
}

async function account(): Promise<string> {
  const { email } = await t.signedIn('instructor', { password: RIGHT });
  return email;
}

describe('sign-in throttling per account and address', () => {
  it('20 concurrent wrong guesses against a pair limit of 5: exactly 5 are verified, the rest get 429 with Retry-After', async () => {
    const email = await account();
    const before = await failedLoginAudits();
    const answers = await Promise.all(Array.from({ length: 20 }, () => login(email, 'a wrong guess', '10.1.0.1')));
    const statuses = answers.map((r) => r.statusCode).sort();
    expect(statuses.filter((s) => s === 401)).toHaveLength(SIGN_IN_LIMITS.pairAttempts);
    expect(statuses.filter((s) => s === 429)).toHaveLength(20 - SIGN_IN_LIMITS.pairAttempts);
    // Only the verified guesses were recorded as failures.
    expect((await failedLoginAudits()) - before).toBe(SIGN_IN_LIMITS.pairAttempts);
    const refused = answers.find((r) => r.statusCode === 429)!;
    const wait = Number(refused.headers['retry-after']);
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(15 * 60);
    expect(refused.json().message).toMatch(/^Too many sign-in attempts\. Please wait \d+ minutes? and try again\.$/);
  });

  it('refuses only that pair: the same account signs in from another address, and from the first once the window has passed', async () => {
    const email = await account();
    for (let i = 0; i < 5; i++) expect((await login(email, 'wrong', '10.2.0.1')).statusCode).toBe(401);
    expect((await login(email, RIGHT, '10.2.0.1')).statusCode).toBe(429);
    expect((await login(email, RIGHT, '10.2.0.2')).statusCode).toBe(200);
    clock.advance(15 * 60_000);
    expect((await login(email, RIGHT, '10.2.0.1')).statusCode).toBe(200);
  });

  it('a success clears the pair: the next typos start from zero', async () => {
    const email = await account();
    for (let i = 0; i < 4; i++) expect((await login(email, 'wrong', '10.3.0.1')).statusCode).toBe(401);
    expect((await login(email, RIGHT, '10.3.0.1')).statusCode).toBe(200);
    for (let i = 0; i < 4; i++) expect((await login(email, 'wrong', '10.3.0.1')).statusCode).toBe(401);
    expect((await login(email, RIGHT, '10.3.0.1')).statusCode).toBe(200);
  });

  it('an unknown e-mail is throttled exactly like a real one, so 429s do not reveal which accounts exist', async () => {
    const real = await account();
    const answers = async (email: string, from: string) => {
      const out: number[] = [];
      for (let i = 0; i < 7; i++) out.push((await login(email, 'wrong', from)).statusCode);
      return out;
    };
    const known = await answers(real, '10.4.0.1');
    const unknown = await answers('nobody.here@school.edu', '10.4.0.2');
    expect(unknown).toEqual(known);
    expect(known).toEqual([401, 401, 401, 401, 401, 429, 429]);
  });

  it('after 50 failures from one address for other accounts, a different user behind the same address still signs in', async () => {
    const campus = '10.5.0.1';
    const others = await Promise.all(Array.from({ length: 10 }, () => account()));
    for (const email of others) {
      for (let i = 0; i < 5; i++) expect((await login(email, 'wrong', campus)).statusCode).toBe(401);
    }
    // 50 failures from the campus address in this window; the old limit locked everyone behind it.
    const colleague = await account();
    expect((await login(colleague, RIGHT, campus)).statusCode).toBe(200);
  });

  it('a busy address slows unknown browsers down to a few attempts a minute, rather than locking them out', async () => {
    const campus = '10.6.0.1';
    const others = await Promise.all(Array.from({ length: 10 }, () => account()));
    for (const email of others) {
      for (let i = 0; i < 5; i++) expect((await login(email, 'wrong', campus)).statusCode).toBe(401);
    }
    // Password spraying goes on: past the address's threshold only a few attempts a minute are verified.
    const sprayed = await Promise.all(Array.from({ length: 5 }, () => account()));
    const statuses: number[] = [];
    for (const email of sprayed) {
      for (let i = 0; i < 5; i++) statuses.push((await login(email, 'wrong', campus)).statusCode);
    }
    expect(statuses.filter((s) => s === 401)).toHaveLength(SIGN_IN_LIMITS.slowAddressAttempts);
    expect(statuses.slice(SIGN_IN_LIMITS.slowAddressAttempts).every((s) => s === 429)).toBe(true);
    // A colleague on a new browser waits under a minute, then signs in.
    const colleague = await account();
    const slowed = await login(colleague, RIGHT, campus);
    expect(slowed.statusCode).toBe(429);
    expect(Number(slowed.headers['retry-after'])).toBeLessThanOrEqual(60);
    clock.advance(60_000);
    expect((await login(colleague, RIGHT, campus)).statusCode).toBe(200);
  });

  it('after many failures from elsewhere, the real user’s known browser signs in with the right password', async () => {
    const email = await account();
    // The real user signed in from this browser before: it holds a device cookie.
    const first = await login(email, RIGHT, '10.7.0.1');
    expect(first.statusCode).toBe(200);
    const device = deviceCookieOf(first);

    // An attack from 30 addresses, 5 guesses each, including the user's own address (another browser).
    const statuses: number[] = [];
    for (let a = 1; a <= 30; a++) {
      for (let i = 0; i < 5; i++) statuses.push((await login(email, 'guess', a === 1 ? '10.7.0.1' : `10.8.0.${a}`)).statusCode);
    }
    // Past the account's threshold, unknown browsers were slowed to a trickle.
    expect(statuses.filter((s) => s === 401).length).toBe(SIGN_IN_LIMITS.accountFailures + SIGN_IN_LIMITS.slowAccountAttempts);

    // An unknown browser with the right password is slowed (told to come back within a minute)…
    const stranger = await login(email, RIGHT, '10.9.0.1');
    expect(stranger.statusCode).toBe(429);
    expect(Number(stranger.headers['retry-after'])).toBeLessThanOrEqual(60);
    // …but the known browser gets in, from its usual address and from a new one.
    expect((await login(email, RIGHT, '10.7.0.1', device)).statusCode).toBe(200);
    expect((await login(email, RIGHT, '10.9.9.9', device)).statusCode).toBe(200);
  });

  it('a device cookie counts only for the account it was given to', async () => {
    const owner = await account();
    const other = await account();
    const device = deviceCookieOf(await login(owner, RIGHT, '10.10.0.1'));
    for (let a = 1; a <= 5; a++) {
      for (let i = 0; i < 5; i++) await login(other, 'guess', `10.11.0.${a}`);
    }
    // 25 failures on `other`: the owner's browser is unknown to `other`, so it is slowed like any other.
    const tries = [await login(other, 'guess', '10.10.0.1', device), await login(other, RIGHT, '10.10.0.1', device)];
    expect(tries.map((r) => r.statusCode)).toEqual([429, 429]);
    // The owner's own account is untouched by it.
    expect((await login(owner, RIGHT, '10.10.0.1', device)).statusCode).toBe(200);
  });

  it('a known browser’s own wrong guesses are still limited, to 5 per 15 minutes', async () => {
    const email = await account();
    const device = deviceCookieOf(await login(email, RIGHT, '10.12.0.1'));
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) statuses.push((await login(email, 'wrong', '10.12.0.1', device)).statusCode);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429]);
  });

  it('sets the device cookie httpOnly, SameSite=Lax and long-lived, and keeps one per account for a shared browser', async () => {
    const a = await account();
    const b = await account();
    const first = await login(a, RIGHT, '10.13.0.1');
    const c = first.cookies.find((x) => x.name === 'muster_known_browser')!;
    expect(c.httpOnly).toBe(true);
    expect(c.sameSite).toBe('Lax');
    expect(c.maxAge).toBeGreaterThan(300 * 24 * 3600);
    const second = await login(b, RIGHT, '10.13.0.1', deviceCookieOf(first));
    const shared = deviceCookieOf(second);
    // The browser now holds a token for each account; the database holds only their hashes.
    expect(shared.split('=')[1]!.split('.')).toHaveLength(2);
    const { rows } = await t.db.execute<{ id: string }>(sql`select id from known_devices`);
    for (const token of shared.split('=')[1]!.split('.')) expect(rows.map((r) => r.id)).not.toContain(token);
    expect((await login(a, RIGHT, '10.13.0.2', shared)).json()).toEqual({ ok: true });
  });

  it('answers a throttled wrong password and a throttled right one alike', async () => {
    const email = await account();
    for (let i = 0; i < 5; i++) await login(email, 'wrong', '10.14.0.1');
    const wrong = await login(email, 'wrong', '10.14.0.1');
    const right = await login(email, RIGHT, '10.14.0.1');
    expect(wrong.statusCode).toBe(429);
    expect(right.json()).toEqual(wrong.json());
    expect(right.json().message).not.toBe(INVALID_CREDENTIALS);
  });
});
