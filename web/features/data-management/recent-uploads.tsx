import { createColumnHelper, getCoreRowModel, getSortedRowModel, useReactTable } from '@tanstack/react-table';
import type { FileUpload } from '../../../common/uploads.ts';
import { Badge, type BadgeTone } from '../../components/ui/badge.tsx';
import { Card } from '../../components/ui/card.tsx';
import { DataTable } from '../../components/ui/data-table.tsx';
import { useFileUploads } from './data-management-api.ts';
import { formatBytes, formatDateTime } from '../../lib/format.ts';

const STATUS: Record<string, { tone: BadgeTone; label: string }> = {
  completed: { tone: 'green', label: 'Completed' },
  failed: { tone: 'red', label: 'Failed' },
  validated: { tone: 'blue', label: 'Preview OK' },
  processing: { tone: 'amber', label: 'Processing' },
};
const DRY_RUN_PROBLEMS = { tone: 'amber', label: 'Preview: problems found' } as const;

const col = createColumnHelper<FileUpload>();
const COLUMNS = [
  col.accessor('createdAt', {
    header: 'When',
    cell: (c) => <time dateTime={c.getValue()}>{formatDateTime(c.getValue())}</time>,
    meta: { className: 'whitespace-nowrap' },
  }),
  col.accessor('fileName', {
    header: 'File',
    cell: (c) => (
      <>
        <span className="block font-medium whitespace-nowrap text-slate-900">{c.getValue()}</span>
        <span className="block text-xs font-normal whitespace-nowrap text-slate-600">
          <span className="capitalize">{c.row.original.type}</span> · {formatBytes(c.row.original.fileSize)}
        </span>
      </>
    ),
    meta: { rowHeader: true },
  }),
  col.accessor('rows', { header: 'Rows', meta: { className: 'tabular-nums' } }),
  col.accessor('created', { header: 'Created', meta: { className: 'tabular-nums' } }),
  col.accessor('updated', { header: 'Updated', meta: { className: 'tabular-nums' } }),
  col.accessor('errorCount', { header: 'Errors', meta: { className: 'tabular-nums' } }),
  col.accessor('status', {
    header: 'Status',
    cell: (c) => {
      // A dry run that found problems did its job: not a failure (decision 047).
      const s =
        c.row.original.dryRun && c.getValue() === 'failed' ? DRY_RUN_PROBLEMS : (STATUS[c.getValue()] ?? { tone: 'slate' as const, label: c.getValue() });
      return <Badge tone={s.tone}>{s.label}</Badge>;
    },
  }),
  col.accessor('uploadedByName', { header: 'By', cell: (c) => c.getValue() ?? 'System', meta: { className: 'whitespace-nowrap' } }),
];

/** GET /api/file-uploads: the latest uploads, refused ones and previews included. */
export function RecentUploads() {
  const uploads = useFileUploads();
  // eslint-disable-next-line react-hooks/incompatible-library
  const table = useReactTable({
    data: uploads.data ?? [],
    columns: COLUMNS,
    getRowId: (u) => String(u.id),
    getCoreRowModel: getCoreRowModel(),
    getSortedRowModel: getSortedRowModel(),
  });
  return (
    <Card className="overflow-hidden">
      <div className="px-5 pt-5 pb-3 sm:px-6">
        <h2 className="text-lg font-semibold text-slate-900">Recent uploads</h2>
        <p className="text-sm text-slate-600">Every upload is recorded, including previews and refused files.</p>
      </div>
      <DataTable table={table} caption="Recent uploads" isLoading={uploads.isLoading} empty="No uploads yet" cardsOnPhone />
    </Card>
  );
}
