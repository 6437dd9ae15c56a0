import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Config } from '../../config.ts';
import { backupFileName, writeBackup } from '../../db/backup.ts';
import type { Db } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import { localDate, minutesOfDay } from '../../lib/school-time.ts';
import { recordAudit } from '../audit-logs/service.ts';
import { getSettings } from '../settings/service.ts';
import { claimScheduledRun, finishRun, insertRun, lastCompletedRun, recentRuns, type BackupRun } from './queries.ts';

/**
 * Backups of the whole school (the engine is db/backup.ts) into DATA_DIR/backups, each recorded in
 * backup_runs with where its file is: several instances each write to their own DATA_DIR, so the
 * host is part of "where". The nightly run happens once a school day across all instances.
 */
export type BackupDeps = { db: Db; config: Config; clock: Clock };
type BackupSummary = {
  id: number;
  status: 'completed' | 'failed';
  at: string;
  sizeBytes: number | null;
  host: string;
  path: string | null;
  error: string | null;
};

const FILE_PATTERN = /^muster-\d{4}-\d{2}-\d{2}T[\d-]+Z\.backup\.gz$/;
const backupDirectory = (config: Config) => path.join(config.dataDir, 'backups');

function toSummary(r: BackupRun): BackupSummary {
  return {
    id: r.id,
    status: r.status === 'failed' ? 'failed' : 'completed',
    at: (r.finishedAt ?? r.startedAt).toISOString(),
    sizeBytes: r.bytes,
    host: r.host,
    path: r.filePath,
    error: r.error,
  };
}

/** Keep the newest `keep` backup files this app made in `dir`; nothing else there is touched. */
export function pruneBackups(dir: string, keep: number): string[] {
  if (!fs.existsSync(dir)) return [];
  const ours = fs
    .readdirSync(dir)
    .filter((f) => FILE_PATTERN.test(f))
    .sort()
    .reverse(); // names are UTC timestamps: newest first
  const removed = ours.slice(keep);
  for (const f of removed) fs.rmSync(path.join(dir, f), { force: true });
  return removed;
}

async function runInto(deps: BackupDeps, runId: number, keep: number): Promise<BackupSummary> {
  const now = deps.clock.now();
  const file = path.join(backupDirectory(deps.config), backupFileName(now));
  try {
    const made = await writeBackup(deps.db.$client, file, now);
    await finishRun(deps.db, runId, { status: 'completed', filePath: made.file, bytes: made.bytes, error: null, finishedAt: deps.clock.now() });
    pruneBackups(backupDirectory(deps.config), keep);
    return { id: runId, status: 'completed', at: deps.clock.now().toISOString(), sizeBytes: made.bytes, host: os.hostname(), path: made.file, error: null };
  } catch (err) {
    const error = err instanceof Error ? err.message.slice(0, 500) : 'Backup failed';
    await finishRun(deps.db, runId, { status: 'failed', filePath: null, bytes: null, error, finishedAt: deps.clock.now() });
    return { id: runId, status: 'failed', at: deps.clock.now().toISOString(), sizeBytes: null, host: os.hostname(), path: null, error };
  }
}

/** Back up now (Settings › System, or `npm run db:backup`). A manual run is audited. */
export async function backUpNow(deps: BackupDeps, by: { userId: number | null; ip: string | null; trigger: 'manual' | 'cli' }): Promise<BackupSummary> {
  const { system } = await getSettings(deps.db);
  const runId = await insertRun(deps.db, { trigger: by.trigger, host: os.hostname(), requestedBy: by.userId, startedAt: deps.clock.now() });
  const result = await runInto(deps, runId, system.backupsToKeep);
  if (by.trigger === 'manual') {
    await recordAudit(deps.db, {
      userId: by.userId,
      action: 'Create',
      tableName: 'backups',
      recordId: runId,
      ipAddress: by.ip,
      newValues: { status: result.status, sizeBytes: result.sizeBytes, host: result.host, path: result.path, error: result.error },
      always: true,
    });
  }
  return result;
}

/**
 * The nightly job: once the school-local time passes the backup time of day, the first instance
 * to claim the day's row (a unique index on the local date) makes the backup; every other
 * instance, and every later tick that day, finds it claimed and does nothing.
 */
export async function runScheduledBackup(deps: BackupDeps): Promise<BackupSummary | null> {
  const { attendance, system } = await getSettings(deps.db);
  const now = deps.clock.now();
  const today = localDate(now, attendance.timeZone);
  if (localMinutesOfDay(now, attendance.timeZone) < minutesOfDay(system.backupTimeOfDay)) return null;
  const runId = await claimScheduledRun(deps.db, today, os.hostname(), now);
  if (runId === null) return null;
  return runInto(deps, runId, system.backupsToKeep);
}

/** Minutes after local midnight of an instant in the school's zone. */
function localMinutesOfDay(instant: Date, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).formatToParts(instant);
  const part = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  return part('hour') * 60 + part('minute');
}

export async function lastBackup(db: Db): Promise<BackupSummary | null> {
  const run = await lastCompletedRun(db);
  return run ? toSummary(run) : null;
}

export async function listBackups(db: Db): Promise<BackupSummary[]> {
  return (await recentRuns(db, 30)).filter((r) => r.status !== 'running').map(toSummary);
}
