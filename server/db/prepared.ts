import { createHash } from 'node:crypto';
import type { SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { DbOrTx } from './client.ts';

const dialect = new PgDialect();
// Statement text → its name. The texts come from the code (values travel as parameters), so this
// holds one entry per hot statement, never one per request.
const names = new Map<string, string>();

/**
 * `db.execute(query)` as a named prepared statement: each pooled connection parses and plans its text
 * once, and PostgreSQL may settle on one generic plan. Meant for the statements a morning rush runs
 * thousands of times (the check-in's reads and writes), whose planning cost more than their running
 * (pg_stat_statements in `npm run bench -- checkin`: 0.3–0.5 ms to plan, 0.1–0.2 ms to run).
 * Rows come back as from `db.execute`, with the same type parsers.
 */
export async function executePrepared<T extends Record<string, unknown>>(db: DbOrTx, query: SQL): Promise<{ rows: T[] }> {
  const q = dialect.sqlToQuery(query);
  let name = names.get(q.sql);
  if (!name) {
    name = `p_${createHash('sha1').update(q.sql).digest('hex').slice(0, 24)}`;
    names.set(q.sql, name);
  }
  return (await db._.session.prepareQuery(q, undefined, name, false).execute()) as { rows: T[] };
}
