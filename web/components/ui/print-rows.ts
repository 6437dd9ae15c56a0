import type { Table } from '@tanstack/react-table';
import { useCallback, useSyncExternalStore } from 'react';

/**
 * The rows a list prints in place of its page (decision 046: a printed list was the pager's one
 * page). The pager's Print list (table-pagination.tsx) puts every row of the list here while the
 * browser prints; the table (data-table.tsx) prints them instead of the page on screen. Kept by
 * table instance, so two lists on one screen never print each other's rows.
 */
export type PrintRows<T> = { rows: T[]; total: number };

const printing = new WeakMap<Table<never>, PrintRows<unknown>>();
const listeners = new Set<() => void>();

export function setPrintRows<T>(table: Table<T>, rows: PrintRows<T> | null): void {
  const key = table as unknown as Table<never>;
  if (rows) printing.set(key, rows);
  else printing.delete(key);
  for (const l of listeners) l();
}

export function getPrintRows<T>(table: Table<T>): PrintRows<T> | null {
  return (printing.get(table as unknown as Table<never>) as PrintRows<T> | undefined) ?? null;
}

/** The rows the table prints now, or null: it prints what is on screen. */
export function usePrintRows<T>(table: Table<T>): PrintRows<T> | null {
  const subscribe = useCallback((onChange: () => void) => {
    listeners.add(onChange);
    return () => listeners.delete(onChange);
  }, []);
  return useSyncExternalStore(subscribe, () => getPrintRows(table));
}
