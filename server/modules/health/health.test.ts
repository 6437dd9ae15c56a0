import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import { loadConfig } from '../../config.ts';
import { createDb } from '../../db/client.ts';
import { createFieldCipher } from '../../lib/field-cipher.ts';
import { createTestApp, type TestApp } from '../../test/helpers.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('health and readiness for load balancers', () => {
  it('is alive and ready on a migrated database', async () => {
    const health = await t.app.inject({ url: '/api/health' });
    expect(health.statusCode).toBe(200);
    expect(health.json()).toMatchObject({ status: 'healthy', database: { status: 'healthy' } });
    const ready = await t.app.inject({ url: '/api/ready' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ ready: true, database: 'reachable', migrations: 'current' });
  });

  it('is not ready while a migration is pending', async () => {
    await t.db.$client.query('delete from drizzle.__drizzle_migrations where created_at = (select max(created_at) from drizzle.__drizzle_migrations)');
    const ready = await t.app.inject({ url: '/api/ready' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toEqual({ ready: false, database: 'reachable', migrations: 'pending' });
  });

  it('stays alive but not ready when the database is unreachable', async () => {
    const deadDb = createDb('postgres://nobody:x@127.0.0.1:1/none', 1);
    const app = await buildApp(
      { db: deadDb, config: loadConfig({ NODE_ENV: 'test' }), cipher: createFieldCipher(randomBytes(32)) },
      { webRoot: '/nonexistent' },
    );
    try {
      const health = await app.inject({ url: '/api/health' });
      expect(health.statusCode).toBe(200);
      expect(health.json()).toMatchObject({ status: 'error', database: { status: 'error', latencyMs: null } });
      const ready = await app.inject({ url: '/api/ready' });
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toEqual({ ready: false, database: 'unreachable', migrations: 'unknown' });
    } finally {
      await app.close();
      await deadDb.$client.end();
    }
  });
});
