import { createColumnHelper, getCoreRowModel, useReactTable, type ColumnDef } from '@tanstack/react-table';
import { DataTable } from '../../components/ui/data-table.tsx';
import type { ImportProblem } from './use-courses.ts';

const col = createColumnHelper<ImportProblem>();
const COLUMNS = [
  col.accessor('row', { header: 'Row', enableSorting: false, meta: { rowHeader: true, className: 'w-16 tabular-nums' } }),
  col.accessor('column', { header: 'Column', enableSorting: false, cell: ({ getValue }) => <span className="font-mono text-xs">{getValue()}</span> }),
  col.accessor((p) => p.value ?? '', {
    id: 'value',
    header: 'Value',
    enableSorting: false,
    cell: ({ getValue }) => (getValue() ? <span className="font-mono text-xs break-all">{getValue()}</span> : <span className="text-slate-500">(empty)</span>),
  }),
  col.accessor('message', { header: 'Problem', enableSorting: false }),
] as ColumnDef<ImportProblem, never>[];

/** Every problem the server found, by spreadsheet row (the header is row 1) and column. */
export function ImportProblemsTable({ problems }: { problems: ImportProblem[] }) {
  // eslint-disable-next-line react-hooks/incompatible-library
  const table = useReactTable({ data: problems, columns: COLUMNS, getCoreRowModel: getCoreRowModel() });
  return (
    <div className="max-h-64 overflow-y-auto rounded-lg border border-slate-200">
      <DataTable table={table} caption="Problems found in the file" empty="No problems." />
    </div>
  );
}
