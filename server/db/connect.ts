import type { Config } from '../config.ts';
import { APP_CONNECTION_NAME, createDb, type Db } from './client.ts';
import { startEmbeddedDatabase } from './embedded.ts';
import { migrateDatabase } from './migrate.ts';

type Database = { db: Db; url: string; close: () => Promise<void> };

/**
 * The database `npm start` uses: DATABASE_URL when set, else the embedded server under DATA_DIR.
 * CLI commands call this too, so they reach the same data whether or not the app is running.
 */
export async function openDatabase(config: Config, role: 'app' | 'cli', log?: (m: string) => void): Promise<Database> {
  const embedded = config.databaseUrl ? null : await startEmbeddedDatabase({ dataDir: config.dataDir, preferredPort: config.embeddedPgPort, role, log });
  const url = config.databaseUrl ?? embedded!.url;
  const db = role === 'app' ? createDb(url, 20, APP_CONNECTION_NAME) : createDb(url, 4, 'muster-cli');
  try {
    await migrateDatabase(db);
  } catch (err) {
    await db.$client.end().catch(() => {});
    await embedded?.stop();
    throw err;
  }
  return {
    db,
    url,
    close: async () => {
      await db.$client.end().catch(() => {});
      await embedded?.stop();
    },
  };
}
