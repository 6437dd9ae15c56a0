import path from 'node:path';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { migrationsCurrent } from '../../db/migrate.ts';
import { pingDatabase } from '../../db/ping.ts';
import { lastRetentionRun } from '../audit-logs/service.ts';
import { lastBackup } from '../backups/service.ts';
import { readDatabaseFacts } from './queries.ts';

/** Liveness: reports the database but never fails because of it. */
export async function checkHealth(db: Db) {
  const latencyMs = await pingDatabase(db);
  const status = latencyMs === null ? ('error' as const) : ('healthy' as const);
  return { status, database: { status, latencyMs }, uptimeSeconds: Math.round(process.uptime()) };
}

/** Readiness: the database answers and its schema is this version's. */
export async function checkReadiness(db: Db) {
  const reachable = (await pingDatabase(db)) !== null;
  let migrations: 'current' | 'pending' | 'unknown' = 'unknown';
  if (reachable)
    migrations = await migrationsCurrent(db).then(
      (current) => (current ? 'current' : 'pending'),
      () => 'unknown' as const,
    );
  const ready = reachable && migrations === 'current';
  return { ready, database: reachable ? ('reachable' as const) : ('unreachable' as const), migrations };
}

/**
 * Real facts for the Settings › System tab (PRODUCT.md: no fixed figures): the database, the last
 * backup the app or its CLI made (time and size; host and path only for `showBackupLocation`, the
 * roles with backups:view), the last retention run. It lives in
 * health, not settings, because backups read the settings: settings importing backups would be a cycle.
 */
export async function systemStatus(db: Db, config: Config, opts: { showBackupLocation: boolean }) {
  const mode = config.databaseUrl ? ('external' as const) : ('embedded' as const);
  const unreachable = {
    database: { connected: false, latencyMs: null, sizeBytes: null, version: null, mode },
    fileStorage: { bytes: 0, note: '' },
    lastBackup: null,
    backupNote: 'The database cannot be reached.',
    lastRetentionRun: null,
  };
  const latencyMs = await pingDatabase(db);
  if (latencyMs === null) return unreachable;
  try {
    const facts = await readDatabaseFacts(db);
    const backup = await lastBackup(db);
    // Where backups are (a host, an absolute path) is for the roles the permission table lets see backups.
    const where = opts.showBackupLocation ? path.join(config.dataDir, 'backups') : 'the backups folder of the data directory';
    return {
      database: { connected: true, latencyMs, ...facts, mode },
      fileStorage: { bytes: 0, note: 'Uploaded files are read, imported and discarded; only their import records are kept.' },
      lastBackup: backup && !opts.showBackupLocation ? { ...backup, host: null, path: null } : backup,
      backupNote: `Nightly backups go to ${where} on the instance that makes them; copy them off this machine. No backup has been made yet.`,
      lastRetentionRun: await lastRetentionRun(db),
    };
  } catch {
    return unreachable;
  }
}
