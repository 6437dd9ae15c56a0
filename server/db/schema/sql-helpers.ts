import { sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';

/** `col is null or col in ('a','b')` for check constraints; values are our own constants. */
export function inList(column: AnyPgColumn, values: readonly string[]): SQL {
  const list = sql.raw(values.map((v) => `'${v.replace(/'/g, "''")}'`).join(', '));
  return sql`${column} is null or ${column} in (${list})`;
}
