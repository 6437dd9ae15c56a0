import pg from 'pg';

/**
 * Which Muster instances are running on this database, told by PostgreSQL itself: every instance
 * holds one shared advisory lock on a connection of its own for as long as it runs. The lock goes
 * when the process stops, crashes or loses its connection, so a count of the other holders is a
 * count of live instances, with no heartbeat table and no clock to trust.
 */
const LOCK_CLASS = 727102;
const LOCK_ID = 1;

export type Presence = {
  /** Live instances other than this one when it joined. */
  others: number;
  leave: () => Promise<void>;
};

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
  let left = false;
  let timer: NodeJS.Timeout | null = null;
  const rejoin = () => {
    if (left || timer) return;
    timer = setTimeout(() => {
      timer = null;
      connectAndLock(url)
        .then((c) => {
          if (left) return c.end();
          client = c;
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
      rejoin();
    });
  };
  watch(client);
  const others = await countOthers(client);
  return {
    others,
    leave: async () => {
      left = true;
      if (timer) clearTimeout(timer);
      const c = client;
      client = null;
      await c?.end().catch(() => {});
    },
  };
}
