import { buildApp } from './app.ts';
import { loadConfig } from './config.ts';
import { openDatabase } from './db/connect.ts';
import { startJobs } from './jobs/scheduler.ts';
import { createSetupCodeIfNeeded } from './modules/auth/service.ts';

async function main() {
  const config = loadConfig();
  const log = (m: string) => console.log(`[muster] ${m}`);
  const started = Date.now();
  const database = await openDatabase(config, 'app', log);
  // First run: the setup page asks for this code, so only someone who can read this console
  // (not whoever on the network reaches the page first) becomes the first Super Administrator.
  const setupCode = await createSetupCodeIfNeeded(database.db).catch(async (err: unknown) => {
    await database.close();
    throw err;
  });
  if (setupCode) {
    log('No user exists yet. Open the app and create the first Super Administrator with this one-time code:');
    console.log(`Setup code: ${setupCode}`);
  }
  const app = await buildApp(
    { db: database.db, config },
    { logger: { level: config.logLevel, ...(process.stdout.isTTY ? {} : {}) } },
  );
  const jobs = startJobs({ db: database.db, log: app.log });

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    log(`${signal} received, shutting down`);
    jobs.stop();
    await app.close().catch(() => {});
    await database.close();
    log('stopped cleanly');
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (err) {
    await database.close();
    throw err;
  }
  log(`ready in ${Date.now() - started} ms on http://localhost:${config.port} (${config.databaseUrl ? 'DATABASE_URL' : `embedded PostgreSQL in ${config.dataDir}`})`);
}

main().catch((err) => {
  console.error(`[muster] failed to start: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
