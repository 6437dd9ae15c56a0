import type { PgColumn } from 'drizzle-orm/pg-core';
import type { Tx } from '../../db/client.ts';
import type { FieldCipher } from '../../lib/field-cipher.ts';
import { zonedInstant } from '../../lib/school-time.ts';
import type { DbColumn, PgArrayType } from '../../db/bulk-upsert.ts';
import type { Problems } from './problems.ts';
import type { Sheet } from './sheet.ts';

export type PlanContext = {
  tx: Tx;
  sheet: Sheet;
  problems: Problems;
  /** The school's time zone: dates and times without an offset are school time. */
  timeZone: string;
  /** The school-local date today. */
  today: string;
  cipher: FieldCipher;
};

/**
 * What an import would do once every row is valid: the counts a dry run reports, and the write
 * the real import runs in its transaction. Handlers check cross-row rules and the database
 * (foreign keys, duplicates, other records' unique values) before answering.
 */
export type ImportPlan = { created: number; updated: number; write: (tx: Tx) => Promise<void> };
export type ImportHandler = (ctx: PlanContext) => Promise<ImportPlan>;

/**
 * A handler that takes the file a part at a time, for the one type a school imports by the
 * 100,000 (students): each part is checked, and staged while the file is still clean, as it is
 * read; `finish` runs the checks that need every row and answers the plan.
 */
export type ImportPartsPlanner = { add: (part: Sheet) => Promise<void>; finish: () => Promise<ImportPlan> };
export type ImportPartsHandler = { inParts: (ctx: Omit<PlanContext, 'sheet'>) => Promise<ImportPartsPlanner> };

/**
 * The key column's values, flagging a key seen on an earlier row (of this sheet, or of the earlier
 * parts of the file whose keys `seen` holds). Keys are compared exactly, as the database's unique
 * index does.
 */
export function keysOf(sheet: Sheet, problems: Problems, column: string, seen = new Map<string, number>()): (string | null)[] {
  const keys: (string | null)[] = new Array(sheet.size);
  for (let i = 0; i < sheet.size; i++) {
    const k = sheet.text(column, i);
    keys[i] = k;
    if (k == null) continue;
    const first = seen.get(k);
    if (first !== undefined) problems.add(sheet.row(i), column, `Duplicate ${column}: also on row ${first}`, k);
    else seen.set(k, sheet.row(i));
  }
  return keys;
}

/** Flag a value of a unique column repeated inside the file (compared after `norm`). */
export function flagDuplicates(sheet: Sheet, problems: Problems, column: string, norm: (v: string) => string = (v) => v): void {
  if (!sheet.has(column)) return;
  const seen = new Map<string, number>();
  for (let i = 0; i < sheet.size; i++) {
    const v = sheet.text(column, i);
    if (v == null) continue;
    const first = seen.get(norm(v));
    if (first !== undefined) problems.add(sheet.row(i), column, `Duplicate ${column}: also on row ${first}`, v);
    else seen.set(norm(v), sheet.row(i));
  }
}

/** Rows whose key is new, and rows whose key names an existing record. */
export function splitByExisting(keys: readonly (string | null)[], existing: ReadonlyMap<string, unknown>) {
  let created = 0;
  let updated = 0;
  for (const k of keys) {
    if (k == null) continue;
    if (existing.has(k)) updated += 1;
    else created += 1;
  }
  return { created, updated };
}

/** A reference cell resolved by SIS id first, then by numeric id. */
export function resolveRef<T>(raw: string, bySis: ReadonlyMap<string, T>, byId: ReadonlyMap<number, T>): T | undefined {
  const found = bySis.get(raw);
  if (found !== undefined) return found;
  return /^\d{1,9}$/.test(raw) ? byId.get(Number(raw)) : undefined;
}

/** 'YYYY-MM-DDTHH:MM:SS[offset]' from the parser → an instant; without an offset it is school time. */
function toInstant(v: string | null, timeZone: string): string | null {
  if (v == null) return null;
  if (/(Z|[+-]\d{2}:?\d{2})$/.test(v)) return new Date(v.replace(/([+-]\d{2})(\d{2})$/, '$1:$2')).toISOString();
  const [date, time] = v.split('T') as [string, string];
  const [h, m, s] = time.split(':').map(Number) as [number, number, number];
  return new Date(zonedInstant(date, h * 60 + m, timeZone).getTime() + s * 1000).toISOString();
}

/** Columns copied as parsed, for those present in the file: [file column, table column, array type]. */
export function copiedColumns(sheet: Sheet, specs: readonly (readonly [string, PgColumn, PgArrayType])[]): DbColumn[] {
  return specs.filter(([name]) => sheet.has(name)).map(([name, db, type]) => ({ db, type, value: (i: number) => sheet.value(name, i) }));
}

export function syncDateColumn(sheet: Sheet, timeZone: string, column: PgColumn): DbColumn[] {
  return sheet.has('lastSyncDate') ? [{ db: column, type: 'timestamptz', value: (i) => toInstant(sheet.text('lastSyncDate', i), timeZone) }] : [];
}

/** Indices 0..n-1 of the rows to write. */
export const allRows = (sheet: Sheet) => Array.from({ length: sheet.size }, (_, i) => i);
