import pg from 'pg';
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.ts';
import { LOCK_CLASSES } from '../db/advisory-locks.ts';

/**
 * Which Muster instances are running on this database, told by PostgreSQL itself: every instance
 * holds one shared advisory lock on a connection of its own for as long as it runs. The lock goes
 * when the process stops, crashes or loses its connection, so a count of the other holders is a
 * count of live instances, with no heartbeat table and no clock to trust.
 */
const LOCK_CLASS = LOCK_CLASSES.instancePresence;
const LOCK_ID = 1;

export type Presence = {
  /** Live instances other than this one when it joined. */
  others: number;
  /**
   * This instance's identity while it holds the lock: its presence connection's backend pid and
   * start time (a pid alone may be reused after the connection ends). Null while rejoining.
   */
  identity: () => string | null;
  leave: () => Promise<void>;
};

// The same expression in both places: what an instance calls itself and what others see of it.
const IDENTITY_SQL = `a.pid || ':' || floor(extract(epoch from a.backend_start) * 1000)::bigint`;
const HOLDERS_SQL = `from pg_locks l join pg_stat_activity a on a.pid = l.pid
  where l.locktype = 'advisory' and l.database = (select oid from pg_database where datname = current_database())
    and l.classid = ${LOCK_CLASS} and l.objid = ${LOCK_ID} and l.objsubid = 2 and l.granted`;

/** The identities of every instance holding the presence lock now. */
export async function liveInstanceIds(db: DbOrTx): Promise<string[]> {
  const { rows } = await db.execute<{ id: string }>(sql.raw(`select ${IDENTITY_SQL} as id ${HOLDERS_SQL}`));
  return rows.map((r) => r.id);
}

async function ownIdentity(client: pg.Client): Promise<string> {
  const { rows } = await client.query<{ id: string }>(`select ${IDENTITY_SQL} as id from pg_stat_activity a where a.pid = pg_backend_pid()`);
  return rows[0]!.id;
}

const countOthers = async (client: pg.Client): Promise<number> => {
  // Two-key advisory locks appear with classid = key 1, objid = key 2, objsubid = 2.
  const { rows } = await client.query<{ n: number }>(
    `select count(*)::int as n from pg_locks
      where locktype = 'advisory' and database = (select oid from pg_database where datname = current_database())
        and classid = $1 and objid = $2 and objsubid = 2 and granted and pid <> pg_backend_pid()`,
    [LOCK_CLASS, LOCK_ID],
  );
  return rows[0]!.n;
};

async function connectAndLock(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url });
  // A lost connection must not crash the process: the instance only becomes invisible until it rejoins.
  client.on('error', () => {});
  await client.connect();
  try {
    await client.query('select pg_advisory_lock_shared($1, $2)', [LOCK_CLASS, LOCK_ID]);
  } catch (err) {
    await client.end().catch(() => {});
    throw err;
  }
  return client;
}

/** Join the running instances (see above); `leave` on shutdown. Rejoins by itself after a lost connection. */
export async function joinInstances(url: string, opts: { rejoinMs?: number } = {}): Promise<Presence> {
  let client: pg.Client | null = await connectAndLock(url);
  let identity: string | null = await ownIdentity(client);
  let left = false;
  let timer: NodeJS.Timeout | null = null;
  const rejoin = () => {
    if (left || timer) return;
    timer = setTimeout(() => {
      timer = null;
      connectAndLock(url)
        .then(async (c) => {
          if (left) return c.end();
          client = c;
          identity = await ownIdentity(c);
          watch(c);
        })
        .catch(rejoin);
    }, opts.rejoinMs ?? 5000);
    timer.unref();
  };
  const watch = (c: pg.Client) => {
    c.on('end', () => {
      if (client !== c) return;
      client = null;
      identity = null;
      rejoin();
    });
  };
  watch(client);
  const others = await countOthers(client);
  return {
    others,
    identity: () => identity,
    leave: async () => {
      left = true;
      if (timer) clearTimeout(timer);
      const c = client;
      client = null;
      await c?.end().catch(() => {});
    },
  };
}
