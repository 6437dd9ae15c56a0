import { createColumnHelper, type ColumnDef } from '@tanstack/react-table';
import { Clock, Pencil, Timer } from 'lucide-react';
import type { Program } from '../../../common/programs.ts';
import { Badge } from '../../components/ui/badge.tsx';
import { IconButton } from '../../components/ui/icon-button.tsx';
import { programStatusLabel, programStatusTone } from './program-status.ts';

const col = createColumnHelper<Program>();
const muted = (text = '—') => <span className="text-slate-500">{text}</span>;

export function programColumns(opts: {
  onEdit: (p: Program) => void;
  onPolicy: (p: Program) => void;
  onTimeClock: (p: Program) => void;
}): ColumnDef<Program, never>[] {
  const columns = [
    col.accessor('programName', {
      header: 'Program',
      meta: { rowHeader: true },
      cell: ({ row }) => (
        <div className="min-w-48">
          <p className="font-medium text-slate-900">{row.original.programName}</p>
          {row.original.sisProgramId ? <p className="mt-0.5 font-mono text-xs text-slate-600">SIS {row.original.sisProgramId}</p> : null}
        </div>
      ),
    }),
    col.accessor((p) => p.programCode ?? '', {
      id: 'programCode',
      header: 'Code',
      cell: ({ getValue }) => (getValue() ? <span className="font-mono text-xs font-semibold whitespace-nowrap text-slate-900">{getValue()}</span> : muted()),
    }),
    col.accessor((p) => p.credentialType ?? '', { id: 'credentialType', header: 'Credential', cell: ({ getValue }) => getValue() || muted() }),
    col.accessor((p) => p.durationHours ?? -1, {
      id: 'durationHours',
      header: 'Hours',
      meta: { className: 'text-right' },
      enableGlobalFilter: false,
      cell: ({ row }) =>
        row.original.durationHours == null ? (
          muted()
        ) : (
          <span className="tabular-nums">{row.original.durationHours.toLocaleString('en-US', { maximumFractionDigits: 1 })}</span>
        ),
    }),
    col.accessor((p) => programStatusLabel(p.status), {
      id: 'status',
      header: 'Status',
      cell: ({ row, getValue }) => <Badge tone={programStatusTone(row.original.status)}>{getValue()}</Badge>,
    }),
    // Searched by the table's search box, shown under the name.
    col.accessor((p) => p.sisProgramId ?? '', { id: 'sisProgramId', header: 'SIS ID' }),
    col.display({
      id: 'actions',
      header: () => <span className="sr-only">Actions</span>,
      meta: { className: 'w-px text-right' },
      cell: ({ row }) => (
        <div className="flex justify-end gap-0.5">
          <IconButton icon={Pencil} label={`Edit ${row.original.programName}`} onClick={() => opts.onEdit(row.original)} />
          <IconButton icon={Clock} label={`Clock-hour policy of ${row.original.programName}`} onClick={() => opts.onPolicy(row.original)} />
          <IconButton icon={Timer} label={`Time-clock rules of ${row.original.programName}`} onClick={() => opts.onTimeClock(row.original)} />
        </div>
      ),
    }),
  ];
  return columns as ColumnDef<Program, never>[];
}
