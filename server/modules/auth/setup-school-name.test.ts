import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../lib/clock.ts';
import { createTestApp, sessionCookie, type TestApp } from '../../test/helpers.ts';
import { createSetupCodeIfNeeded } from './service.ts';

// Decision 045: the school's name is asked for at first-run setup, so no document goes out unnamed.

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ clock: fixedClock('2026-03-02T15:00:00Z') });
});
afterAll(() => t.close());

const admin = { firstName: 'Ada', lastName: 'Admin', email: 'ada@school.edu', password: 'a long passphrase', timeZone: 'America/Chicago' };

describe('POST /api/setup with the school name', () => {
  it('refuses a name longer than Settings allows, naming the field', async () => {
    const code = await createSetupCodeIfNeeded(t.db);
    const res = await t.app.inject({ method: 'POST', url: '/api/setup', payload: { ...admin, setupCode: code, schoolName: 'x'.repeat(201) } });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual([{ field: 'schoolName', message: 'School name must be at most 200 characters' }]);
  });

  it('stores the name (trimmed) in Settings › System, audited, and Getting started counts it done', async () => {
    const code = await createSetupCodeIfNeeded(t.db);
    const res = await t.app.inject({ method: 'POST', url: '/api/setup', payload: { ...admin, setupCode: code, schoolName: '  Lakeside Career College ' } });
    expect(res.statusCode).toBe(201);
    const cookie = sessionCookie(res);
    const settings = (await t.app.inject({ url: '/api/settings', headers: { cookie } })).json();
    expect(settings.system.schoolName).toBe('Lakeside Career College');
    expect(settings.attendance.timeZone).toBe('America/Chicago');
    expect((await t.app.inject({ url: '/api/dashboard/getting-started', headers: { cookie } })).json()).toMatchObject({
      schoolNamed: true,
      timeZoneChosen: true,
    });
    const { rows } = await t.db.execute<{ new_values: Record<string, unknown> }>(
      sql`select new_values from audit_logs where table_name = 'settings' and record_id = 'system'`,
    );
    expect(rows.map((r) => r.new_values)).toEqual([{ 'system.schoolName': 'Lakeside Career College' }]);
  });
});

describe('POST /api/setup without the school name (scripts)', () => {
  let u: TestApp;
  beforeAll(async () => {
    u = await createTestApp({ clock: fixedClock('2026-03-02T15:00:00Z') });
  });
  afterAll(() => u.close());

  it('still sets the school up, and leaves "Name your school" to Getting started', async () => {
    const code = await createSetupCodeIfNeeded(u.db);
    const res = await u.app.inject({ method: 'POST', url: '/api/setup', payload: { ...admin, setupCode: code } });
    expect(res.statusCode).toBe(201);
    const cookie = sessionCookie(res);
    expect((await u.app.inject({ url: '/api/settings', headers: { cookie } })).json().system.schoolName).toBe('');
    expect((await u.app.inject({ url: '/api/dashboard/getting-started', headers: { cookie } })).json().schoolNamed).toBe(false);
  });
});
