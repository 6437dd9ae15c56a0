import { loadConfig } from '../config.ts';
import type { Db } from '../db/client.ts';
import { openDatabase } from '../db/connect.ts';

/**
 * Run a CLI command against the database `npm start` uses: DATABASE_URL, or the embedded one
 * (borrowed when the app is running, else started for the command and stopped after).
 */
export async function runCli(command: (db: Db) => Promise<void>): Promise<void> {
  let database: Awaited<ReturnType<typeof openDatabase>> | undefined;
  try {
    database = await openDatabase(loadConfig(), 'cli', (m) => console.error(`[muster] ${m}`));
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
