import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertUser, createSetupCodeIfNeeded } from '../auth/service.ts';
import { serverTimeZone } from '../../lib/school-time.ts';
import { createTestApp, createTestDatabase, type TestApp } from '../../test/helpers.ts';
import { adoptServerTimeZone } from './service.ts';

const zoneOf = async (db: TestApp['db']) => (await db.execute<{ z: string }>(sql`select time_zone as z from school_settings`)).rows[0]!.z;

describe("the school's time zone at first run", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());
  const admin = { firstName: 'Ada', lastName: 'Admin', email: 'ada@tz.edu', password: 'Lantern ferry 1947' };

  it('refuses a zone that is not an IANA zone, naming the field', async () => {
    const setupCode = await createSetupCodeIfNeeded(t.db);
    const res = await t.app.inject({ method: 'POST', url: '/api/setup', payload: { ...admin, setupCode, timeZone: 'Mars/Olympus' } });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual([{ field: 'timeZone', message: expect.stringContaining('IANA') }]);
  });

  it('stores the zone chosen on the setup page', async () => {
    const setupCode = await createSetupCodeIfNeeded(t.db);
    const res = await t.app.inject({ method: 'POST', url: '/api/setup', payload: { ...admin, setupCode, timeZone: 'America/Chicago' } });
    expect(res.statusCode).toBe(201);
    expect(await zoneOf(t.db)).toBe('America/Chicago');
  });
});

describe('without a choice', () => {
  it("a school nobody has configured takes the server's zone, never a fixed UTC; a configured one keeps its own", async () => {
    const database = await createTestDatabase();
    try {
      expect(await zoneOf(database.db)).toBe('UTC'); // the column's default
      await adoptServerTimeZone(database.db, 'America/Denver');
      expect(await zoneOf(database.db)).toBe('America/Denver');
      // Once a user exists (user:create, the seed, setup), the zone is theirs to change.
      await insertUser(database.db, { email: 'x@tz.edu', password: null, firstName: 'X', lastName: 'Y', role: 'super_admin' });
      await adoptServerTimeZone(database.db, 'Asia/Tokyo');
      expect(await zoneOf(database.db)).toBe('America/Denver');
    } finally {
      await database.drop();
    }
    expect(serverTimeZone()).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone);
  });

  it("setup without a zone uses the server's", async () => {
    const t = await createTestApp();
    try {
      const setupCode = await createSetupCodeIfNeeded(t.db);
      await t.db.execute(sql`update school_settings set time_zone = 'UTC'`);
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/setup',
        payload: { firstName: 'B', lastName: 'C', email: 'b@tz.edu', password: 'Lantern ferry 1947', setupCode },
      });
      expect(res.statusCode).toBe(201);
      expect(await zoneOf(t.db)).toBe(serverTimeZone());
    } finally {
      await t.close();
    }
  });
});
