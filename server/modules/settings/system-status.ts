import { sql } from 'drizzle-orm';
import type { Config } from '../../config.ts';
import path from 'node:path';
import type { Db } from '../../db/client.ts';
import { lastBackup } from '../backups/service.ts';

/**
 * Real facts for the Settings › System tab (PRODUCT.md: no fixed figures): the database, the last
 * backup the app or its CLI made (time, size, host and path), the last retention run.
 */
export async function systemStatus(db: Db, config: Config) {
  const started = performance.now();
  try {
    const { rows } = await db.execute<{ size: string; version: string }>(sql`select pg_database_size(current_database())::text as size, current_setting('server_version') as version`);
    const { rows: purge } = await db.execute<{ timestamp: string | null; new_values: { removed?: Record<string, number> } | null }>(
      sql`select timestamp, new_values from audit_logs where action = 'Purge' and table_name = 'retention' order by id desc limit 1`,
    );
    return {
      database: {
        connected: true,
        latencyMs: Math.round((performance.now() - started) * 100) / 100,
        sizeBytes: Number(rows[0]!.size),
        version: rows[0]!.version,
        mode: config.databaseUrl ? ('external' as const) : ('embedded' as const),
      },
      fileStorage: { bytes: 0, note: 'Uploaded files are read, imported and discarded; only their import records are kept.' },
      lastBackup: await lastBackup(db),
      backupNote: `Nightly backups go to ${path.join(config.dataDir, 'backups')} on the instance that makes them; copy them off this machine. No backup has been made yet.`,
      lastRetentionRun: purge[0] ? { at: new Date(purge[0].timestamp!).toISOString(), removed: purge[0].new_values?.removed ?? {} } : null,
    };
  } catch {
    return { database: { connected: false, latencyMs: null, sizeBytes: null, version: null, mode: config.databaseUrl ? ('external' as const) : ('embedded' as const) }, fileStorage: { bytes: 0, note: '' }, lastBackup: null, backupNote: 'The database cannot be reached.', lastRetentionRun: null };
  }
}
