import { flexRender, type RowData, type Table } from '@tanstack/react-table';
import { ArrowDown, ArrowUp, ChevronsUpDown } from 'lucide-react';
import type { ReactNode } from 'react';
import { cn } from '../../lib/cn.ts';
import { Spinner } from './spinner.tsx';

declare module '@tanstack/react-table' {
  // Presentation hints a column can carry; read only by DataTable.
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  interface ColumnMeta<TData extends RowData, TValue> {
    /** Classes for this column's header and body cells (width, alignment). */
    className?: string;
    /** Body cells of this column are row headers (<th scope="row">), e.g. the name column. */
    rowHeader?: boolean;
  }
}

type DataTableProps<T> = {
  table: Table<T>;
  /** The table's accessible name, read before its contents (a visually hidden caption). */
  caption: string;
  isLoading?: boolean;
  /** Shown in a single full-width row when there are no rows. */
  empty: ReactNode;
  className?: string;
};

function ariaSort(sorted: false | 'asc' | 'desc'): 'ascending' | 'descending' | 'none' {
  return sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : 'none';
}

/**
 * Renders a TanStack Table instance (client-side or manual server-side mode alike). Sortable
 * headers are buttons inside <th aria-sort>, so the sort order is announced and reachable by
 * keyboard. The table scrolls sideways inside its card on narrow screens.
 */
export function DataTable<T>({ table, caption, isLoading = false, empty, className }: DataTableProps<T>) {
  const rows = table.getRowModel().rows;
  const columnCount = table.getVisibleLeafColumns().length;
  return (
    // `relative`: visually hidden (absolutely positioned) header text stays inside the scroll box
    // instead of widening the whole page.
    <div className={cn('relative overflow-x-auto', className)}>
      <table className="min-w-full border-collapse text-left text-sm" aria-busy={isLoading || undefined}>
        <caption className="sr-only">{caption}</caption>
        <thead className="border-b border-slate-200 bg-slate-50/80">
          {table.getHeaderGroups().map((group) => (
            <tr key={group.id}>
              {group.headers.map((header) => {
                const column = header.column;
                const canSort = column.getCanSort();
                const sorted = column.getIsSorted();
                const label = header.isPlaceholder ? null : flexRender(column.columnDef.header, header.getContext());
                const SortIcon = sorted === 'asc' ? ArrowUp : sorted === 'desc' ? ArrowDown : ChevronsUpDown;
                return (
                  <th
                    key={header.id}
                    scope="col"
                    aria-sort={canSort ? ariaSort(sorted) : undefined}
                    className={cn('px-3 py-3 text-xs font-semibold first:pl-4 last:pr-4 tracking-wide whitespace-nowrap text-slate-600 uppercase', column.columnDef.meta?.className)}
                  >
                    {canSort ? (
                      <button
                        type="button"
                        onClick={column.getToggleSortingHandler()}
                        className="-mx-1.5 inline-flex items-center gap-1 rounded px-1.5 py-0.5 uppercase hover:bg-slate-200/70 hover:text-slate-900"
                      >
                        {label}
                        <SortIcon aria-hidden="true" className={cn('size-3.5', sorted ? 'text-blue-700' : 'text-slate-400')} />
                      </button>
                    ) : (
                      label
                    )}
                  </th>
                );
              })}
            </tr>
          ))}
        </thead>
        <tbody className="divide-y divide-slate-100">
          {rows.length === 0 ? (
            <tr>
              <td colSpan={columnCount} className="px-4 py-12 text-center text-sm text-slate-600">
                {isLoading ? (
                  <span role="status" className="inline-flex items-center gap-2">
                    <Spinner className="size-4 text-blue-700" /> Loading…
                  </span>
                ) : (
                  empty
                )}
              </td>
            </tr>
          ) : (
            rows.map((row) => (
              <tr key={row.id} className="transition-colors hover:bg-slate-50/70">
                {row.getVisibleCells().map((cell) => {
                  const meta = cell.column.columnDef.meta;
                  const content = flexRender(cell.column.columnDef.cell, cell.getContext());
                  const classes = cn('px-3 py-3 align-middle text-slate-700 first:pl-4 last:pr-4', meta?.className);
                  return meta?.rowHeader ? (
                    <th key={cell.id} scope="row" className={cn(classes, 'font-normal')}>
                      {content}
                    </th>
                  ) : (
                    <td key={cell.id} className={classes}>
                      {content}
                    </td>
                  );
                })}
              </tr>
            ))
          )}
        </tbody>
      </table>
    </div>
  );
}
