import { Link } from 'react-router';
import { ATTENDANCE_EXPORT_COLUMNS, IMPORT_TYPES, snakeCase, type SisStatus } from '../../../common/import-columns.ts';
import { Alert } from '../../components/ui/alert.tsx';
import { Badge } from '../../components/ui/badge.tsx';
import { Card } from '../../components/ui/card.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { useSisStatus } from './data-management-api.ts';
import { formatCount, formatDateTime } from '../../lib/format.ts';

const SYNC_TYPES = [
  { status: 'pending', tone: 'amber', meaning: 'Awaiting sync: changed here and not yet taken by the SIS.' },
  { status: 'synced', tone: 'green', meaning: 'Synced: the SIS has this version.' },
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
            Muster keeps attendance; your student information system (SIS) stays the record of programs, courses, students and grades. Records carry the
            SIS identifiers, so rosters come in from the SIS and attendance with clock hours goes back to it without retyping.
          </p>
          <p className="mt-2 text-sm leading-6 text-slate-700">Integration is manual today: export a CSV here and upload it in the SIS. Automated sync is planned for future updates.</p>
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
                <span className="font-medium">{t.label}:</span> <code className="text-xs">{snakeCase(t.key)}</code> <span className="text-slate-600">(CSV column {t.key})</span>
              </li>
            ))}
          </ul>
        </Card>
        <Card className="p-5 sm:p-6">
          <h2 className="text-lg font-semibold text-slate-900">Manual integration steps</h2>
          <ol className="mt-3 list-decimal space-y-1.5 pl-5 text-sm text-slate-700">
            <li>Export programs, courses, instructors, students and schedules from the SIS as CSV in the layout of the templates.</li>
            <li>
              Upload them in order with the <Link className="font-medium text-blue-800 underline" to="/data-management?tab=wizard">Upload Wizard</Link>; preview first to see every problem.
            </li>
            <li>
              Take attendance as usual; then <Link className="font-medium text-blue-800 underline" to="/data-management?tab=export">export attendance</Link> for the period.
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

function SyncTable({ data }: { data: SisStatus }) {
  const cell = 'px-4 py-2 text-right tabular-nums';
  return (
    <div className="overflow-x-auto">
      <table className="min-w-full text-left text-sm">
        <caption className="sr-only">Sync status counts per table</caption>
        <thead className="border-y border-slate-200 bg-slate-50 text-xs text-slate-600 uppercase">
          <tr>
            <th scope="col" className="px-4 py-2 sm:px-6">Records</th>
            {['Pending', 'Synced', 'Failed', 'Manual', 'Total'].map((h) => (
              <th key={h} scope="col" className="px-4 py-2 text-right">
                {h}
              </th>
            ))}
            <th scope="col" className="px-4 py-2">Last SIS sync</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {data.tables.map((t) => (
            <tr key={t.table}>
              <th scope="row" className="px-4 py-2 font-medium text-slate-900 sm:px-6">
                {TABLE_LABEL[t.table]}
              </th>
              <td className={cell}>{formatCount(t.pending)}</td>
              <td className={cell}>{formatCount(t.synced)}</td>
              <td className={cell}>{formatCount(t.failed)}</td>
              <td className={cell}>{formatCount(t.manual)}</td>
              <td className={cell}>{formatCount(t.total)}</td>
              <td className="px-4 py-2 text-slate-600">{t.lastSyncDate ? formatDateTime(t.lastSyncDate) : '—'}</td>
            </tr>
          ))}
          <tr className="bg-slate-50 font-semibold">
            <th scope="row" className="px-4 py-2 text-slate-900 sm:px-6">
              All
            </th>
            <td className={cell}>{formatCount(data.totals.pending)}</td>
            <td className={cell}>{formatCount(data.totals.synced)}</td>
            <td className={cell}>{formatCount(data.totals.failed)}</td>
            <td className={cell}>{formatCount(data.totals.manual)}</td>
            <td className={cell}>{formatCount(data.totals.total)}</td>
            <td />
          </tr>
        </tbody>
      </table>
    </div>
  );
}
