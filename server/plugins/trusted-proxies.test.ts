import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { createTestApp, fixedClock, sessionCookie, type TestApp } from '../test/helpers.ts';

// TRUST_PROXY names the proxies whose X-Forwarded-For / X-Forwarded-Proto are believed
// (docs/decisions/035). Everything below goes through the environment as production does.
const trusting = (TRUST_PROXY: string, COOKIE_SECURE?: string) => {
  const c = loadConfig({ NODE_ENV: 'test', TRUST_PROXY, ...(COOKIE_SECURE ? { COOKIE_SECURE } : {}) });
  return { trustProxy: c.trustProxy, cookieSecure: c.cookieSecure };
};

const PROXY = '127.0.0.1';
const CLIENT = '203.0.113.7';
const STRANGER = '198.51.100.9';

// A proxy on this machine (TRUST_PROXY=loopback); COOKIE_SECURE unset.
let local: TestApp;
// A proxy on another machine (TRUST_PROXY=10.0.0.1) with COOKIE_SECURE=true: loopback is NOT trusted here.
let remote: TestApp;

beforeAll(async () => {
  // A fixed clock: a real one could cross a throttle window mid-test.
  [local, remote] = await Promise.all([
    createTestApp({ clock: fixedClock('2026-11-23T10:00:30Z'), config: trusting('loopback') }),
    createTestApp({ clock: fixedClock('2026-11-23T10:00:30Z'), config: trusting('10.0.0.1', 'true') }),
  ]);
});
afterAll(async () => {
  await Promise.all([local?.close(), remote?.close()]);
});

/** Sign in with these connection details and read back the address "Your sessions" recorded. */
async function addressSeen(t: TestApp, remoteAddress: string, headers: Record<string, string>): Promise<string | null> {
  const { email } = await t.signedIn('instructor');
  const login = await t.app.inject({ method: 'POST', url: '/api/auth/login', remoteAddress, headers, payload: { email, password: 'correct horse battery' } });
  expect(login.statusCode).toBe(200);
  const sessions = await t.app.inject({ method: 'GET', url: '/api/auth/sessions', headers: { cookie: sessionCookie(login) } });
  expect(sessions.statusCode).toBe(200);
  const current = (sessions.json() as { current: boolean; ipAddress: string | null }[]).find((s) => s.current);
  return current?.ipAddress ?? null;
}

describe('the client address (req.ip) follows X-Forwarded-For only from a trusted proxy', () => {
  it('behind one trusted proxy, the address the proxy forwards is the client', async () => {
    expect(await addressSeen(local, PROXY, { 'x-forwarded-for': CLIENT })).toBe(CLIENT);
  });

  it('a value the client sent itself, which the proxy appended to, is ignored: the right-most untrusted address wins', async () => {
    expect(await addressSeen(local, PROXY, { 'x-forwarded-for': `1.2.3.4, ${CLIENT}` })).toBe(CLIENT);
    // Even when the forged part claims to be the proxy itself.
    expect(await addressSeen(local, PROXY, { 'x-forwarded-for': `1.2.3.4, 127.0.0.1, ${CLIENT}` })).toBe(CLIENT);
  });

  it('a peer that is not a trusted proxy is seen as itself, whatever X-Forwarded-For says', async () => {
    expect(await addressSeen(local, STRANGER, { 'x-forwarded-for': '1.2.3.4' })).toBe(STRANGER);
    expect(await addressSeen(local, STRANGER, { 'x-forwarded-for': `1.2.3.4, ${PROXY}` })).toBe(STRANGER);
  });

  it('with a proxy named by address, only that address is trusted: loopback is not', async () => {
    expect(await addressSeen(remote, '10.0.0.1', { 'x-forwarded-for': CLIENT })).toBe(CLIENT);
    expect(await addressSeen(remote, PROXY, { 'x-forwarded-for': CLIENT })).toBe(PROXY);
  });
});

describe('a per-address limit cannot be reset by forging X-Forwarded-For', () => {
  // The smallest per-address limit: 5 sign-in attempts per account and address in 15 minutes
  // (server/modules/auth/sign-in-throttle.ts, decision record 009).
  const attempt = (t: TestApp, email: string, password: string, remoteAddress: string, xff: string) =>
    t.app.inject({ method: 'POST', url: '/api/auth/login', remoteAddress, headers: { 'x-forwarded-for': xff }, payload: { email, password } });

  it('from an untrusted peer, a new X-Forwarded-For on every guess does not give new attempts', async () => {
    const { email } = await local.signedIn('instructor');
    const statuses: number[] = [];
    for (let i = 1; i <= 6; i++) statuses.push((await attempt(local, email, 'wrong password', STRANGER, `192.0.2.${i}`)).statusCode);
    expect(statuses.slice(0, 5).every((s) => s !== 429)).toBe(true);
    expect(statuses[5]).toBe(429);
    // Even the right password is refused for that account from that address.
    expect((await attempt(local, email, 'correct horse battery', STRANGER, '192.0.2.99')).statusCode).toBe(429);
  });

  it('behind a trusted proxy, prepending values to X-Forwarded-For does not give new attempts', async () => {
    const { email } = await local.signedIn('instructor');
    const client = '203.0.113.50';
    const statuses: number[] = [];
    for (let i = 1; i <= 6; i++) statuses.push((await attempt(local, email, 'wrong password', PROXY, `192.0.2.${i}, ${client}`)).statusCode);
    expect(statuses.slice(0, 5).every((s) => s !== 429)).toBe(true);
    expect(statuses[5]).toBe(429);
    expect((await attempt(local, email, 'correct horse battery', PROXY, `192.0.2.99, 10.9.9.9, ${client}`)).statusCode).toBe(429);
    // Another client behind the same proxy is counted on its own.
    expect((await attempt(local, email, 'correct horse battery', PROXY, '203.0.113.51')).statusCode).toBe(200);
  });
});

describe('Strict-Transport-Security is sent exactly when the request arrived over HTTPS', () => {
  const HSTS = 'max-age=31536000; includeSubDomains';
  const health = (t: TestApp, remoteAddress: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url: '/api/health', remoteAddress, headers });

  it('present when a trusted proxy says X-Forwarded-Proto: https (COOKIE_SECURE unset)', async () => {
    expect((await health(local, PROXY, { 'x-forwarded-proto': 'https' })).headers['strict-transport-security']).toBe(HSTS);
    expect((await health(remote, '10.0.0.1', { 'x-forwarded-proto': 'https' })).headers['strict-transport-security']).toBe(HSTS);
  });

  it('absent over plain HTTP, even with COOKIE_SECURE=true', async () => {
    expect((await health(remote, '10.0.0.1')).headers['strict-transport-security']).toBeUndefined();
    expect((await health(remote, '10.0.0.1', { 'x-forwarded-proto': 'http' })).headers['strict-transport-security']).toBeUndefined();
    expect((await health(local, PROXY)).headers['strict-transport-security']).toBeUndefined();
  });

  it('absent when a client that is not a trusted proxy sends X-Forwarded-Proto: https', async () => {
    expect((await health(remote, STRANGER, { 'x-forwarded-proto': 'https' })).headers['strict-transport-security']).toBeUndefined();
    expect((await health(remote, PROXY, { 'x-forwarded-proto': 'https' })).headers['strict-transport-security']).toBeUndefined();
    expect((await health(local, STRANGER, { 'x-forwarded-proto': 'https' })).headers['strict-transport-security']).toBeUndefined();
  });
});
