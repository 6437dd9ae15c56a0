import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.ts';
import { auditEntries, createTestApp, type TestApp } from '../../test/helpers.ts';
import { freeLoopbackPort, startTestOidcProvider } from '../../test/oidc-provider.ts';
import { insertUser } from '../auth/service.ts';

// The whole authorization code flow against a real OpenID provider on loopback (oidc-provider),
// through the app listening on loopback, following redirects by hand with a cookie jar per browser.
let t: TestApp;
let idp: Awaited<ReturnType<typeof startTestOidcProvider>>;
let appBase = '';

beforeAll(async () => {
  const port = await freeLoopbackPort();
  appBase = `http://127.0.0.1:${port}`;
  idp = await startTestOidcProvider({ clientId: 'muster', clientSecret: 'muster-secret', redirectUri: `${appBase}/api/auth/sso/callback` });
  t = await createTestApp({
    config: {
      ...loadConfig({ NODE_ENV: 'test' }),
      oidc: { issuer: idp.issuer, clientId: 'muster', clientSecret: 'muster-secret', displayName: 'Lakeside Career College' },
    },
  });
  await t.app.listen({ host: '127.0.0.1', port });
});
afterAll(async () => {
  await t.close();
  await idp.close();
});

/** A browser: follows redirects across the app and the provider, keeping each host's cookies. */
function browser() {
  const jars = new Map<string, Map<string, string>>();
  const cookieHeader = (url: URL) => [...(jars.get(url.host) ?? new Map()).entries()].map(([k, v]) => `${k}=${v}`).join('; ');
  const keep = (url: URL, res: Response) => {
    const jar = jars.get(url.host) ?? new Map<string, string>();
    jars.set(url.host, jar);
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const i = pair!.indexOf('=');
      const name = pair!.slice(0, i);
      const value = pair!.slice(i + 1);
      if (value === '' || /max-age=0|expires=thu, 01 jan 1970/i.test(c)) jar.delete(name);
      else jar.set(name, value);
    }
  };
  const visit = async (start: string, stopAt?: (u: URL) => boolean) => {
    let url = new URL(start);
    const seen: string[] = [];
    for (let i = 0; i < 20; i++) {
      seen.push(url.href);
      const res = await fetch(url, { redirect: 'manual', headers: { cookie: cookieHeader(url) } });
      keep(url, res);
      const location = res.headers.get('location');
      if (res.status < 300 || res.status >= 400 || !location) return { url, status: res.status, seen, body: await res.text() };
      url = new URL(location, url);
      if (stopAt?.(url)) return { url, status: 302, seen, body: '' };
    }
    throw new Error('too many redirects');
  };
  return { visit, cookieFor: (host: string, name: string) => jars.get(host)?.get(name) };
}

const appHost = () => new URL(appBase).host;
const user = (email: string, o: { active?: boolean; role?: 'instructor' | 'super_admin' } = {}) =>
  insertUser(t.db, { email, password: 'correct horse battery', role: o.role ?? 'instructor', firstName: 'Sam', lastName: 'Rivera' }).then(async (id) => {
    if (o.active === false) await t.db.execute(sql`update users set is_active = false where id = ${id}`);
    return id;
  });
const signInAs = (sub: string, email: string, email_verified = true) => (idp.control.signInAs = { sub, email, email_verified });

describe('single sign-on', () => {
  it('offers "Sign in with …" on the sign-in page', async () => {
    const res = await fetch(`${appBase}/api/auth/sso`);
    expect(await res.json()).toEqual({ enabled: true, buttonLabel: 'Sign in with Lakeside Career College', localSignInDisabled: false });
  });

  it('signs in an active account matched by verified e-mail, links its subject, and audits it', async () => {
    const id = await user('sam.rivera@lakeside.edu');
    signInAs('google-sub-1', 'Sam.Rivera@Lakeside.edu');
    const b = browser();
    const end = await b.visit(`${appBase}/api/auth/sso/start`);
    expect(end.url.pathname).toBe('/');
    // The flow went to the provider with PKCE and back.
    const authorize = new URL(end.seen.find((u) => u.includes('/auth?'))!);
    expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorize.searchParams.get('state')).toBeTruthy();
    expect(authorize.searchParams.get('nonce')).toBeTruthy();
    const session = b.cookieFor(appHost(), 'muster_session');
    expect(session).toBeTruthy();
    const me = await fetch(`${appBase}/api/auth/user`, { headers: { cookie: `muster_session=${session}` } });
    expect(me.status).toBe(200);
    expect(await me.json()).toMatchObject({ id, email: 'sam.rivera@lakeside.edu' });
    const row = (
      await t.db.execute<{ oidc_subject: string; auth_method: string }>(
        sql`select u.oidc_subject, s.auth_method from users u join login_sessions s on s.user_id = u.id where u.id = ${id}`,
      )
    ).rows;
    expect(row).toEqual([{ oidc_subject: 'google-sub-1', auth_method: 'sso' }]);
    expect((await auditEntries(t.db, 'users')).at(-1)).toMatchObject({
      action: 'Login',
      record_id: String(id),
      new_values: { outcome: 'success', method: 'single sign-on', linked: true },
    });
  });

  it('refuses an unknown e-mail, an inactive account and an unverified e-mail, creating no one', async () => {
    const before = (await t.db.execute<{ n: number }>(sql`select count(*)::int as n from users`)).rows[0]!.n;
    signInAs('sub-unknown', 'nobody@lakeside.edu');
    expect((await browser().visit(`${appBase}/api/auth/sso/start`)).url.search).toBe('?sso_error=unknown_user');
    await user('gone@lakeside.edu', { active: false });
    signInAs('sub-gone', 'gone@lakeside.edu');
    expect((await browser().visit(`${appBase}/api/auth/sso/start`)).url.search).toBe('?sso_error=inactive_user');
    await user('unverified@lakeside.edu');
    signInAs('sub-unverified', 'unverified@lakeside.edu', false);
    const b = browser();
    expect((await b.visit(`${appBase}/api/auth/sso/start`)).url.search).toBe('?sso_error=unverified_email');
    expect(b.cookieFor(appHost(), 'muster_session')).toBeUndefined();
    expect((await t.db.execute<{ n: number }>(sql`select count(*)::int as n from users`)).rows[0]!.n).toBe(before + 2);
  });

  it('refuses a verified e-mail that only Unicode case folding makes an account’s (the Kelvin sign for k)', async () => {
    const id = await user('admin@kschool.edu', { role: 'super_admin' });
    for (const claimed of ['admin@\u212Aschool.edu', 'admin@\u212ASCHOOL.EDU', '\uFF41dmin@kschool.edu', 'adm\u0130n@kschool.edu']) {
      signInAs(`sub-${claimed}`, claimed);
      const b = browser();
      expect((await b.visit(`${appBase}/api/auth/sso/start`)).url.search, claimed).toBe('?sso_error=unknown_user');
      expect(b.cookieFor(appHost(), 'muster_session')).toBeUndefined();
    }
    const bound = (await t.db.execute<{ oidc_subject: string | null }>(sql`select oidc_subject from users where id = ${id}`)).rows[0]!.oidc_subject;
    expect(bound).toBeNull();
    // The same address in ASCII capitals is the account's.
    signInAs('sub-kschool-admin', 'ADMIN@KSCHOOL.EDU');
    expect((await browser().visit(`${appBase}/api/auth/sso/start`)).url.pathname).toBe('/');
  });

  it('refuses a linked account signing in as a different subject with the same e-mail', async () => {
    signInAs('google-sub-OTHER', 'sam.rivera@lakeside.edu');
    expect((await browser().visit(`${appBase}/api/auth/sso/start`)).url.search).toBe('?sso_error=subject_mismatch');
  });

  it('refuses a wrong state, a callback without the browser’s own sign-in, and a replayed code', async () => {
    await user('pat.kim@lakeside.edu');
    signInAs('sub-pat', 'pat.kim@lakeside.edu');
    const b = browser();
    // Stop at the callback the provider sends back, to tamper with it.
    const atCallback = await b.visit(`${appBase}/api/auth/sso/start`, (u) => u.pathname === '/api/auth/sso/callback');
    const callback = atCallback.url;
    const wrongState = new URL(callback);
    wrongState.searchParams.set('state', 'not-the-state');
    // Another browser (no pending sign-in cookie) presenting the code: refused.
    expect((await browser().visit(callback.href)).url.search).toBe('?sso_error=failed');
    // This browser with a tampered state: refused, and its pending sign-in is spent.
    expect((await b.visit(wrongState.href)).url.search).toBe('?sso_error=failed');
    expect((await b.visit(callback.href)).url.search).toBe('?sso_error=failed');

    // A clean sign-in, then the same code replayed with a fresh pending sign-in: the provider refuses it.
    const c = browser();
    const first = await c.visit(`${appBase}/api/auth/sso/start`, (u) => u.pathname === '/api/auth/sso/callback');
    expect((await c.visit(first.url.href)).url.pathname).toBe('/');
    expect(c.cookieFor(appHost(), 'muster_session')).toBeTruthy();
    const d = browser();
    await d.visit(`${appBase}/api/auth/sso/start`, (u) => u.pathname === '/api/auth/sso/callback');
    const replay = new URL(first.url.href);
    expect((await d.visit(replay.href)).url.search).toBe('?sso_error=failed');
  });

  it('with local sign-in off, only super_admin may use a password; turning it on needs SSO configured', async () => {
    const admin = await t.signedIn('super_admin');
    const on = await t.app.inject({
      method: 'PUT',
      url: '/api/settings',
      headers: { cookie: admin.cookie },
      payload: { security: { localSignInDisabled: true } },
    });
    expect(on.statusCode, on.body).toBe(200);
    await user('local.instructor@lakeside.edu');
    const refused = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'local.instructor@lakeside.edu', password: 'correct horse battery' },
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ code: 'LOCAL_SIGN_IN_OFF', message: expect.stringContaining('Sign in with Lakeside Career College') });
    // A wrong password still gets the usual answer: nothing is revealed to someone who lacks it.
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'local.instructor@lakeside.edu', password: 'wrong one' } })).statusCode,
    ).toBe(401);
    await user('root@lakeside.edu', { role: 'super_admin' });
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'root@lakeside.edu', password: 'correct horse battery' } })).statusCode,
    ).toBe(200);
    expect((await (await fetch(`${appBase}/api/auth/sso`)).json()).localSignInDisabled).toBe(true);

    const bare = await createTestApp();
    try {
      const who = await bare.signedIn('super_admin');
      const res = await bare.app.inject({
        method: 'PUT',
        url: '/api/settings',
        headers: { cookie: who.cookie },
        payload: { security: { localSignInDisabled: true } },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().errors).toEqual([{ field: 'security.localSignInDisabled', message: expect.stringContaining('single sign-on is configured') }]);
      expect((await bare.app.inject({ url: '/api/auth/sso' })).json()).toEqual({ enabled: false, buttonLabel: null, localSignInDisabled: false });
      expect((await bare.app.inject({ url: '/api/auth/sso/start' })).headers.location).toBe('/login?sso_error=unavailable');
    } finally {
      await bare.close();
    }
  });
});
