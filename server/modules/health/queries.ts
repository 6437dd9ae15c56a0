import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';

/** The database's size on disk and server version (Settings › System). */
export async function readDatabaseFacts(db: DbOrTx): Promise<{ sizeBytes: number; version: string }> {
  const { rows } = await db.execute<{ size: string; version: string }>(
    sql`select pg_database_size(current_database())::text as size, current_setting('server_version') as version`,
  );
  return { sizeBytes: Number(rows[0]!.size), version: rows[0]!.version };
}
