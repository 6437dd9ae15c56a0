import type { Table } from '@tanstack/react-table';
import { ChevronLeft, ChevronRight } from 'lucide-react';
import { PageSizeSelect } from './page-size-select.tsx';
import { Button } from './button.tsx';
import { formatCount } from '../../lib/format.ts';

const PAGE_SIZES = [10, 25, 50, 100];

/**
 * "Showing 26–50 of 1,234 students", rows per page, and Previous/Next. Works for client-side
 * tables and for manual (server-side) pagination, where the table knows the row count.
 */
export function TablePagination<T>({ table, noun }: { table: Table<T>; noun: string }) {
  const { pageIndex, pageSize } = table.getState().pagination;
  const total = table.getRowCount();
  const pageCount = Math.max(1, table.getPageCount());
  const from = total === 0 ? 0 : pageIndex * pageSize + 1;
  const to = Math.min(total, (pageIndex + 1) * pageSize);

  return (
    <div className="flex flex-col gap-3 border-t border-slate-200 px-4 py-3 text-sm text-slate-700 sm:flex-row sm:items-center sm:justify-between">
      <p aria-live="polite">
        {total === 0 ? (
          `No ${noun}`
        ) : (
          <>
            Showing <span className="font-semibold text-slate-900">{formatCount(from)}</span>–<span className="font-semibold text-slate-900">{formatCount(to)}</span> of{' '}
            <span className="font-semibold text-slate-900">{formatCount(total)}</span> {total === 1 ? noun.replace(/s$/, '') : noun}
          </>
        )}
      </p>
      <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
        <PageSizeSelect value={pageSize} options={PAGE_SIZES} onChange={(size) => table.setPageSize(size)} />
        <span className="whitespace-nowrap">
          Page {formatCount(pageIndex + 1)} of {formatCount(pageCount)}
        </span>
        {/* 44 px targets on a phone, the compact size from the sm breakpoint up. */}
        <div className="ml-auto flex gap-1 sm:ml-0">
          <Button variant="secondary" size="sm" className="min-h-11 min-w-11 sm:min-h-0 sm:min-w-0" aria-label="Previous page" onClick={() => table.previousPage()} disabled={!table.getCanPreviousPage()}>
            <ChevronLeft aria-hidden="true" className="size-4" />
          </Button>
          <Button variant="secondary" size="sm" className="min-h-11 min-w-11 sm:min-h-0 sm:min-w-0" aria-label="Next page" onClick={() => table.nextPage()} disabled={!table.getCanNextPage()}>
            <ChevronRight aria-hidden="true" className="size-4" />
          </Button>
        </div>
      </div>
    </div>
  );
}
