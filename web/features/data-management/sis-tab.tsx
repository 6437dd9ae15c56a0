import { createColumnHelper, getCoreRowModel, useReactTable } from '@tanstack/react-table';
import { useMemo } from 'react';
import { Link } from 'react-router';
import { IMPORT_TYPES } from '../../../common/import-columns.ts';
import { ATTENDANCE_EXPORT_COLUMNS } from '../../../common/exports.ts';
import { snakeCase } from '../../../common/import-column-rules.ts';
import type { SisStatus } from '../../../common/sis.ts';
import { Alert } from '../../components/ui/alert.tsx';
import { Badge } from '../../components/ui/badge.tsx';
import { Card } from '../../components/ui/card.tsx';
import { DataTable } from '../../components/ui/data-table.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { useSisStatus } from './data-management-api.ts';
import { formatCount, formatDateTime } from '../../lib/format.ts';

const SYNC_TYPES = [
  { status: 'pending', tone: 'amber', meaning: 'Awaiting sync: changed here and not yet taken by the SIS.' },
  {
    status: 'synced',
    tone: 'green',
    meaning:
      'Synced: the SIS has this version. An attendance record becomes synced when an export marked as sent to the SIS carries it, and pending again if it changes later.',
  },
  { status: 'failed', tone: 'red', meaning: 'Failed: needs attention before the next exchange.' },
  { status: 'manual', tone: 'violet', meaning: 'Manual: processed by hand, no automatic sync.' },
] as const;

const TABLE_LABEL: Record<SisStatus['tables'][number]['table'], string> = {
  programs: 'Programs',
  courses: 'Courses',
  instructors: 'Instructors',
  students: 'Students',
  schedules: 'Schedules',
  attendance: 'Attendance records',
};

/** SIS Integration (SPEC §2): purpose, systems, sync states with live counts, identifiers, the manual steps, export columns. */
export function SisTab() {
  const status = useSisStatus();
  return (
    <div className="grid gap-6">
      <div className="grid gap-6 lg:grid-cols-2">
        <Card className="p-5 sm:p-6">
          <h2 className="text-lg font-semibold text-slate-900">Purpose</h2>
          <p className="mt-2 text-sm leading-6 text-slate-700">
            Muster keeps attendance; your student information system (SIS) stays the record of programs, courses, students and grades. Records carry the SIS
            identifiers, so rosters come in from the SIS and attendance with clock hours goes back to it without retyping.
          </p>
          <p className="mt-2 text-sm leading-6 text-slate-700">
            Integration is manual today: export a CSV here and upload it in the SIS. Automated sync is planned for future updates.
          </p>
        </Card>
        <Card className="p-5 sm:p-6">
          <h2 className="text-lg font-semibold text-slate-900">Supported systems</h2>
          <ul className="mt-3 grid gap-2 text-sm text-slate-700">
            <li className="flex items-start gap-2">
              <Badge tone="green">Primary</Badge>
              <span>Any SIS that imports and exports CSV, through the templates and the attendance export (available now, manual).</span>
            </li>
            <li className="flex items-start gap-2">
              <Badge tone="slate">Planned</Badge>
              <span>OneRoster 1.2 CSV exchange (orgs, users, classes, enrollments).</span>
            </li>
            <li className="flex items-start gap-2">
              <Badge tone="slate">Planned</Badge>
              <span>Automated sync with the school&apos;s SIS through its API, replacing the manual export.</span>
            </li>
          </ul>
        </Card>
      </div>

      <Card className="overflow-hidden">
        <div className="px-5 pt-5 sm:px-6">
          <h2 className="text-lg font-semibold text-slate-900">Sync status</h2>
          <ul className="mt-3 grid gap-2 text-sm text-slate-700 sm:grid-cols-2">
            {SYNC_TYPES.map((s) => (
              <li key={s.status} className="flex items-start gap-2">
                <Badge tone={s.tone}>{s.status}</Badge>
                <span>{s.meaning}</span>
              </li>
            ))}
          </ul>
        </div>
        <div className="mt-4">
          {status.isLoading ? (
            <p role="status" className="flex items-center gap-2 px-6 pb-6 text-sm text-slate-600">
              <Spinner className="size-4 text-blue-700" /> Counting records…
            </p>
          ) : status.data ? (
            <SyncTable data={status.data} />
          ) : (
            <div className="px-5 pb-5 sm:px-6">
              <Alert>The sync status could not be loaded. Reload the page to try again.</Alert>
            </div>
          )}
        </div>
      </Card>

      <div className="grid gap-6 lg:grid-cols-2">
        <Card className="p-5 sm:p-6">
          <h2 className="text-lg font-semibold text-slate-900">SIS identifier fields</h2>
          <p className="mt-1 text-sm text-slate-600">Every imported record keeps its SIS identifier; re-importing updates by it.</p>
          <ul className="mt-3 grid gap-1.5 text-sm text-slate-700">
            {IMPORT_TYPES.map((t) => (
              <li key={t.type}>
                <span className="font-medium">{t.label}:</span> <code className="text-xs">{snakeCase(t.key)}</code>{' '}
                <span className="text-slate-600">(CSV column {t.key})</span>
              </li>
            ))}
          </ul>
        </Card>
        <Card className="p-5 sm:p-6">
          <h2 className="text-lg font-semibold text-slate-900">Manual integration steps</h2>
          <ol className="mt-3 list-decimal space-y-1.5 pl-5 text-sm text-slate-700">
            <li>Export programs, courses, instructors, students and schedules from the SIS as CSV in the layout of the templates.</li>
            <li>
              Upload them in order with the{' '}
              <Link className="font-medium text-blue-800 underline" to="/data-management?tab=wizard">
                Upload Wizard
              </Link>
              ; preview first to see every problem.
            </li>
            <li>
              Take attendance as usual; then{' '}
              <Link className="font-medium text-blue-800 underline" to="/data-management?tab=export">
                export attendance
              </Link>{' '}
              for the period, with Mark as sent to the SIS left on, so the records it carries count as synced and Pending Sync drops.
            </li>
            <li>Import attendance_export_{'{date}'}.csv in the SIS, matching students by sisStudentId and sections by sisScheduleId.</li>
            <li>Repeat the export each period; re-imports from the SIS update records instead of duplicating them.</li>
          </ol>
        </Card>
      </div>

      <Card className="p-5 sm:p-6">
        <h2 className="text-lg font-semibold text-slate-900">Attendance export columns</h2>
        <ul className="mt-3 flex flex-wrap gap-1.5">
          {ATTENDANCE_EXPORT_COLUMNS.map((c) => (
            <li key={c}>
              <code className="rounded bg-slate-100 px-1.5 py-0.5 text-xs text-slate-800">{c}</code>
            </li>
          ))}
        </ul>
      </Card>
    </div>
  );
}

type SyncRow = Omit<SisStatus['tables'][number], 'table'> & { label: string; isTotal?: boolean };

const sync = createColumnHelper<SyncRow>();
const count = (header: string, key: 'pending' | 'synced' | 'failed' | 'manual' | 'total') =>
  sync.accessor(key, { header, cell: ({ getValue }) => formatCount(getValue()), meta: { className: 'text-right tabular-nums' } });
const SYNC_COLUMNS = [
  sync.accessor('label', {
    header: 'Records',
    cell: ({ getValue }) => <span className="font-semibold text-slate-900">{getValue()}</span>,
    meta: { rowHeader: true },
  }),
  count('Pending', 'pending'),
  count('Synced', 'synced'),
  count('Failed', 'failed'),
  count('Manual', 'manual'),
  count('Total', 'total'),
  sync.accessor('lastSyncDate', {
    header: 'Last SIS sync',
    cell: ({ getValue, row }) => (row.original.isTotal ? '' : getValue() ? formatDateTime(getValue()!) : '—'),
    meta: { className: 'text-slate-600' },
  }),
];

function SyncTable({ data }: { data: SisStatus }) {
  const rows = useMemo<SyncRow[]>(
    () => [...data.tables.map(({ table, ...t }) => ({ ...t, label: TABLE_LABEL[table] })), { ...data.totals, label: 'All', lastSyncDate: null, isTotal: true }],
    [data],
  );
  // eslint-disable-next-line react-hooks/incompatible-library
  const table = useReactTable({ data: rows, columns: SYNC_COLUMNS, getRowId: (r) => r.label, getCoreRowModel: getCoreRowModel(), enableSorting: false });
  return (
    <DataTable
      table={table}
      caption="Sync status counts per table"
      empty="No records"
      cardsOnPhone
      rowClassName={(r) => (r.isTotal ? 'bg-slate-50 font-semibold' : undefined)}
      className="border-t border-slate-200"
    />
  );
}
