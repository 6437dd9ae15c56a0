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
  if (reachable) migrations = await migrationsCurrent(db).then((current) => (current ? 'current' : 'pending'), () => 'unknown' as const);
  const ready = reachable && migrations === 'current';
  return { ready, database: reachable ? ('reachable' as const) : ('unreachable' as const), migrations };
}

/**
 * Real facts for the Settings › System tab (PRODUCT.md: no fixed figures): the database, the last
 * backup the app or its CLI made (time, size, host and path), the last retention run. It lives in
 * health, not settings, because backups read the settings: settings importing backups would be a cycle.
 */
export async function systemStatus(db: Db, config: Config) {
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
    return {
      database: { connected: true, latencyMs, ...facts, mode },
      fileStorage: { bytes: 0, note: 'Uploaded files are read, imported and discarded; only their import records are kept.' },
      lastBackup: await lastBackup(db),
      backupNote: `Nightly backups go to ${path.join(config.dataDir, 'backups')} on the instance that makes them; copy them off this machine. No backup has been made yet.`,
      lastRetentionRun: await lastRetentionRun(db),
    };
  } catch {
    return unreachable;
  }
}
