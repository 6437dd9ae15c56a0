import path from 'node:path';
import readline from 'node:readline/promises';
import { parseArgs } from 'node:util';
import { loadConfig } from '../config.ts';
import { destroyEmbeddedData, type DestroyPlan } from '../db/embedded-destroy.ts';

// npm run db:destroy -- --yes: for a school that leaves, delete its embedded database for good:
// DATA_DIR entirely (the cluster, also its /var/lib/muster home when linked, the password, the
// encryption key, the backups). Refused while the app runs; without --yes, asks for DATA_DIR's path.
const { values } = parseArgs({ options: { yes: { type: 'boolean' } } });
const config = loadConfig();

if (config.databaseUrl) {
  console.error(
    'DATABASE_URL is set: db:destroy only removes the embedded database under DATA_DIR, never a PostgreSQL server of yours. ' +
      'Drop that database with your own tools. Nothing was removed.',
  );
  process.exit(2);
}

function show(plan: DestroyPlan): void {
  for (const r of plan.remove) console.log(`  ${r.path}  (${r.what})`);
  for (const k of plan.kept) console.log(`  left in place: ${k}`);
}

async function confirm(plan: DestroyPlan): Promise<boolean> {
  console.log('This deletes, for good:');
  show(plan);
  if (values.yes) return true;
  if (!process.stdin.isTTY) {
    console.error('Nothing was removed. To confirm, run: npm run db:destroy -- --yes');
    return false;
  }
  const rl = readline.createInterface({ input: process.stdin, output: process.stdout });
  const answer = await rl.question(`Type the data directory's path (${plan.dataDir}) to confirm: `);
  rl.close();
  if (answer.trim() && path.resolve(answer.trim()) === plan.dataDir) return true;
  console.error('That is not the data directory. Nothing was removed.');
  return false;
}

try {
  const done = await destroyEmbeddedData({ dataDir: config.dataDir, confirm, log: (m) => console.error(`[muster] ${m}`) });
  if (!done) process.exit(1);
  if (done.remove.length === 0) {
    console.log(`Nothing to remove: ${config.dataDir} does not exist.`);
    for (const k of done.kept) console.log(`  left in place: ${k}`);
  } else {
    console.log('Removed:');
    for (const r of done.remove) console.log(`  ${r.path}`);
    for (const k of done.kept) console.log(`Left in place: ${k}`);
  }
  if (config.encryptionKey) console.log('ENCRYPTION_KEY is set in the environment: remove it from the service configuration too.');
} catch (err) {
  console.error(`Error: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
}
