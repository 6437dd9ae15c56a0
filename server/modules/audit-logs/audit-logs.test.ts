import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { purgeExpiredData } from '../../jobs/retention.ts';
import { fixedClock } from '../../lib/clock.ts';
import { buildAuditEntry } from '../../test/factories.ts';
import { createTestApp, type TestApp } from '../../test/helpers.ts';

const clock = fixedClock('2026-05-10T12:00:00Z');
let t: TestApp;
let sa: { cookie: string; userId: number };
let it_: string;

beforeAll(async () => {
  t = await createTestApp({ clock });
  sa = await t.signedIn('super_admin', { firstName: 'Sue', lastName: 'Perry' });
  it_ = (await t.signedIn('it_admin')).cookie;
  // Known history: two failed sign-ins today, one a week ago; 30 student changes over three days.
  await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'nobody@x.edu', password: 'x' } });
  await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'nobody@x.edu', password: 'y' } });
  await buildAuditEntry(t.db, { timestamp: new Date('2026-05-03T12:00:00Z'), action: 'Login', tableName: 'users', newValues: { outcome: 'failed' } });
  for (let i = 0; i < 30; i++) {
    await buildAuditEntry(t.db, {
      timestamp: new Date(`2026-05-0${7 + (i % 3)}T10:00:00Z`),
      userId: sa.userId,
      action: i % 2 ? 'Update' : 'Create',
      tableName: 'students',
      recordId: String(i),
      ipAddress: '10.0.0.1',
      oldValues: i % 2 ? { status: 'enrolled' } : null,
      newValues: { status: 'withdrawn' },
    });
  }
});
afterAll(() => t.close());

const list = (q: string, cookie = it_) => t.app.inject({ url: `/api/audit-logs${q}`, headers: { cookie } });

describe('audit logs', () => {
  it('pages on the server with a true total', async () => {
    const p1 = await list('?table=students&pageSize=20');
    expect(p1.json()).toHaveLength(20);
    expect(p1.headers['x-total-count']).toBe('30');
    const p2 = await list('?table=students&pageSize=20&page=2');
    expect(p2.json()).toHaveLength(10);
    expect(new Set([...p1.json(), ...p2.json()].map((e: { id: number }) => e.id)).size).toBe(30);
    expect(p1.json()[0]).toMatchObject({ userName: 'Sue Perry', tableName: 'students', ipAddress: '10.0.0.1', newValues: { status: 'withdrawn' } });
  });

  it('filters by action, table, calendar dates and free text', async () => {
    expect((await list('?action=Update&table=students')).headers['x-total-count']).toBe('15');
    expect((await list('?table=students&startDate=2026-05-08&endDate=2026-05-08')).headers['x-total-count']).toBe('10');
    expect((await list('?search=perry&table=students')).headers['x-total-count']).toBe('30');
    expect((await list('?search=system&action=Login')).headers['x-total-count']).toBe('3'); // failed sign-ins have no user
    expect((await list('?startDate=2026-05-09&endDate=2026-05-01')).statusCode).toBe(400);
  });

  it('summarises real figures: 24 h activity, failed sign-ins, data modifications of the filter', async () => {
    const res = await t.app.inject({ url: '/api/audit-logs/summary?table=students&startDate=2026-05-08', headers: { cookie: it_ } });
    expect(res.json()).toMatchObject({ failedLoginAttempts24h: 2, dataModifications: 20, total: 20 });
    expect(res.json().recentActivity24h).toBeGreaterThanOrEqual(4); // 2 sign-ins + 2 failures
  });

  it('exports the filtered entries as CSV', async () => {
    const res = await t.app.inject({ url: '/api/audit-logs/export?action=Create&table=students', headers: { cookie: it_ } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toBe('attachment; filename="audit-logs-2026-05-10.csv"');
    const lines = res.body.trim().split('\n');
    expect(lines[0]).toBe('id,timestamp,userId,user,action,tableName,recordId,ipAddress,oldValues,newValues');
    expect(lines).toHaveLength(16);
  });

  it('is for administrators only and append-only in the database', async () => {
    const instructor = (await t.signedIn('instructor')).cookie;
    expect((await list('', instructor)).statusCode).toBe(403);
    await expect(t.db.execute(sql`update audit_logs set action = 'Tampered'`)).rejects.toThrow();
    await expect(t.db.execute(sql`delete from audit_logs`)).rejects.toThrow();
  });
});

describe('retention', () => {
  it('removes data older than dataRetentionYears and records what it removed', async () => {
    for (const at of ['2018-01-01T00:00:00Z', '2020-01-01T00:00:00Z'])
      await buildAuditEntry(t.db, { timestamp: new Date(at), action: 'Create', tableName: 'students' });
    const put = await t.app.inject({ method: 'PUT', url: '/api/settings', headers: { cookie: sa.cookie }, payload: { system: { dataRetentionYears: 7 } } });
    expect(put.statusCode).toBe(200);
    const first = await purgeExpiredData(t.db, clock);
    expect(first!.removed.audit_logs).toBe(1); // 2018 is older than 7 years, 2020 is not
    const purge = (await t.db.execute<{ new_values: { removed: Record<string, number> } }>(sql`select new_values from audit_logs where action = 'Purge'`)).rows;
    expect(purge).toHaveLength(1);
    expect(purge[0]!.new_values.removed.audit_logs).toBe(1);
    expect((await purgeExpiredData(t.db, clock))!.removed.audit_logs).toBe(0);
    const status = await t.app.inject({ url: '/api/settings/system-status', headers: { cookie: it_ } });
    expect(status.json()).toMatchObject({
      database: { connected: true, mode: 'external' },
      lastBackup: null,
      lastRetentionRun: { removed: { audit_logs: 1 } },
    });
    expect(status.json().database.sizeBytes).toBeGreaterThan(1_000_000);
  });
});
