import { loadConfig } from '../config.ts';
import type { Db } from '../db/client.ts';
import { openDatabase } from '../db/connect.ts';
import { serverTimeZone } from '../lib/school-time.ts';
import { adoptServerTimeZone } from '../modules/settings/service.ts';

/**
 * Run a CLI command against the database `npm start` uses: DATABASE_URL, or the embedded one
 * (borrowed when the app is running, else started for the command and stopped after).
 */
export async function runCli(command: (db: Db) => Promise<void>): Promise<void> {
  let database: Awaited<ReturnType<typeof openDatabase>> | undefined;
  try {
    database = await openDatabase(loadConfig(), 'cli', (m) => console.error(`[muster] ${m}`));
    // A first user made here (user:create, the seed) finds the school in the server's zone, as the app would.
    await adoptServerTimeZone(database.db, serverTimeZone());
    await command(database.db);
    await database.close();
  } catch (err) {
    await database?.close().catch(() => {});
    const e = err as { message?: string; details?: { errors?: { field: string; message: string }[] } };
    console.error(`Error: ${e.message ?? String(err)}`);
    for (const fe of e.details?.errors ?? []) console.error(`  ${fe.field}: ${fe.message}`);
    process.exit(1);
  }
}
