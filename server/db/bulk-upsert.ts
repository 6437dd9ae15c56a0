// The bulk upserts the imports use (INSERT … SELECT FROM unnest … ON CONFLICT, or from a staging
// table filled by COPY), typed from the schema: a shared mechanism of the data floor, so modules
// keep their own SQL in queries.ts.
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import type { DbOrTx, Tx } from './client.ts';

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

/** ON CONFLICT (key) DO UPDATE of the columns that re-imports overwrite (and updated_at), or DO NOTHING. */
function onConflictClause(opts: { conflict: PgColumn; columns: DbColumn[]; touchUpdatedAt?: boolean }): SQL {
  const updates = opts.columns
    .filter((c) => c.update !== false && c.db.name !== opts.conflict.name)
    .map((c) => sql`${ident(c.db.name)} = excluded.${ident(c.db.name)}`);
  if (opts.touchUpdatedAt !== false) updates.push(sql`updated_at = now()`);
  return sql`on conflict (${ident(opts.conflict.name)}) ${updates.length > 0 ? sql`do update set ${sql.join(updates, sql`, `)}` : sql`do nothing`}`;
}

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
  const onConflict = onConflictClause(opts);
  for (let start = 0; start < opts.rows.length; start += CHUNK_ROWS) {
    const chunk = opts.rows.slice(start, start + CHUNK_ROWS);
    const arrays = opts.columns.map((c) => sql`${sql.param(chunk.map((i) => c.value(i) ?? null))}::${sql.raw(c.type)}[]`);
    const selects = opts.columns.map((c) => (c.select ? sql.raw(c.select) : sql`u.${ident(c.db.name)}`));
    const { rows } = await tx.execute<Returned<R>>(sql`
      insert into ${opts.table} (${sql.join(names, sql`, `)})
      select ${sql.join(selects, sql`, `)} from unnest(${sql.join(arrays, sql`, `)}) as u(${sql.join(names, sql`, `)})
      ${onConflict}
      returning ${returning}`);
    out.push(...(rows as Returned<R>[]));
  }
  return out;
}

/** One value in COPY's text format: \N for null, backslash escapes for what would end a field or a row. */
function copyText(v: unknown): string {
  if (v == null) return '\\N';
  if (typeof v === 'boolean') return v ? 't' : 'f';
  if (typeof v === 'number') return String(v);
  if (v instanceof Date) return v.toISOString();
  if (typeof v !== 'string') throw new Error(`A ${typeof v} cannot be staged`);
  return /[\\\t\n\r]/.test(v) ? v.replace(/[\\\t\n\r]/g, (c) => (c === '\\' ? '\\\\' : c === '\t' ? '\\t' : c === '\n' ? '\\n' : '\\r')) : v;
}

/** The connection a transaction runs on: COPY needs it, and a temporary table lives on it. */
function connectionOf(tx: Tx): pg.ClientBase {
  const client = (tx as unknown as { session?: { client?: pg.ClientBase } }).session?.client;
  if (!client || typeof client.query !== 'function' || 'totalCount' in client) throw new Error('Staging runs inside a transaction');
  return client;
}

/**
 * A temporary table of rows on their way into a table, dropped at commit: filled part by part
 * with COPY (the cheapest way into PostgreSQL, and nothing of the file kept in memory meanwhile),
 * then checked and merged with set-based statements. `ord` keeps the file's order.
 */
export class StagingTable {
  private staged = 0;
  private constructor(
    private readonly tx: Tx,
    /** The table's name, for the module queries that read it. */
    readonly name: string,
    private readonly columns: readonly { name: string; type: PgArrayType }[],
  ) {}

  static async create(tx: Tx, name: string, columns: readonly DbColumn[]): Promise<StagingTable> {
    ident(name);
    const staging = new StagingTable(
      tx,
      name,
      columns.map((c) => ({ name: c.db.name, type: c.type })),
    );
    await tx.execute(
      sql`create temporary table ${ident(name)} (ord int, ${sql.join(
        columns.map((c) => sql`${ident(c.db.name)} ${sql.raw(c.type)}`),
        sql`, `,
      )}) on commit drop`,
    );
    return staging;
  }

  /** COPY rows `rows` of `columns` (the same columns the table was made with, values of this part). */
  async copy(columns: readonly DbColumn[], rows: readonly number[]): Promise<void> {
    if (columns.map((c) => c.db.name).join() !== this.columns.map((c) => c.name).join()) throw new Error('Staged columns differ from the staging table');
    const first = this.staged;
    this.staged += rows.length;
    const lines = function* () {
      for (let start = 0; start < rows.length; start += CHUNK_ROWS) {
        let piece = '';
        for (let k = start; k < Math.min(start + CHUNK_ROWS, rows.length); k++) {
          piece += String(first + k);
          for (const c of columns) piece += '\t' + copyText(c.value(rows[k]!));
          piece += '\n';
        }
        yield piece;
      }
    };
    const names = ['ord', ...this.columns.map((c) => c.name)].join(', ');
    await pipeline(Readable.from(lines()), connectionOf(this.tx).query(copyFrom(`copy ${this.name} (${names}) from stdin`)));
  }

  /** INSERT … SELECT … ON CONFLICT (key) DO UPDATE of every staged row into `table`, in file order. */
  async mergeInto(opts: { table: PgTable; conflict: PgColumn; columns: DbColumn[]; touchUpdatedAt?: boolean }): Promise<void> {
    const names = opts.columns.map((c) => ident(c.db.name));
    const selects = opts.columns.map((c) => (c.select ? sql.raw(c.select) : sql`u.${ident(c.db.name)}`));
    await this.tx.execute(sql`
      insert into ${opts.table} (${sql.join(names, sql`, `)})
      select ${sql.join(selects, sql`, `)} from ${ident(this.name)} u order by u.ord
      ${onConflictClause(opts)}`);
  }
}

/**
 * An int[] parameter as PostgreSQL's array text: pg's own conversion escapes each element in
 * JavaScript, and a compliance read sends a thousand ids to a dozen statements per batch (a tenth of
 * the memory it allocated).
 */
export function intArrayText(values: readonly unknown[]): string {
  for (const v of values) if (!Number.isSafeInteger(v)) throw new TypeError(`not an integer id: ${String(v)}`);
  return `{${values.join(',')}}`;
}

/** `= any($1::type[])` with the whole list as one parameter. */
export const anyOf = (values: readonly unknown[], type: PgArrayType) =>
  type === 'int' ? sql`any(${intArrayText(values)}::int[])` : sql`any(${sql.param([...values])}::${sql.raw(type)}[])`;

/**
 * `column = any($1::int[])`: drizzle's inArray sends one parameter per id, which PostgreSQL parses
 * and plans one by one (a tenth of a compliance read's statements' time over a thousand students).
 */
export const anyInt = (column: SQLWrapper, ids: readonly number[]) => sql`${column} = ${anyOf(ids, 'int')}`;

/** Text for a date[] column from a list of 'YYYY-MM-DD' (validated) dates. */
export const dateArrayLiteral = (dates: readonly string[] | null) => `{${(dates ?? []).join(',')}}`;
