import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createDb, type Db } from '../server/db/client.ts';
import { startEmbeddedDatabase } from '../server/db/embedded.ts';
import { migrateDatabase } from '../server/db/migrate.ts';

/**
 * A throwaway migrated database for one benchmark, in a temporary folder: `use` gets it and its URL;
 * afterwards the pool, the server and the folder are gone, whether the benchmark passed or not.
 */
export async function withBenchDatabase(
  o: { name: string; port: number; poolSize: number; settings?: readonly string[] },
  use: (db: Db, url: string) => Promise<void>,
): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `muster-bench-${o.name}-`));
  fs.chmodSync(dataDir, 0o755);
  const pg = await startEmbeddedDatabase({ dataDir, preferredPort: o.port, role: 'app', log: () => {}, settings: o.settings });
  const db = createDb(pg.url, o.poolSize);
  try {
    await migrateDatabase(db);
    await use(db, pg.url);
  } finally {
    await db.$client.end().catch(() => {});
    await pg.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
