import type { Table } from '@tanstack/react-table';
import { ChevronLeft, ChevronRight, Printer } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import { PageSizeSelect } from './page-size-select.tsx';
import { Button } from './button.tsx';
import { notifyFailure } from './notify.ts';
import { getPrintRows, setPrintRows, usePrintRows, type PrintRows } from './print-rows.ts';
import { Spinner } from './spinner.tsx';
import { PRINT_MAX_ROWS, type EveryRow } from '../../lib/api-page.ts';
import { formatCount } from '../../lib/format.ts';

const PAGE_SIZES = [10, 25, 50, 100];

/** Ctrl+P or ⌘P, nothing else held. */
const isPrintKey = (e: KeyboardEvent) => (e.ctrlKey || e.metaKey) && !e.altKey && !e.shiftKey && e.key.toLowerCase() === 'p';

/**
 * "Showing 26–50 of 1,234 students", rows per page, and Previous/Next. Works for client-side
 * tables and for manual (server-side) pagination, where the table knows the row count.
 *
 * Printing prints the whole list, not the page on screen (decision 046). A list kept in the
 * browser prints all its rows however printing starts (Print list, Ctrl+P, the browser's menu). A
 * server-paged list passes `printAll` (its page's `everyRow`, lib/api-page.ts): Print list and
 * Ctrl+P fetch every row first, page by page and at most PRINT_MAX_ROWS; printed from the browser's
 * menu, which cannot wait for that, the paper says it holds one page of how many.
 */
export function TablePagination<T>({ table, noun, printAll }: { table: Table<T>; noun: string; printAll?: EveryRow<T> | undefined }) {
  const { pageIndex, pageSize } = table.getState().pagination;
  const total = table.getRowCount();
  const pageCount = Math.max(1, table.getPageCount());
  const from = total === 0 ? 0 : pageIndex * pageSize + 1;
  const to = Math.min(total, (pageIndex + 1) * pageSize);
  const printing = usePrintRows(table);
  const serverPaged = table.options.manualPagination === true;
  const canPrintAll = !serverPaged || printAll != null;
  const [preparing, setPreparing] = useState(false);

  /** Every row of the list: those the browser holds, or the server's, page by page. */
  const everyRow = async (): Promise<PrintRows<T>> => {
    if (!serverPaged) return { rows: table.getPrePaginationRowModel().rows.map((r) => r.original), total };
    const all = await printAll!();
    return { rows: all.items, total: all.total };
  };

  const printList = async () => {
    setPreparing(true);
    try {
      const rows = await everyRow();
      // On the page before the browser lays it out for paper; the rows stay until it has printed.
      flushSync(() => setPrintRows(table, rows));
      window.print();
    } catch (e) {
      notifyFailure(e, 'The list could not be prepared for printing. Please try again.', 'Print Failed');
    } finally {
      setPreparing(false);
    }
  };
  const latestPrintList = useRef(printList);
  useEffect(() => {
    latestPrintList.current = printList;
  });

  useEffect(() => {
    // The browser's own print (menu, or Ctrl+P where nothing intercepts it): a list the browser
    // holds is all there, synchronously, before the page is laid out for paper.
    const beforePrint = () => {
      if (serverPaged || getPrintRows(table)) return;
      flushSync(() => setPrintRows(table, { rows: table.getPrePaginationRowModel().rows.map((r) => r.original), total: table.getRowCount() }));
    };
    const afterPrint = () => setPrintRows(table, null);
    // Ctrl+P on a server-paged list: fetch every row first, then print (the menu cannot wait).
    const onKey = (e: KeyboardEvent) => {
      if (!serverPaged || !canPrintAll || !isPrintKey(e)) return;
      e.preventDefault();
      void latestPrintList.current();
    };
    window.addEventListener('beforeprint', beforePrint);
    window.addEventListener('afterprint', afterPrint);
    window.addEventListener('keydown', onKey);
    return () => {
      window.removeEventListener('beforeprint', beforePrint);
      window.removeEventListener('afterprint', afterPrint);
      window.removeEventListener('keydown', onKey);
      setPrintRows(table, null);
    };
  }, [table, serverPaged, canPrintAll]);

  return (
    <div className="flex flex-col gap-3 border-t border-slate-200 px-4 py-3 text-sm text-slate-700 sm:flex-row sm:items-center sm:justify-between">
      <p aria-live="polite" className="print:hidden">
        {total === 0 ? (
          `No ${noun}`
        ) : (
          <>
            Showing <span className="font-semibold text-slate-900">{formatCount(from)}</span>–
            <span className="font-semibold text-slate-900">{formatCount(to)}</span> of{' '}
            <span className="font-semibold text-slate-900">{formatCount(total)}</span> {total === 1 ? noun.replace(/s$/, '') : noun}
          </>
        )}
      </p>
      <p className="hidden print:block" data-printed-count>
        {printedCount({ printing, total, from, to, noun })}
      </p>
      <div className="flex flex-wrap items-center gap-x-4 gap-y-2 print:hidden">
        {canPrintAll && total > 0 ? (
          <Button variant="secondary" size="sm" className="min-h-11 sm:min-h-0" onClick={() => void printList()} disabled={preparing}>
            {preparing ? <Spinner className="size-4" /> : <Printer aria-hidden="true" className="size-4" />}
            {preparing ? 'Preparing…' : 'Print list'}
          </Button>
        ) : null}
        <PageSizeSelect value={pageSize} options={PAGE_SIZES} onChange={(size) => table.setPageSize(size)} />
        <span className="whitespace-nowrap">
          Page {formatCount(pageIndex + 1)} of {formatCount(pageCount)}
        </span>
        {/* 44 px targets on a phone, the compact size from the sm breakpoint up. */}
        <div className="ml-auto flex gap-1 sm:ml-0">
          <Button
            variant="secondary"
            size="sm"
            className="min-h-11 min-w-11 sm:min-h-0 sm:min-w-0"
            aria-label="Previous page"
            onClick={() => table.previousPage()}
            disabled={!table.getCanPreviousPage()}
          >
            <ChevronLeft aria-hidden="true" className="size-4" />
          </Button>
          <Button
            variant="secondary"
            size="sm"
            className="min-h-11 min-w-11 sm:min-h-0 sm:min-w-0"
            aria-label="Next page"
            onClick={() => table.nextPage()}
            disabled={!table.getCanNextPage()}
          >
            <ChevronRight aria-hidden="true" className="size-4" />
          </Button>
        </div>
      </div>
    </div>
  );
}

/** What the paper says under the list: all of it, the first PRINT_MAX_ROWS of it, or (printed from the browser's menu) one page of it. */
function printedCount<T>({
  printing,
  total,
  from,
  to,
  noun,
}: {
  printing: PrintRows<T> | null;
  total: number;
  from: number;
  to: number;
  noun: string;
}): string {
  if (printing) {
    return printing.rows.length < printing.total
      ? `The first ${formatCount(printing.rows.length)} of ${formatCount(printing.total)} ${noun}: a printed list stops at ${formatCount(PRINT_MAX_ROWS)} rows; export the list for all of them.`
      : `All ${formatCount(printing.total)} ${printing.total === 1 ? noun.replace(/s$/, '') : noun}.`;
  }
  if (to - from + 1 >= total) return `All ${formatCount(total)} ${total === 1 ? noun.replace(/s$/, '') : noun}.`;
  return `${formatCount(from)}–${formatCount(to)} of ${formatCount(total)} ${noun}: one page of the list. To print every row, use Print list under the list on screen.`;
}
