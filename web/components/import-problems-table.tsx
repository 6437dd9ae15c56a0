import { createColumnHelper, getCoreRowModel, getSortedRowModel, useReactTable } from '@tanstack/react-table';
import type { RowProblemOut } from '../../common/uploads.ts';
import { cn } from '../lib/cn.ts';
import { DataTable } from './ui/data-table.tsx';

const col = createColumnHelper<RowProblemOut>();
const COLUMNS = [
  col.accessor('row', {
    header: 'Row',
    cell: (c) => (c.getValue() > 0 ? c.getValue() : '—'),
    meta: { className: 'w-16 tabular-nums', rowHeader: true, cardTitleLabel: true },
  }),
  col.accessor('column', { header: 'Column', cell: (c) => <code className="text-xs">{c.getValue() || '—'}</code> }),
  col.accessor('value', { header: 'Value', cell: (c) => <span className="break-all">{c.getValue() ?? ''}</span>, meta: { className: 'max-w-56' } }),
  col.accessor('message', { header: 'Problem' }),
];

/**
 * Every problem of a refused file, by row (as a spreadsheet shows it) and column: the one table for
 * the Data Management uploads and the courses screen's bulk import (both answered by one engine).
 */
export function ImportProblemsTable({ errors, total = errors.length, dryRun = false }: { errors: RowProblemOut[]; total?: number; dryRun?: boolean }) {
  // eslint-disable-next-line react-hooks/incompatible-library
  const table = useReactTable({ data: errors, columns: COLUMNS, getCoreRowModel: getCoreRowModel(), getSortedRowModel: getSortedRowModel() });
  // A dry run that finds problems did its job: amber, not the red of a refused upload (decision 047).
  return (
    <div className={cn('overflow-hidden rounded-xl border bg-white', dryRun ? 'border-amber-300' : 'border-red-200')}>
      <p
        className={cn(
          'border-b px-4 py-2 text-sm font-medium',
          dryRun ? 'border-amber-200 bg-amber-50 text-amber-950' : 'border-red-100 bg-red-50 text-red-900',
        )}
      >
        {total} problem{total === 1 ? '' : 's'} found{total > errors.length ? ` (the first ${errors.length} are listed)` : ''}.{' '}
        {dryRun ? 'Fix them in the file and run the dry run again.' : 'Fix them in the file and upload it again: nothing was imported.'}
      </p>
      <div className="max-h-96 overflow-y-auto">
        <DataTable table={table} caption="Problems found in the file" empty="No problems" cardsOnPhone />
      </div>
    </div>
  );
}
