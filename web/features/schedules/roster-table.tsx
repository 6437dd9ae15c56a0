import { createColumnHelper, type ColumnDef } from '@tanstack/react-table';
import { UserMinus } from 'lucide-react';
import { useMemo } from 'react';
import { Badge } from '../../components/ui/badge.tsx';
import { DataTable } from '../../components/ui/data-table.tsx';
import { useSortableTable } from '../../components/ui/use-sortable-table.ts';
import { IconButton } from '../../components/ui/icon-button.tsx';
import { studentStatusLabel, studentStatusTone } from '../../components/student-status.ts';
import type { RosterEntry } from './schedules-api.ts';

const col = createColumnHelper<RosterEntry>();
const nameOf = (r: RosterEntry) => `${r.firstName} ${r.lastName}`;

function rosterColumns(onRemove: (r: RosterEntry) => void, removingId: number | null): ColumnDef<RosterEntry, never>[] {
  return [
    col.accessor((r) => `${r.lastName}, ${r.firstName}`, {
      id: 'name',
      header: 'Name',
      meta: { rowHeader: true },
      cell: ({ getValue }) => <span className="font-medium whitespace-nowrap text-slate-900">{getValue()}</span>,
    }),
    col.accessor((r) => r.sisStudentId ?? '', {
      id: 'sisStudentId',
      header: 'SIS ID',
      cell: ({ getValue }) => <span className="font-mono text-xs">{getValue() || '—'}</span>,
    }),
    col.accessor((r) => r.email ?? '', { id: 'email', header: 'E-mail', cell: ({ getValue }) => getValue() || '—' }),
    col.accessor('status', { header: 'Status', cell: ({ getValue }) => <Badge tone={studentStatusTone(getValue())}>{studentStatusLabel(getValue())}</Badge> }),
    col.display({
      id: 'actions',
      header: () => <span className="sr-only">Actions</span>,
      meta: { className: 'w-px text-right' },
      cell: ({ row }) => (
        <IconButton
          icon={UserMinus}
          tone="danger"
          label={`Remove ${nameOf(row.original)} from the roster`}
          disabled={removingId === row.original.studentId}
          onClick={() => onRemove(row.original)}
        />
      ),
    }),
  ] as ColumnDef<RosterEntry, never>[];
}

/** The students on a schedule's roster, with a remove action per row. */
export function RosterTable({
  entries,
  isLoading,
  onRemove,
  removingId,
}: {
  entries: RosterEntry[];
  isLoading: boolean;
  onRemove: (r: RosterEntry) => void;
  removingId: number | null;
}) {
  const columns = useMemo(() => rosterColumns(onRemove, removingId), [onRemove, removingId]);
  const table = useSortableTable({ data: entries, columns, getRowId: (r) => String(r.studentId), initialSorting: [{ id: 'name', desc: false }] });
  return (
    <div className="max-h-80 overflow-y-auto rounded-lg border border-slate-200">
      <DataTable table={table} caption="Students on the roster" isLoading={isLoading} empty="No students on this roster yet. Add some below." />
    </div>
  );
}
