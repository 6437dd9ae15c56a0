import { flexRender, getCoreRowModel, useReactTable, type Cell, type Header, type Row, type RowData, type Table } from '@tanstack/react-table';
import { ArrowDown, ArrowUp, ChevronsUpDown } from 'lucide-react';
import { useId, useRef, type ReactNode } from 'react';
import { cn } from '../../lib/cn.ts';
import { NARROW_SCREEN, useMediaQuery } from '../../lib/use-media-query.ts';
import { usePrintRows } from './print-rows.ts';
import { useOverflowsSideways } from './scroll-box.tsx';
import { Spinner } from './spinner.tsx';
import { ToolbarSelect } from './toolbar.tsx';

declare module '@tanstack/react-table' {
  // Presentation hints a column can carry; read only by DataTable.
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  interface ColumnMeta<TData extends RowData, TValue> {
    /** Classes for this column's header and body cells (width, alignment); not used in the card layout. */
    className?: string;
    /** Body cells of this column are row headers (<th scope="row">), e.g. the name column; a card's title. */
    rowHeader?: boolean;
    /** In the card layout, the row header's title keeps its column name ("Row 12"): the bare value would not say what it is. */
    cardTitleLabel?: boolean;
    /** The row's action buttons (implied by the column id `actions`): pinned to the table's right edge, grouped as "Actions for {row}". */
    rowActions?: boolean;
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
  /**
   * Below 768 px, show each row as a card (the row header as its title, the column name beside each
   * value, a column without a plain-text header, its row actions, on the last line) instead of a
   * table that scrolls sideways. Sorting then comes from a "Sort by" select.
   */
  cardsOnPhone?: boolean;
  /** Extra classes for a body row (a totals row). */
  rowClassName?: (row: T) => string | undefined;
};

function ariaSort(sorted: false | 'asc' | 'desc'): 'ascending' | 'descending' | 'none' {
  return sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : 'none';
}

/**
 * Renders a TanStack Table instance (client-side or manual server-side mode alike). Sortable
 * headers are buttons inside <th aria-sort>, so the sort order is announced and reachable by
 * keyboard. The table scrolls sideways inside its card on narrow screens, unless `cardsOnPhone`.
 * A row-actions column stays pinned to the right edge while the rest scrolls (decision 033: the Edit
 * and Delete buttons of a wide table were off-screen at 1366 px).
 */
export function DataTable<T>(props: DataTableProps<T>) {
  const narrow = useMediaQuery(NARROW_SCREEN);
  const printing = usePrintRows(props.table);
  const onScreen = props.cardsOnPhone && narrow ? <CardTable {...props} /> : <WideTable {...props} />;
  if (!printing) return onScreen;
  // While the list prints (print-rows.ts): the screen keeps its page, the paper gets every row.
  return (
    <>
      <div className="print:hidden">{onScreen}</div>
      <PrintedTable {...props} rows={printing.rows} />
    </>
  );
}

/**
 * Every row of the list, for paper only: the same columns (and hidden ones) drawn as a table, in the
 * order the rows came (the list's order on screen), without sort buttons.
 */
function PrintedTable<T>({ table, caption, rowClassName, rows }: DataTableProps<T> & { rows: T[] }) {
  const getRowId = table.options.getRowId;
  // eslint-disable-next-line react-hooks/incompatible-library
  const printed = useReactTable({
    data: rows,
    columns: table.options.columns,
    state: { columnVisibility: table.getState().columnVisibility },
    enableSorting: false,
    manualPagination: true,
    autoResetPageIndex: false,
    ...(getRowId ? { getRowId } : {}),
    getCoreRowModel: getCoreRowModel(),
  });
  return (
    <div className="hidden print:block" data-printed-list>
      <WideTable table={printed} caption={caption} empty={null} {...(rowClassName ? { rowClassName } : {})} />
    </div>
  );
}

/** The row-actions column: the conventional id `actions`, or marked so in its meta. */
function isRowActions(column: { id: string; columnDef: { meta?: { rowActions?: boolean } } }): boolean {
  return column.id === 'actions' || column.columnDef.meta?.rowActions === true;
}

/** What a row is called (its row header's value, e.g. the student's name), for "Actions for …". */
function rowName<T>(row: Row<T>): string {
  const header = row.getVisibleCells().find((c) => c.column.columnDef.meta?.rowHeader);
  const value = header?.getValue();
  return typeof value === 'string' || typeof value === 'number' ? String(value) : `row ${row.index + 1}`;
}

/** A row's action buttons as one named group, so a screen reader says whose actions they are. */
function RowActions<T>({ row, children }: { row: Row<T>; children: ReactNode }) {
  return (
    <div role="group" aria-label={`Actions for ${rowName(row)}`} className="empty:hidden">
      {children}
    </div>
  );
}

// The pinned actions column: opaque (rows scroll beneath it), with an edge shadow while they do.
const PINNED = 'sticky right-0';
const PINNED_EDGE = 'shadow-[inset_1px_0_0_#e2e8f0,-8px_0_8px_-6px_rgb(15_23_42/0.2)]';
// The row's hover tint (slate-50 at 70 %) made opaque over the white card.
const PINNED_BODY = 'bg-white group-hover/row:bg-[color-mix(in_oklab,#f8fafc_70%,white)]';

function WideTable<T>({ table, caption, isLoading = false, empty, className, rowClassName }: DataTableProps<T>) {
  const rows = table.getRowModel().rows;
  const scrollBox = useRef<HTMLDivElement>(null);
  const scrolls = useOverflowsSideways(scrollBox);
  return (
    // `relative`: visually hidden (absolutely positioned) header text stays inside the scroll box
    // instead of widening the whole page.
    <div ref={scrollBox} data-list-table className={cn('relative overflow-x-auto', className)}>
      <table className="min-w-full border-collapse text-left text-sm" aria-busy={isLoading || undefined}>
        <caption className="sr-only">{caption}</caption>
        <thead className="border-b border-slate-200 bg-slate-50/80">
          {table.getHeaderGroups().map((group) => (
            <tr key={group.id}>
              {group.headers.map((header) => {
                const column = header.column;
                const canSort = column.getCanSort();
                const sorted = column.getIsSorted();
                const label = headerLabel(header);
                const SortIcon = sorted === 'asc' ? ArrowUp : sorted === 'desc' ? ArrowDown : ChevronsUpDown;
                return (
                  <th
                    key={header.id}
                    scope="col"
                    aria-sort={canSort ? ariaSort(sorted) : undefined}
                    data-row-actions={isRowActions(column) || undefined}
                    className={cn(
                      'px-3 py-3 text-xs font-semibold first:pl-4 last:pr-4 tracking-wide whitespace-nowrap text-slate-600 uppercase',
                      column.columnDef.meta?.className,
                      isRowActions(column) && cn(PINNED, 'bg-slate-50', scrolls && PINNED_EDGE),
                    )}
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
              <td colSpan={table.getVisibleLeafColumns().length} className="px-4 py-12 text-center text-sm text-slate-600">
                <EmptyContent isLoading={isLoading} empty={empty} />
              </td>
            </tr>
          ) : (
            rows.map((row) => (
              <tr key={row.id} className={cn('group/row transition-colors hover:bg-slate-50/70', rowClassName?.(row.original))}>
                {row.getVisibleCells().map((cell) => {
                  const meta = cell.column.columnDef.meta;
                  const content = flexRender(cell.column.columnDef.cell, cell.getContext());
                  const classes = cn('px-3 py-3 align-middle text-slate-700 first:pl-4 last:pr-4', meta?.className);
                  if (isRowActions(cell.column)) {
                    return (
                      <td key={cell.id} data-row-actions className={cn(classes, PINNED, PINNED_BODY, scrolls && PINNED_EDGE)}>
                        <RowActions row={row}>{content}</RowActions>
                      </td>
                    );
                  }
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

/**
 * The phone layout: still a <table> with its headers, so a screen reader's table commands work,
 * but drawn as one card per row. Explicit ARIA roles keep the table semantics that some browsers
 * drop once a table is no longer displayed as one. Column names shown beside the values are
 * hidden from screen readers, which announce the (visually hidden) header cells instead.
 */
function CardTable<T>({ table, caption, isLoading = false, empty, className, rowClassName }: DataTableProps<T>) {
  const rows = table.getRowModel().rows;
  return (
    <div className={cn('relative', className)}>
      <CardSort table={table} />
      <table role="table" className="block w-full text-left text-sm" aria-busy={isLoading || undefined}>
        <caption className="sr-only">{caption}</caption>
        <thead role="rowgroup" className="sr-only">
          {table.getHeaderGroups().map((group) => (
            <tr key={group.id} role="row">
              {group.headers.map((header) => (
                <th key={header.id} role="columnheader" scope="col" aria-sort={header.column.getCanSort() ? ariaSort(header.column.getIsSorted()) : undefined}>
                  {headerLabel(header)}
                </th>
              ))}
            </tr>
          ))}
        </thead>
        <tbody role="rowgroup" className="block divide-y divide-slate-200">
          {rows.length === 0 ? (
            <tr role="row" className="block">
              <td role="cell" className="block px-4 py-12 text-center text-sm text-slate-600">
                <EmptyContent isLoading={isLoading} empty={empty} />
              </td>
            </tr>
          ) : (
            rows.map((row) => <CardRow key={row.id} row={row} className={rowClassName?.(row.original)} />)
          )}
        </tbody>
      </table>
    </div>
  );
}

// Long unbroken values (e-mail addresses, file names) wrap anywhere rather than widen the card.
const WRAPPING = 'min-w-0 [overflow-wrap:anywhere] [&_*]:whitespace-normal';

function CardRow<T>({ row, className }: { row: Row<T>; className: string | undefined }) {
  return (
    <tr role="row" className={cn('grid gap-y-2 px-4 py-4', className)}>
      {row.getVisibleCells().map((cell) => {
        const meta = cell.column.columnDef.meta;
        const label = plainHeader(cell);
        const content = flexRender(cell.column.columnDef.cell, cell.getContext());
        if (meta?.rowHeader) {
          return (
            <th key={cell.id} role="rowheader" scope="row" className={cn('order-first text-base font-semibold text-slate-900', WRAPPING)}>
              {meta.cardTitleLabel && label ? <span aria-hidden="true">{label} </span> : null}
              {content}
            </th>
          );
        }
        if (label === null || isRowActions(cell.column)) {
          // Row actions: the card's last line, with touch-sized buttons (icons square, labelled ones as wide as their label).
          return (
            <td key={cell.id} role="cell" className="order-last flex justify-end empty:hidden has-[>div:empty]:hidden [&_button]:min-h-11 [&_button]:min-w-11">
              {isRowActions(cell.column) ? <RowActions row={row}>{content}</RowActions> : content}
            </td>
          );
        }
        // A cell that renders nothing (a totals row's date) drops its line instead of showing a bare name.
        return (
          <td
            key={cell.id}
            role="cell"
            className="grid grid-cols-[minmax(5.5rem,35%)_minmax(0,1fr)] items-baseline gap-x-3 text-slate-700 has-[>div:empty]:hidden"
          >
            <span aria-hidden="true" className="text-xs font-semibold tracking-wide text-slate-600 uppercase">
              {label}
            </span>
            <div className={WRAPPING}>{content}</div>
          </td>
        );
      })}
    </tr>
  );
}

/** The card layout's sort control: one select over every sortable column and direction. */
function CardSort<T>({ table }: { table: Table<T> }) {
  const id = useId();
  const columns = table.getAllLeafColumns().filter((c) => c.getCanSort() && typeof c.columnDef.header === 'string');
  if (columns.length === 0) return null;
  const current = table.getState().sorting[0];
  const value = current ? `${current.id}:${current.desc ? 'desc' : 'asc'}` : '';
  const canClear = !current || table.options.enableSortingRemoval !== false;
  return (
    <div className="flex justify-end border-b border-slate-200 px-4 py-2">
      <ToolbarSelect
        id={id}
        label="Sort by"
        value={value}
        onChange={(v) => {
          const [columnId, direction] = v.split(':');
          table.setSorting(columnId ? [{ id: columnId, desc: direction === 'desc' }] : []);
        }}
      >
        {canClear ? <option value="">Default order</option> : null}
        {columns.flatMap((c) => {
          const name = c.columnDef.header as string;
          return [
            <option key={`${c.id}:asc`} value={`${c.id}:asc`}>{`${name}, ascending`}</option>,
            <option key={`${c.id}:desc`} value={`${c.id}:desc`}>{`${name}, descending`}</option>,
          ];
        })}
      </ToolbarSelect>
    </div>
  );
}

function headerLabel<T>(header: Header<T, unknown>): ReactNode {
  return header.isPlaceholder ? null : flexRender(header.column.columnDef.header, header.getContext());
}

/** A column's header when it is plain text; a rendered header (a visually hidden "Actions") is not a label to show. */
function plainHeader<T>(cell: Cell<T, unknown>): string | null {
  const header = cell.column.columnDef.header;
  return typeof header === 'string' ? header : null;
}

function EmptyContent({ isLoading, empty }: { isLoading: boolean; empty: ReactNode }) {
  return isLoading ? (
    <span role="status" className="inline-flex items-center gap-2">
      <Spinner className="size-4 text-blue-700" /> Loading…
    </span>
  ) : (
    <>{empty}</>
  );
}
