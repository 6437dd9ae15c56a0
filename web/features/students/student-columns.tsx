import { createColumnHelper, type ColumnDef } from '@tanstack/react-table';
import { Pencil, Trash2 } from 'lucide-react';
import { Link } from 'react-router';
import type { Student } from '../../../common/students.ts';
import { formatDate } from '../../lib/format.ts';
import { Badge } from '../../components/ui/badge.tsx';
import { IconButton } from '../../components/ui/icon-button.tsx';
import { EmailText } from '../../components/ui/email-text.tsx';
import { studentStatusLabel, studentStatusTone } from '../../components/student-status.ts';

export const studentName = (s: Pick<Student, 'firstName' | 'lastName'>) => `${s.firstName} ${s.lastName}`.trim();

const col = createColumnHelper<Student>();
const dash = (v: string | null | undefined) => v || <span className="text-slate-500">—</span>;

/**
 * Column ids are the server's sort keys (name, sisStudentId, email, program, status): sorting is
 * done by the API, the table only reports which header was chosen.
 */
export function studentColumns(opts: {
  showSsn: boolean;
  canManage: boolean;
  onEdit: (s: Student) => void;
  onDelete: (s: Student) => void;
}): ColumnDef<Student, never>[] {
  const columns = [
    col.accessor('id', { id: 'id', header: 'ID', meta: { className: 'w-px tabular-nums text-slate-600' } }),
    col.accessor((s) => studentName(s), {
      id: 'name',
      header: 'Name',
      meta: { rowHeader: true },
      // The name opens the student page (hours, make-up, records with their corrections).
      cell: ({ row }) => (
        <Link to={`/students/${row.original.id}`} className="font-medium whitespace-nowrap text-blue-800 underline-offset-2 hover:underline">
          {row.original.lastName}, {row.original.firstName}
        </Link>
      ),
    }),
    col.accessor('sisStudentId', {
      id: 'sisStudentId',
      header: 'SIS ID',
      cell: ({ getValue }) => <span className="font-mono text-xs whitespace-nowrap">{dash(getValue())}</span>,
    }),
    // Wide enough that an address wraps once (after the @), not at every dot, on a 1366 px screen.
    col.accessor('email', {
      id: 'email',
      header: 'E-mail',
      meta: { className: 'min-w-56' },
      cell: ({ getValue }) => (getValue() ? <EmailText address={getValue()!} /> : dash(null)),
    }),
    col.accessor('phone', {
      id: 'phone',
      header: 'Phone',
      enableSorting: false,
      cell: ({ getValue }) => <span className="whitespace-nowrap">{dash(getValue())}</span>,
    }),
    col.accessor('programName', { id: 'program', header: 'Program', cell: ({ getValue }) => <span className="whitespace-nowrap">{dash(getValue())}</span> }),
    col.accessor('status', {
      id: 'status',
      header: 'Status',
      cell: ({ getValue }) => <Badge tone={studentStatusTone(getValue())}>{studentStatusLabel(getValue())}</Badge>,
    }),
    col.accessor('lastDateOfAttendance', {
      id: 'lastDateOfAttendance',
      header: 'Last attended',
      enableSorting: false,
      cell: ({ getValue }) => {
        const v = getValue();
        return <span className="whitespace-nowrap">{v ? formatDate(v, 'medium') : '—'}</span>;
      },
    }),
    ...(opts.showSsn
      ? [
          col.accessor((s) => s.ssnMasked ?? null, {
            id: 'ssn',
            header: 'SSN',
            enableSorting: false,
            cell: ({ getValue }) => <span className="font-mono text-xs whitespace-nowrap">{dash(getValue())}</span>,
          }),
        ]
      : []),
    ...(opts.canManage
      ? [
          col.display({
            id: 'actions',
            header: () => <span className="sr-only">Actions</span>,
            meta: { className: 'w-px text-right' },
            cell: ({ row }) => (
              <div className="flex justify-end gap-0.5">
                <IconButton icon={Pencil} label={`Edit ${studentName(row.original)}`} onClick={() => opts.onEdit(row.original)} />
                <IconButton icon={Trash2} tone="danger" label={`Delete ${studentName(row.original)}`} onClick={() => opts.onDelete(row.original)} />
              </div>
            ),
          }),
        ]
      : []),
  ];
  return columns as ColumnDef<Student, never>[];
}
