import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { createFieldCipher } from '../lib/field-cipher.ts';
import { createTestApp, fixedClock, type TestApp } from '../test/helpers.ts';
import type { FastifyInstance } from 'fastify';

// Two app instances on one database, as a school with two servers behind a load balancer runs.
let t: TestApp;
let second: FastifyInstance;

beforeAll(async () => {
  // A fixed clock: a real one could cross a window boundary mid-test.
  t = await createTestApp({ clock: fixedClock('2026-11-23T10:00:30Z') });
  second = await buildApp(
    { db: t.db, config: { ...loadConfig({ NODE_ENV: 'test' }) }, clock: t.clock, cipher: createFieldCipher(randomBytes(32)) },
    { webRoot: '/nonexistent' },
  );
  await second.ready();
});
afterAll(async () => {
  await second.close();
  await t.close();
});

describe('route rate limits hold across app instances', () => {
  it('the set-password limit (20 a minute per address) counts requests to both instances together', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 24; i++) {
      const app = i % 2 === 0 ? t.app : second;
      const res = await app.inject({
        method: 'POST',
        url: '/api/auth/set-password',
        remoteAddress: '10.20.30.40',
        payload: { token: 'x'.repeat(43), password: 'a long enough passphrase' },
      });
      statuses.push(res.statusCode);
    }
    // Per process, each instance would have let 20 through (40 in all); shared, the 21st is refused.
    expect(statuses.slice(0, 20).every((s) => s !== 429)).toBe(true);
    expect(statuses.slice(20)).toEqual([429, 429, 429, 429]);
  });

  it('hits that arrive together are counted together and still exactly: 30 at once, 20 through', async () => {
    (t.clock as ReturnType<typeof fixedClock>).advance(60_000);
    const statuses = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        (i % 2 === 0 ? t.app : second)
          .inject({
            method: 'POST',
            url: '/api/auth/set-password',
            remoteAddress: '10.20.30.42',
            payload: { token: 'x'.repeat(43), password: 'a long enough passphrase' },
          })
          .then((r) => r.statusCode),
      ),
    );
    expect(statuses.filter((s) => s === 429)).toHaveLength(10);
  });

  it('the next window starts afresh', async () => {
    (t.clock as ReturnType<typeof fixedClock>).advance(60_000);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/set-password',
      remoteAddress: '10.20.30.40',
      payload: { token: 'x'.repeat(43), password: 'a long enough passphrase' },
    });
    expect(res.statusCode).not.toBe(429);
  });

  it('another address is not affected', async () => {
    const res = await second.inject({
      method: 'POST',
      url: '/api/auth/set-password',
      remoteAddress: '10.20.30.41',
      payload: { token: 'x'.repeat(43), password: 'a long enough passphrase' },
    });
    expect(res.statusCode).not.toBe(429);
  });
});
