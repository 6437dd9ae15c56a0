// The bulk upsert every import uses (INSERT … SELECT FROM unnest … ON CONFLICT), typed from the
// schema: a shared mechanism of the data floor, so modules keep their own SQL in queries.ts.
import { sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { DbOrTx } from './client.ts';

/** Rows per statement: one INSERT … SELECT FROM unnest(…) per chunk, never one query per row. */
export const CHUNK_ROWS = 1000;

export type PgArrayType = 'text' | 'int' | 'numeric' | 'bool' | 'date' | 'time' | 'timestamptz';

/** A table column written from the file: its value for file row i, and whether re-imports overwrite it. */
export type DbColumn = {
  db: PgColumn;
  type: PgArrayType;
  value: (i: number) => unknown;
  /** false: set on insert only (e.g. role). */
  update?: boolean;
  /** An expression over the unnest column `u.<db name>`, e.g. a cast to date[]. */
  select?: string;
};

const ident = (name: string) => {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`Bad identifier ${name}`);
  return sql.raw(name);
};

/** The returned row: each named column's value, typed from the schema (ids and text, as the driver gives them). */
type Returned<R extends Record<string, PgColumn>> = { [K in keyof R]: R[K]['_']['notNull'] extends true ? R[K]['_']['data'] : R[K]['_']['data'] | null };

/**
 * Multi-row INSERT … ON CONFLICT (key) DO UPDATE in chunks, fed by one array parameter per
 * column (`unnest`), so 100,000 rows are 100 statements. Columns absent from the file are not in
 * `columns`: inserts get the table default, updates leave them alone.
 */
export async function upsertRows<R extends Record<string, PgColumn>>(
  tx: DbOrTx,
  opts: { table: PgTable; conflict: PgColumn; columns: DbColumn[]; rows: readonly number[]; returning: R; touchUpdatedAt?: boolean },
): Promise<Returned<R>[]> {
  const out: Returned<R>[] = [];
  const returning = sql.join(
    Object.entries(opts.returning).map(([key, column]) => sql`${ident(column.name)} as ${sql.identifier(key)}`),
    sql`, `,
  );
  const names = opts.columns.map((c) => ident(c.db.name));
  const updates = opts.columns.filter((c) => c.update !== false && c.db.name !== opts.conflict.name).map((c) => sql`${ident(c.db.name)} = excluded.${ident(c.db.name)}`);
  if (opts.touchUpdatedAt !== false) updates.push(sql`updated_at = now()`);
  const onConflict: SQL = updates.length > 0 ? sql`do update set ${sql.join(updates, sql`, `)}` : sql`do nothing`;
  for (let start = 0; start < opts.rows.length; start += CHUNK_ROWS) {
    const chunk = opts.rows.slice(start, start + CHUNK_ROWS);
    const arrays = opts.columns.map((c) => sql`${sql.param(chunk.map((i) => c.value(i) ?? null))}::${sql.raw(c.type)}[]`);
    const selects = opts.columns.map((c) => (c.select ? sql.raw(c.select) : sql`u.${ident(c.db.name)}`));
    const { rows } = await tx.execute<Returned<R>>(sql`
      insert into ${opts.table} (${sql.join(names, sql`, `)})
      select ${sql.join(selects, sql`, `)} from unnest(${sql.join(arrays, sql`, `)}) as u(${sql.join(names, sql`, `)})
      on conflict (${ident(opts.conflict.name)}) ${onConflict}
      returning ${returning}`);
    out.push(...(rows as Returned<R>[]));
  }
  return out;
}

/** `= any($1::type[])` with the whole list as one parameter. */
export const anyOf = (values: readonly unknown[], type: PgArrayType) => sql`any(${sql.param([...values])}::${sql.raw(type)}[])`;

/** Text for a date[] column from a list of 'YYYY-MM-DD' (validated) dates. */
export const dateArrayLiteral = (dates: readonly string[] | null) => `{${(dates ?? []).join(',')}}`;
