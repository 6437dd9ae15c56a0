import { sql } from 'drizzle-orm';
import type { DbOrTx } from './client.ts';

/**
 * The one database ping (health, readiness, Settings › System, dashboard): the round trip of
 * `select 1` in milliseconds, or null when the database does not answer.
 */
export async function pingDatabase(db: DbOrTx): Promise<number | null> {
  const started = performance.now();
  try {
    await db.execute(sql`select 1`);
    return Math.round((performance.now() - started) * 100) / 100;
  } catch {
    return null;
  }
}
