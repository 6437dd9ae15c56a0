import { buildApp } from './app.ts';
import { loadConfig } from './config.ts';
import { openDatabase } from './db/connect.ts';
import { startJobs } from './jobs/scheduler.ts';
import { openFieldCipher } from './lib/field-cipher.ts';
import { loggerOptions } from './lib/logging.ts';
import { recoverInterruptedUploads } from './modules/imports/upload-log.ts';
import { createSetupCodeIfNeeded } from './modules/auth/service.ts';

async function main() {
  const config = loadConfig();
  const log = (m: string) => console.log(`[muster] ${m}`);
  const started = Date.now();
  const database = await openDatabase(config, 'app', log);
  const closeAndThrow = async (err: unknown): Promise<never> => {
    await database.close();
    throw err;
  };
  // Every instance on this database must hold the same encryption key (else refuse to start).
  const cipher = await openFieldCipher(database.db, config.encryptionKey, config.dataDir).catch(closeAndThrow);
  // Uploads whose import a stop interrupted are marked failed; this instance joins the live ones.
  const presence = await recoverInterruptedUploads(database, log).catch(closeAndThrow);
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
  const app = await buildApp({ db: database.db, config, cipher }, { logger: loggerOptions(config.logLevel) });
  const jobs = startJobs({ db: database.db, log: app.log });

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    log(`${signal} received, shutting down`);
    jobs.stop();
    await app.close().catch(() => {});
    await presence.leave();
    await database.close();
    log('stopped cleanly');
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (err) {
    await presence.leave();
    await database.close();
    throw err;
  }
  log(`ready in ${Date.now() - started} ms on http://localhost:${config.port} (${config.databaseUrl ? 'DATABASE_URL' : `embedded PostgreSQL in ${config.dataDir}`})`);
}

main().catch((err) => {
  console.error(`[muster] failed to start: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
