import { sql } from 'drizzle-orm';
import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEntries, createTestApp, fixedClock, sessionCookie, type TestApp } from '../../test/helpers.ts';
import { insertUser } from './service.ts';

const clock = fixedClock('2026-11-24T15:00:00Z');
let t: TestApp;
let superAdmin: string;
beforeAll(async () => {
  t = await createTestApp({ clock });
  superAdmin = (await t.signedIn('super_admin')).cookie;
});
afterAll(() => t.close());

const setSecurity = (security: Record<string, unknown>) =>
  t.app
    .inject({ method: 'PUT', url: '/api/settings', headers: { cookie: superAdmin }, payload: { security } })
    .then((r) => expect(r.statusCode, r.body).toBe(200));
let n = 0;
const newUser = async (role: 'instructor' | 'it_admin' = 'instructor') => {
  const email = `person${++n}@school.test`;
  const password = 'correct horse battery';
  const id = await insertUser(t.db, { email, password, role, firstName: 'Pat', lastName: 'Lee' });
  return { id, email, password };
};
const signIn = async (u: { email: string; password: string }) => {
  const res = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: u.email, password: u.password } });
  expect(res.statusCode, res.body).toBe(200);
  return sessionCookie(res);
};
const me = async (cookie: string) => {
  const body = (await t.app.inject({ url: '/api/auth/user', headers: { cookie } })).json();
  return { ...body, pendingStep: body.pendingStep ?? null };
};
const post = (cookie: string, url: string, payload?: object) => t.app.inject({ method: 'POST', url, headers: { cookie }, payload });
const codeAt = (secret: string, at = clock.now()) => generate({ secret, epoch: Math.floor(at.getTime() / 1000) });

/** Sign in and enrol; returns the cookie, the secret and the recovery codes. */
async function enrol(u: { email: string; password: string }) {
  const cookie = await signIn(u);
  const started = await post(cookie, '/api/auth/two-factor/enrolment');
  expect(started.statusCode, started.body).toBe(200);
  const { secret } = started.json();
  const confirmed = await post(cookie, '/api/auth/two-factor/enrolment/confirm', { code: await codeAt(secret) });
  expect(confirmed.statusCode, confirmed.body).toBe(200);
  return { cookie, secret: secret as string, recoveryCodes: confirmed.json().recoveryCodes as string[] };
}

describe('two-factor authentication', () => {
  it('asks nothing more while the policy is off and the account has not enrolled', async () => {
    const u = await newUser();
    const cookie = await signIn(u);
    expect((await me(cookie)).pendingStep).toBeNull();
    expect((await t.app.inject({ url: '/api/students', headers: { cookie } })).statusCode).toBe(200);
  });

  it('with the policy on, a sign-in must enrol first and reaches nothing else until it has', async () => {
    await setSecurity({ twoFactorAuthentication: true });
    const u = await newUser('it_admin');
    const cookie = await signIn(u);
    expect(await me(cookie)).toMatchObject({ email: u.email, pendingStep: 'totp_enrol' });
    for (const url of ['/api/students', '/api/users', '/api/settings', '/api/dashboard/real-time', '/api/auth/sessions']) {
      const res = await t.app.inject({ url, headers: { cookie } });
      expect(res.statusCode, url).toBe(403);
      expect(res.json()).toMatchObject({ code: 'SIGN_IN_STEP_REQUIRED', step: 'totp_enrol' });
    }
    // Nor the other step's routes.
    expect((await post(cookie, '/api/auth/two-factor/verify', { code: '123456' })).statusCode).toBe(403);

    const started = await post(cookie, '/api/auth/two-factor/enrolment');
    expect(started.statusCode).toBe(200);
    const { secret, otpauthUri, qrCodeDataUrl } = started.json();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(otpauthUri).toBe(`otpauth://totp/Muster:${encodeURIComponent(u.email)}?secret=${secret}&issuer=Muster`);
    expect(qrCodeDataUrl).toMatch(/^data:image\/png;base64,/);
    // The secret is stored encrypted, never in clear.
    const stored = (await t.db.execute<{ s: string }>(sql`select totp_secret_encrypted as s from users where id = ${u.id}`)).rows[0]!.s;
    expect(stored).not.toContain(secret);

    const wrong = await post(cookie, '/api/auth/two-factor/enrolment/confirm', { code: '000000' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().errors).toEqual([{ field: 'code', message: expect.stringContaining('not right') }]);
    const ok = await post(cookie, '/api/auth/two-factor/enrolment/confirm', { code: await codeAt(secret) });
    expect(ok.statusCode, ok.body).toBe(200);
    const codes: string[] = ok.json().recoveryCodes;
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const c of codes) expect(c).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
    const hashes = (await t.db.execute<{ code_hash: string }>(sql`select code_hash from user_recovery_codes where user_id = ${u.id}`)).rows;
    expect(hashes).toHaveLength(10);
    expect(hashes.map((h) => h.code_hash)).not.toContain(codes[0]);
    expect((await me(cookie)).pendingStep).toBeNull();
    expect((await t.app.inject({ url: '/api/users', headers: { cookie } })).statusCode).toBe(200);
    expect(
      (await auditEntries(t.db, 'users')).some((e) => e.record_id === String(u.id) && (e.new_values as { twoFactor?: string }).twoFactor === 'enrolled'),
    ).toBe(true);
  });

  it('asks an enrolled account for a code at each sign-in; refuses a wrong one and a replayed one', async () => {
    const u = await newUser();
    const { secret } = await enrol(u);
    clock.advance(60_000);
    const cookie = await signIn(u);
    expect((await me(cookie)).pendingStep).toBe('totp');
    expect((await t.app.inject({ url: '/api/students', headers: { cookie } })).statusCode).toBe(403);
    expect((await post(cookie, '/api/auth/two-factor/verify', { code: '999999' })).statusCode).toBe(400);
    const code = await codeAt(secret);
    const ok = await post(cookie, '/api/auth/two-factor/verify', { code });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toEqual({ pendingStep: null });
    expect((await t.app.inject({ url: '/api/students', headers: { cookie } })).statusCode).toBe(200);
    // Someone who saw that code over the shoulder cannot use it within its window.
    const other = await signIn(u);
    const replay = await post(other, '/api/auth/two-factor/verify', { code });
    expect(replay.statusCode).toBe(400);
    expect(replay.json().message).toContain('just used');
    // A code from the previous 30-second step is still fine (a slow typist); two steps back is not.
    clock.advance(30_000);
    expect((await post(other, '/api/auth/two-factor/verify', { code: await codeAt(secret, new Date(clock.now().getTime() - 90_000)) })).statusCode).toBe(400);
    expect((await post(other, '/api/auth/two-factor/verify', { code: await codeAt(secret) })).statusCode).toBe(200);
  });

  it('takes each recovery code once', async () => {
    const u = await newUser();
    const { recoveryCodes } = await enrol(u);
    const first = await signIn(u);
    expect((await post(first, '/api/auth/two-factor/verify', { code: recoveryCodes[3]!.toUpperCase() })).statusCode).toBe(200);
    const second = await signIn(u);
    expect((await post(second, '/api/auth/two-factor/verify', { code: recoveryCodes[3] })).statusCode).toBe(400);
    expect((await post(second, '/api/auth/two-factor/verify', { code: recoveryCodes[4]!.replace('-', '') })).statusCode).toBe(200);
  });

  it('stops guessing after five wrong codes, on every instance', async () => {
    const u = await newUser();
    const { secret } = await enrol(u);
    clock.advance(60_000);
    const cookie = await signIn(u);
    for (let i = 0; i < 5; i++) expect((await post(cookie, '/api/auth/two-factor/verify', { code: String(100000 + i) })).statusCode).toBe(400);
    const blocked = await post(cookie, '/api/auth/two-factor/verify', { code: await codeAt(secret) });
    expect(blocked.statusCode).toBe(429);
    clock.advance(15 * 60_000);
    expect((await post(cookie, '/api/auth/two-factor/verify', { code: await codeAt(secret) })).statusCode).toBe(200);
  });

  it('reserves each attempt before checking it: thirty wrong codes at once get at most five checks, then even the right code waits', async () => {
    const u = await newUser();
    const { secret } = await enrol(u);
    clock.advance(60_000);
    const cookie = await signIn(u);
    // Thirty codes that are surely wrong (none of the steps a code is accepted for).
    const near = new Set(await Promise.all([-30_000, 0, 30_000].map((d) => codeAt(secret, new Date(clock.now().getTime() + d)))));
    const wrong = Array.from({ length: 40 }, (_, i) => String(300000 + i))
      .filter((c) => !near.has(c))
      .slice(0, 30);
    const answers = await Promise.all(wrong.map((code) => post(cookie, '/api/auth/two-factor/verify', { code })));
    const checked = answers.filter((r) => r.statusCode !== 429);
    expect(checked.length).toBeGreaterThan(0);
    expect(checked.length).toBeLessThanOrEqual(5);
    for (const r of checked) expect(r.statusCode).toBe(400);
    const failures = (await auditEntries(t.db, 'users')).filter(
      (e) => e.record_id === String(u.id) && (e.new_values as { reason?: string }).reason === 'wrong second factor',
    );
    expect(failures.length).toBeLessThanOrEqual(5);
    // The limit is reached: the right code is refused too, until the window ends.
    const right = await post(cookie, '/api/auth/two-factor/verify', { code: await codeAt(secret) });
    expect(right.statusCode).toBe(429);
    expect(Number(right.headers['retry-after'])).toBeGreaterThan(0);
    expect((await me(cookie)).pendingStep).toBe('totp');
  });

  it('super_admin resets an enrolment (audited): the user is signed out and enrols again; others may not', async () => {
    const u = await newUser();
    const { cookie } = await enrol(u);
    const itAdmin = (await enrol(await newUser('it_admin'))).cookie;
    expect((await post(itAdmin, `/api/users/${u.id}/two-factor/reset`)).statusCode).toBe(403);
    const res = await post(superAdmin, `/api/users/${u.id}/two-factor/reset`);
    expect(res.statusCode, res.body).toBe(200);
    expect((await t.app.inject({ url: '/api/auth/user', headers: { cookie } })).statusCode).toBe(401);
    const again = await signIn(u);
    expect((await me(again)).pendingStep).toBe('totp_enrol');
    expect((await auditEntries(t.db, 'users')).filter((e) => e.action === 'Update').at(-1)).toMatchObject({
      record_id: String(u.id),
      new_values: { twoFactor: 'reset' },
    });
    expect((await post(superAdmin, '/api/users/999999/two-factor/reset')).statusCode).toBe(404);
    expect((await post(superAdmin, '/api/users/abc/two-factor/reset')).statusCode).toBe(400);
  });

  it('keeps asking an enrolled account for its code after the school turns the policy off', async () => {
    const u = await newUser();
    await enrol(u);
    await setSecurity({ twoFactorAuthentication: false });
    const cookie = await signIn(u);
    expect((await me(cookie)).pendingStep).toBe('totp');
    const fresh = await newUser();
    expect((await me(await signIn(fresh))).pendingStep).toBeNull();
  });
});

describe('password rules', () => {
  it('with requirePasswordChange on, a password older than the policy age must be replaced first, then two-factor follows', async () => {
    await setSecurity({ requirePasswordChange: true, passwordMaxAgeDays: 90, twoFactorAuthentication: true });
    const u = await newUser();
    await t.db.execute(sql`update users set password_changed_at = ${new Date(clock.now().getTime() - 91 * 86_400_000).toISOString()} where id = ${u.id}`);
    const cookie = await signIn(u);
    expect((await me(cookie)).pendingStep).toBe('password_change');
    expect((await t.app.inject({ url: '/api/students', headers: { cookie } })).statusCode).toBe(403);
    expect((await post(cookie, '/api/auth/two-factor/enrolment')).statusCode).toBe(403);

    const wrongCurrent = await post(cookie, '/api/auth/password', { currentPassword: 'not it', newPassword: 'a much better passphrase' });
    expect(wrongCurrent.statusCode).toBe(400);
    expect(wrongCurrent.json().errors).toEqual([{ field: 'currentPassword', message: 'The current password is not right' }]);
    const same = await post(cookie, '/api/auth/password', { currentPassword: u.password, newPassword: u.password });
    expect(same.json().errors[0].field).toBe('newPassword');
    const common = await post(cookie, '/api/auth/password', { currentPassword: u.password, newPassword: 'password123' });
    expect(common.statusCode).toBe(400);
    expect(common.json().errors[0].field).toBe('newPassword');
    const ok = await post(cookie, '/api/auth/password', { currentPassword: u.password, newPassword: 'a much better passphrase' });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toEqual({ pendingStep: 'totp_enrol' });
    // The old password no longer works; the new one does, and is young enough.
    expect((await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: u.email, password: u.password } })).statusCode).toBe(401);
    const next = await signIn({ email: u.email, password: 'a much better passphrase' });
    expect((await me(next)).pendingStep).toBe('totp_enrol');
  });

  it('an account whose password an administrator set must choose its own; with the policy off nothing is asked', async () => {
    await setSecurity({ requirePasswordChange: true, twoFactorAuthentication: false });
    const u = await newUser();
    await t.db.execute(sql`update users set must_change_password = true where id = ${u.id}`);
    expect((await me(await signIn(u))).pendingStep).toBe('password_change');
    await setSecurity({ requirePasswordChange: false });
    expect((await me(await signIn(u))).pendingStep).toBeNull();
  });

  it('reserves each current password before checking it: twenty wrong ones at once get at most five checks', async () => {
    await setSecurity({ requirePasswordChange: false, twoFactorAuthentication: false });
    const u = await newUser();
    const cookie = await signIn(u);
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => post(cookie, '/api/auth/password', { currentPassword: `not it ${i}`, newPassword: 'a much better passphrase' })),
    );
    const checked = answers.filter((r) => r.statusCode !== 429);
    expect(checked.length).toBeGreaterThan(0);
    expect(checked.length).toBeLessThanOrEqual(5);
    for (const r of checked) expect(r.json().errors[0].field).toBe('currentPassword');
    expect((await post(cookie, '/api/auth/password', { currentPassword: u.password, newPassword: 'a much better passphrase' })).statusCode).toBe(429);
  });

  it('refuses a policy age outside 30–3650 days, naming the field', async () => {
    const res = await t.app.inject({ method: 'PUT', url: '/api/settings', headers: { cookie: superAdmin }, payload: { security: { passwordMaxAgeDays: 5 } } });
    expect(res.statusCode).toBe(400);
    expect(JSON.stringify(res.json())).toContain('security.passwordMaxAgeDays');
  });
});
