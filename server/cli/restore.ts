import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { readBackupHeader, restoreBackup } from '../db/backup.ts';
import { APP_CONNECTION_NAME } from '../db/client.ts';
import { runCli } from './run-cli.ts';

// npm run db:restore -- FILE [--force]: replace the whole school's data with a backup.
const { positionals, values } = parseArgs({ allowPositionals: true, options: { force: { type: 'boolean' } } });
const file = positionals[0] ? path.resolve(positionals[0]) : null;
if (!file || !fs.existsSync(file)) {
  console.error(file ? `No such file: ${file}` : 'Usage: npm run db:restore -- FILE [--force]   (backups are in DATA_DIR/backups)');
  process.exit(2);
}

const SHOWN = ['students', 'users', 'courses', 'schedules', 'attendance_records', 'audit_logs'];

await runCli(async (db) => {
  const header = await readBackupHeader(file);
  const { rows: running } = await db.$client.query<{ n: number }>(
    'select count(*)::int as n from pg_stat_activity where application_name = $1 and datname = current_database()',
    [APP_CONNECTION_NAME],
  );
  if (running[0]!.n > 0 && !values.force) {
    throw new Error('Muster is running on this database. Stop it first (or pass --force to restore under it; signed-in users are signed out).');
  }
  console.log(`Restoring the backup made ${header.createdAt}. It replaces ALL current data:`);
  for (const table of SHOWN) {
    const { rows } = await db.$client.query<{ n: number }>(`select count(*)::int as n from "${table}"`);
    const fromBackup = header.tables.find((t) => t.name === table)?.rows ?? 0;
    console.log(`  ${table.padEnd(20)} now ${String(rows[0]!.n).padStart(8)}  →  backup ${String(fromBackup).padStart(8)}`);
  }
  const done = await restoreBackup(db.$client, file);
  console.log(`Restored ${done.tables} tables, ${done.rows} rows in ${done.ms} ms. Everyone must sign in again.`);
});
