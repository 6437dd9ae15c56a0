// The planner's statistics after a bulk write. Autovacuum analyses a table only after a delay and
// a threshold, so rows written by an import at 7:55 may be unknown to the planner at 8:00: the
// check-in's roster lookup then scans every student (6.5 ms a call instead of 0.2 at 10,000).
import { sql } from 'drizzle-orm';
import type { DbOrTx } from './client.ts';

/** A table is analysed once a write changed this share of its rows (or any rows of a table never analysed). */
const ANALYZE_SHARE = 0.05;
/** Fewer changed rows than this never call for an ANALYZE: a small table is planned well enough. */
const ANALYZE_MIN_ROWS = 100;

type WriteCounts = Map<string, number>;

/**
 * The rows written so far per table, by this connection's not yet reported counters
 * (pg_stat_xact_user_tables). Those include earlier transactions of the same pooled connection
 * until it reports them, so a transaction's own writes are the difference between two readings.
 * Temporary tables are left out: they are gone at commit.
 */
export async function tableWriteCounts(tx: DbOrTx): Promise<WriteCounts> {
  const { rows } = await tx.execute<{ name: string; changed: string; known: number }>(sql`
    select quote_ident(x.schemaname) || '.' || quote_ident(x.relname) as name,
           x.n_tup_ins + x.n_tup_upd + x.n_tup_del as changed
      from pg_stat_xact_user_tables x
     where x.schemaname not like 'pg\_temp%' and x.n_tup_ins + x.n_tup_upd + x.n_tup_del > 0`);
  return new Map(rows.map((r) => [r.name, Number(r.changed)]));
}

/** The tables written since `before` enough for their statistics to mislead the planner. */
export async function tablesNeedingStatistics(tx: DbOrTx, before: WriteCounts): Promise<string[]> {
  const now = await tableWriteCounts(tx);
  const changed = [...now].map(([name, n]) => ({ name, rows: n - (before.get(name) ?? 0) })).filter((t) => t.rows >= ANALYZE_MIN_ROWS);
  if (changed.length === 0) return [];
  const { rows } = await tx.execute<{ name: string; known: number }>(sql`
    select n.name, greatest(c.reltuples, 0)::float8 as known
      from unnest(${sql.param(changed.map((t) => t.name))}::text[]) as n(name)
      join pg_class c on c.oid = n.name::regclass`);
  const known = new Map(rows.map((r) => [r.name, Number(r.known)]));
  return changed.filter((t) => t.rows > ANALYZE_SHARE * (known.get(t.name) ?? 0)).map((t) => t.name);
}

/** ANALYZE the named tables (names as tableWriteCounts quotes them), after the writes committed. */
export async function analyzeTables(db: DbOrTx, names: readonly string[]): Promise<void> {
  for (const name of names) await db.execute(sql.raw(`analyze ${name}`));
}

/**
 * ANALYZE `table` if `rowsChanged` (counted by the writer, across connections of a pool) is a
 * large enough share of it for its statistics to mislead the planner. Answers whether it did.
 */
export async function analyzeIfChanged(db: DbOrTx, table: string, rowsChanged: number): Promise<boolean> {
  if (rowsChanged < ANALYZE_MIN_ROWS) return false;
  const { rows } = await db.execute<{ known: number }>(sql`select greatest(reltuples, 0)::float8 as known from pg_class where oid = ${table}::regclass`);
  if (rowsChanged <= ANALYZE_SHARE * Number(rows[0]?.known ?? 0)) return false;
  await analyzeTables(db, [table]);
  return true;
}
