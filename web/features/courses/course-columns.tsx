import { createColumnHelper, type ColumnDef } from '@tanstack/react-table';
import { Pencil, Power, PowerOff } from 'lucide-react';
import type { Course } from '../../../common/courses.ts';
import { Badge } from '../../components/ui/badge.tsx';
import { IconButton } from '../../components/ui/icon-button.tsx';

const col = createColumnHelper<Course>();
const muted = (text = '—') => <span className="text-slate-500">{text}</span>;

function formatHours(hours: number | null): string {
  return hours == null ? '' : hours.toLocaleString('en-US', { maximumFractionDigits: 1 });
}

export function courseColumns(opts: {
  codeOf: (id: number) => string;
  onEdit: (c: Course) => void;
  onToggle: (c: Course) => void;
  togglingId: number | null;
}): ColumnDef<Course, never>[] {
  const columns = [
    col.accessor('id', { header: 'ID', enableGlobalFilter: false, meta: { className: 'w-px tabular-nums text-slate-600' } }),
    col.accessor('courseCode', {
      header: 'Code',
      meta: { rowHeader: true },
      cell: ({ getValue }) => <span className="font-mono text-xs font-semibold whitespace-nowrap text-slate-900">{getValue()}</span>,
    }),
    col.accessor('courseName', {
      header: 'Course',
      cell: ({ row }) => (
        <div className="min-w-48">
          <p className="font-medium text-slate-900">{row.original.courseName}</p>
          {row.original.description ? <p className="mt-0.5 line-clamp-1 text-xs text-slate-600">{row.original.description}</p> : null}
          {row.original.sisCourseId ? <p className="mt-0.5 font-mono text-xs text-slate-600">SIS {row.original.sisCourseId}</p> : null}
        </div>
      ),
    }),
    col.accessor((c) => c.clockHours ?? -1, {
      id: 'clockHours',
      header: 'Hours',
      meta: { className: 'text-right' },
      enableGlobalFilter: false,
      cell: ({ row }) => (row.original.clockHours == null ? muted() : <span className="tabular-nums">{formatHours(row.original.clockHours)}</span>),
    }),
    col.accessor((c) => c.programName ?? '', {
      id: 'program',
      header: 'Program',
      cell: ({ getValue }) => (getValue() ? <span className="whitespace-nowrap">{getValue()}</span> : muted()),
    }),
    col.accessor((c) => c.prerequisiteIds.map(opts.codeOf).join(', '), {
      id: 'prerequisites',
      header: 'Prerequisites',
      enableSorting: false,
      cell: ({ row }) =>
        row.original.prerequisiteIds.length === 0 ? (
          muted('None')
        ) : (
          <div className="flex flex-wrap gap-1">
            {row.original.prerequisiteIds.map((id) => (
              <Badge key={id} tone="slate" className="font-mono">
                {opts.codeOf(id)}
              </Badge>
            ))}
          </div>
        ),
    }),
    // Hidden (shown under the course name) but still searched by the table's search box.
    col.accessor((c) => c.sisCourseId ?? '', {
      id: 'sisCourseId',
      header: 'SIS ID',
      cell: ({ getValue }) => (getValue() ? <span className="font-mono text-xs whitespace-nowrap">{getValue()}</span> : muted()),
    }),
    col.accessor((c) => (c.isActive ? 'Active' : 'Inactive'), {
      id: 'status',
      header: 'Status',
      cell: ({ getValue }) => <Badge tone={getValue() === 'Active' ? 'green' : 'slate'}>{getValue()}</Badge>,
    }),
    col.display({
      id: 'actions',
      header: () => <span className="sr-only">Actions</span>,
      meta: { className: 'w-px text-right' },
      cell: ({ row }) => {
        const c = row.original;
        return (
          <div className="flex justify-end gap-0.5">
            <IconButton icon={Pencil} label={`Edit ${c.courseCode}`} onClick={() => opts.onEdit(c)} />
            <IconButton
              icon={c.isActive ? PowerOff : Power}
              tone={c.isActive ? 'danger' : 'default'}
              label={`${c.isActive ? 'Deactivate' : 'Activate'} ${c.courseCode}`}
              disabled={opts.togglingId === c.id}
              onClick={() => opts.onToggle(c)}
            />
          </div>
        );
      },
    }),
  ];
  return columns as ColumnDef<Course, never>[];
}
