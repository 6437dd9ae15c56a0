import path from 'node:path';
import { loadConfig } from '../config.ts';
import { backupFileName, writeBackup } from '../db/backup.ts';
import { runCli } from './run-cli.ts';

// npm run db:backup: a compressed backup of the whole school into DATA_DIR/backups.
await runCli(async (db) => {
  const file = path.join(loadConfig().dataDir, 'backups', backupFileName(new Date()));
  const made = await writeBackup(db.$client, file);
  console.log(`Backup written: ${made.file}`);
  console.log(`  ${made.tables} tables, ${made.rows} rows, ${(made.bytes / 1024).toFixed(1)} KiB, in ${made.ms} ms`);
});
