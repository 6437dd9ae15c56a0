// npm run db:destroy: the embedded database of a school that leaves deleted, DATA_DIR and its cluster home with it (docs/decisions/036).
import fs from 'node:fs';
import path from 'node:path';
import { tryLockDirectory } from './directory-lock.ts';
import { claimedElsewhere, clusterHomeFor, DATA_MARKER, HOME_MARKER, isClusterHome, lstatOrNull, readMarker } from './cluster-home.ts';
import { clearLeftovers, passwordFile } from './embedded.ts';

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
