import { loadConfig } from '../config.ts';
import { backUpNow } from '../modules/backups/service.ts';
import { systemClock } from '../lib/clock.ts';
import { runCli } from './run-cli.ts';

// npm run db:backup: a compressed backup of the whole school into DATA_DIR/backups, recorded with
// the app's backups (Settings › System shows it) and pruned to the number the settings keep.
await runCli(async (db) => {
  const started = performance.now();
  const made = await backUpNow({ db, config: loadConfig(), clock: systemClock }, { userId: null, ip: null, trigger: 'cli' });
  if (made.status === 'failed') throw new Error(`Backup failed: ${made.error}`);
  console.log(`Backup written: ${made.path}`);
  console.log(`  ${((made.sizeBytes ?? 0) / 1024).toFixed(1)} KiB in ${Math.round(performance.now() - started)} ms`);
});
