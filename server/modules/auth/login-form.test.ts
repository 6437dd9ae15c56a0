import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertUser } from './service.ts';
import { createTestApp, sessionCookie, type TestApp } from '../../test/helpers.ts';

// The sign-in form posted as a plain HTML form (login.html, before the app's script has arrived).
let t: TestApp;
const user = { firstName: 'Fran', lastName: 'Form', email: 'fran.form@school.edu', password: 'a long passphrase', role: 'support_staff' as const };
beforeAll(async () => {
  t = await createTestApp();
  await insertUser(t.db, user);
});
afterAll(() => t.close());

const post = (form: Record<string, string>, headers: Record<string, string> = { 'sec-fetch-site': 'same-origin' }) =>
  t.app.inject({
    method: 'POST',
    url: '/api/auth/login-form',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    payload: new URLSearchParams(form).toString(),
  });

describe('POST /api/auth/login-form', () => {
  it('signs in and sends the browser home, with the same session cookie as the JSON sign-in', async () => {
    const res = await post({ email: user.email, password: user.password });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/');
    const cookie = sessionCookie(res);
    expect(String(res.headers['set-cookie'])).toMatch(/HttpOnly/i);
    const me = await t.app.inject({ url: '/api/auth/user', headers: { cookie } });
    expect(me.json()).toMatchObject({ email: user.email });
  });

  it('sends a wrong password back to the sign-in page with the refusal code, not its text, and no session', async () => {
    const res = await post({ email: user.email, password: 'not the password' });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/login?signin_error=INVALID_CREDENTIALS');
    expect(String(res.headers['set-cookie'] ?? '')).not.toMatch(/muster_session=[^;]/);
    expect((await post({ email: '', password: '' })).headers.location).toBe('/login?signin_error=VALIDATION_ERROR');
  });

  it('refuses a form posted by another site (sign-in CSRF), by Sec-Fetch-Site or by Origin', async () => {
    expect((await post({ email: user.email, password: user.password }, { 'sec-fetch-site': 'cross-site' })).statusCode).toBe(403);
    expect((await post({ email: user.email, password: user.password }, { origin: 'https://evil.example' })).statusCode).toBe(403);
    expect((await post({ email: user.email, password: user.password }, {})).statusCode).toBe(403);
    const sameHost = await post({ email: user.email, password: user.password }, { origin: 'http://school.example:3000', host: 'school.example:3000' });
    expect(sameHost.statusCode).toBe(303);
  });

  it('answers a malformed body with a 400 that names the field, never a 500', async () => {
    const res = await post({ email: 'x'.repeat(2000), password: 'y' });
    expect(res.statusCode).toBe(400);
    expect(JSON.stringify(res.json())).toMatch(/email/);
  });
});
