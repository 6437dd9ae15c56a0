import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { can } from '../../../common/permissions.ts';
import { systemStatusSchema } from '../../../common/settings.ts';
import { loadConfig } from '../../config.ts';
import { auditEntries, createTestApp, fixedClock, type TestApp } from '../../test/helpers.ts';
import { backUpNow, pruneBackups, runScheduledBackup, type BackupDeps } from './service.ts';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'muster-backups-'));
const backups = path.join(dataDir, 'backups');
const clock = fixedClock('2026-11-23T07:30:00Z'); // 01:30 in Chicago
let t: TestApp;
let deps: BackupDeps;

beforeAll(async () => {
  t = await createTestApp({ clock, config: { dataDir } });
  deps = { db: t.db, config: { ...loadConfig({ NODE_ENV: 'test' }), dataDir }, clock };
  await t.db.execute(sql`update school_settings set time_zone = 'America/Chicago', backup_time_of_day = '02:00', backups_to_keep = 3`);
});
afterAll(async () => {
  await t.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const runs = async () =>
  (
    await t.db.execute<{ trigger: string; status: string; scheduled_for: string | null }>(
      sql`select trigger, status, scheduled_for from backup_runs order by id`,
    )
  ).rows;

describe('the nightly backup', () => {
  it('waits for the school-local time of day, then runs once that day across instances', async () => {
    expect(await runScheduledBackup(deps)).toBeNull(); // 01:30 local
    expect(await runs()).toEqual([]);
    clock.set('2026-11-23T08:05:00Z'); // 02:05 in Chicago
    // Two instances tick at the same moment: one claims the day, the other finds it claimed.
    const second: BackupDeps = { ...deps, config: { ...deps.config, dataDir: path.join(dataDir, 'other-instance') } };
    const [a, b] = await Promise.all([runScheduledBackup(deps), runScheduledBackup(second)]);
    const made = [a, b].filter(Boolean);
    expect(made).toHaveLength(1);
    expect(made[0]).toMatchObject({ status: 'completed', host: os.hostname() });
    expect(fs.existsSync(made[0]!.path!)).toBe(true);
    expect(made[0]!.sizeBytes).toBe(fs.statSync(made[0]!.path!).size);
    clock.set('2026-11-23T15:00:00Z'); // later the same school day
    expect(await runScheduledBackup(deps)).toBeNull();
    expect(await runs()).toEqual([{ trigger: 'scheduled', status: 'completed', scheduled_for: '2026-11-23' }]);
    clock.set('2026-11-24T08:01:00Z'); // the next night
    expect(await runScheduledBackup(deps)).toMatchObject({ status: 'completed' });
    expect((await runs()).map((r) => r.scheduled_for)).toEqual(['2026-11-23', '2026-11-24']);
  });

  it('keeps the configured number of its own backup files and never touches anything else', async () => {
    fs.mkdirSync(backups, { recursive: true });
    fs.writeFileSync(path.join(backups, 'notes.txt'), 'the registrar keeps notes here');
    fs.writeFileSync(path.join(backups, 'muster-2020-01-01T00-00-00-000Z.backup.gz.keep'), 'not ours by name');
    for (const day of ['2026-11-01', '2026-11-02']) fs.writeFileSync(path.join(backups, `muster-${day}T02-00-00-000Z.backup.gz`), 'old');
    clock.set('2026-11-24T09:00:00Z');
    await backUpNow(deps, { userId: null, ip: null, trigger: 'cli' });
    const left = fs.readdirSync(backups).sort();
    expect(left.filter((f) => f.endsWith('.backup.gz'))).toHaveLength(3);
    expect(left).toContain('notes.txt');
    expect(left).toContain('muster-2020-01-01T00-00-00-000Z.backup.gz.keep');
    expect(left).not.toContain('muster-2026-11-01T02-00-00-000Z.backup.gz');
    expect(pruneBackups(path.join(dataDir, 'no-such-dir'), 1)).toEqual([]);
  });
});

describe('Back up now and the System tab', () => {
  it('lets only a Super Administrator back up now, audited, and shows the last backup to admins', async () => {
    clock.set('2026-11-24T10:00:00Z');
    const admin = await t.signedIn('super_admin');
    const it_ = await t.signedIn('it_admin');
    const instructor = await t.signedIn('instructor');
    expect((await t.app.inject({ method: 'POST', url: '/api/backups', headers: { cookie: it_.cookie } })).statusCode).toBe(403);
    expect((await t.app.inject({ url: '/api/backups', headers: { cookie: instructor.cookie } })).statusCode).toBe(403);
    const res = await t.app.inject({ method: 'POST', url: '/api/backups', headers: { cookie: admin.cookie } });
    expect(res.statusCode).toBe(201);
    const made = res.json();
    expect(made).toMatchObject({ status: 'completed', host: os.hostname() });
    expect(made.path.startsWith(backups)).toBe(true);
    const audit = (await auditEntries(t.db, 'backups')).at(-1)!;
    expect(audit).toMatchObject({ action: 'Create', user_id: admin.userId, new_values: { status: 'completed', path: made.path } });

    const list = await t.app.inject({ url: '/api/backups', headers: { cookie: it_.cookie } });
    expect(list.json()[0]).toEqual(made);
    const status = await t.app.inject({ url: '/api/settings/system-status', headers: { cookie: it_.cookie } });
    expect(status.json().lastBackup).toEqual(made);
    expect(systemStatusSchema.parse(status.json()).lastBackup).toEqual(made);
  });

  it('tells the backup’s host and path only to the roles that may see backups (common/permissions.ts)', async () => {
    clock.set('2026-11-24T11:00:00Z');
    const admin = await t.signedIn('super_admin');
    expect((await t.app.inject({ method: 'POST', url: '/api/backups', headers: { cookie: admin.cookie } })).statusCode).toBe(201);
    for (const role of ['instructor', 'support_staff'] as const) {
      expect(can(role, 'backups:view')).toBe(false);
      const who = await t.signedIn(role);
      const res = await t.app.inject({ url: '/api/settings/system-status', headers: { cookie: who.cookie } });
      expect(res.statusCode, role).toBe(200);
      const status = systemStatusSchema.parse(res.json());
      expect(status.lastBackup, role).toMatchObject({ status: 'completed', at: '2026-11-24T11:00:00.000Z', host: null, path: null });
      expect(status.lastBackup!.sizeBytes).toBeGreaterThan(0);
      expect(res.body, role).not.toContain(dataDir);
      expect(res.body, role).not.toContain(os.hostname());
    }
    for (const role of ['super_admin', 'it_admin'] as const) {
      const who = await t.signedIn(role);
      const status = systemStatusSchema.parse((await t.app.inject({ url: '/api/settings/system-status', headers: { cookie: who.cookie } })).json());
      expect(status.lastBackup, role).toMatchObject({ host: os.hostname(), path: expect.stringContaining(backups) });
    }
  });

  it('saves the backup time and count with the system settings, refusing a bad time by name', async () => {
    const admin = await t.signedIn('super_admin');
    const bad = await t.app.inject({
      method: 'PUT',
      url: '/api/settings',
      headers: { cookie: admin.cookie },
      payload: { system: { backupTimeOfDay: '25:00' } },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors[0].field).toBe('system.backupTimeOfDay');
    const ok = await t.app.inject({
      method: 'PUT',
      url: '/api/settings',
      headers: { cookie: admin.cookie },
      payload: { system: { backupTimeOfDay: '23:30', backupsToKeep: 30 } },
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().system).toMatchObject({ backupTimeOfDay: '23:30', backupsToKeep: 30 });
  });
});
