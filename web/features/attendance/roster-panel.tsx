import { getCoreRowModel, useReactTable } from '@tanstack/react-table';
import { Users } from 'lucide-react';
import { useMemo, useState } from 'react';
import type { AttendanceRow } from '../../../common/attendance.ts';
import type { Schedule } from '../../../common/schedules.ts';
import { Alert } from '../../components/ui/alert.tsx';
import { RecordHistoryDialog, type HistoryTarget } from '../../components/record-history-dialog.tsx';
import { Card } from '../../components/ui/card.tsx';
import { DataTable } from '../../components/ui/data-table.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { cn } from '../../lib/cn.ts';
import { useRoster } from './attendance-api.ts';
import { formatDate } from '../../lib/format.ts';
import { useSettings } from '../../lib/shared-queries.ts';
import { classSpan } from './live-minutes.ts';
import { MeetingDateBar } from './meeting-date.tsx';
import { MissedPunchRequests } from './missed-punch-requests.tsx';
import { OverrideDialog } from './override-dialog.tsx';
import { ProxyFlagDialog, flagStanding } from './proxy-flags.tsx';
import { isIn, rosterColumns } from './roster-columns.tsx';
import { openScanFlag } from './scan-flag.tsx';

type Filter = 'all' | 'missing' | 'in';
const NO_ROWS: AttendanceRow[] = [];
const FILTERS: { value: Filter; label: string }[] = [
  { value: 'all', label: 'All' },
  { value: 'missing', label: 'Not checked in' },
  { value: 'in', label: 'Checked in' },
];

/**
 * The class roster merged with one meeting's records (the server's list, no sample students),
 * polled every 5 s while a session is live (SPEC §4), with a manual override per row. The meeting
 * is today's (or the running session's) unless a past date is picked to review and correct.
 * A table on a screen, one card per student on a phone (roster-columns.tsx).
 */
export function RosterPanel({
  schedule,
  date,
  live,
  today,
  onPickDate,
}: {
  schedule: Schedule;
  date: string | null;
  live: boolean;
  /** The school's date today, when known. */
  today: string | null;
  onPickDate: (date: string | null) => void;
}) {
  const roster = useRoster(schedule.id, date, live);
  const timeZone = useSettings().data?.attendance.timeZone;
  const [filter, setFilter] = useState<Filter>('all');
  // The student being overridden; their row is read fresh from each poll (a scan may land meanwhile).
  const [editingId, setEditingId] = useState<number | null>(null);
  // The student whose "possible proxy" evidence is open, likewise read fresh from each poll.
  const [reviewingId, setReviewingId] = useState<number | null>(null);
  const [history, setHistory] = useState<HistoryTarget | null>(null);
  const rows = roster.data ?? NO_ROWS;
  const checkedIn = rows.filter(isIn).length;
  const missing = rows.filter((r) => r.status == null).length;
  // Kept while rows and filter stay: a new array on every render would make the table recount its rows each time.
  const shown = useMemo(() => rows.filter((r) => (filter === 'all' ? true : filter === 'in' ? isIn(r) : r.status == null)), [rows, filter]);
  const rate = rows.length ? Math.round((checkedIn / rows.length) * 100) : 0;
  const sessionDate = rows[0]?.sessionDate;
  // While class runs, minutes are shown as so far / projected to the scheduled end.
  const span = useMemo(
    () => (live && sessionDate && timeZone ? classSpan(sessionDate, schedule.startTime, schedule.endTime, timeZone) : null),
    [live, sessionDate, timeZone, schedule.startTime, schedule.endTime],
  );
  const editing = rows.find((r) => r.studentId === editingId) ?? null;
  const reviewing = rows.find((r) => r.studentId === reviewingId) ?? null;
  const toReview = rows.filter((r) => flagStanding(r) === 'flagged').length;
  const scansToReview = rows.filter((r) => openScanFlag(r) != null).length;
  const columns = useMemo(
    () =>
      rosterColumns({
        scheduleId: schedule.id,
        span,
        onOverride: (r) => setEditingId(r.studentId),
        onReview: (r) => setReviewingId(r.studentId),
        onHistory: (r) =>
          r.id != null &&
          setHistory({ id: r.id, description: `${r.firstName} ${r.lastName} · ${schedule.courseCode} · ${formatDate(r.sessionDate, 'medium')}` }),
      }),
    [schedule.id, schedule.courseCode, span],
  );
  // eslint-disable-next-line react-hooks/incompatible-library
  const table = useReactTable({
    data: shown,
    columns,
    enableSorting: false,
    // Not paged: nothing to reset when the rows change (a reset is a state change, hence another render).
    autoResetPageIndex: false,
    getRowId: (r) => String(r.studentId),
    getCoreRowModel: getCoreRowModel(),
  });

  return (
    <Card className="overflow-hidden">
      <div className="flex flex-wrap items-end justify-between gap-4 border-b border-slate-200 px-5 py-4 sm:px-6">
        <div>
          <h2 className="text-base font-semibold text-slate-900">Roster</h2>
          <p className="text-sm text-slate-600">
            {schedule.courseName}
            {sessionDate ? ` · ${formatDate(sessionDate)}` : ''}
          </p>
        </div>
        <div className="flex items-center gap-3 text-xs text-slate-600">
          {live ? (
            <span className="inline-flex items-center gap-1.5 font-medium text-emerald-800">
              <span aria-hidden="true" className="size-2 animate-pulse rounded-full bg-emerald-500" />
              Live · updates every 5 s
            </span>
          ) : null}
          {roster.dataUpdatedAt ? <span>Updated {new Date(roster.dataUpdatedAt).toLocaleTimeString()}</span> : null}
          {roster.isFetching ? <Spinner className="size-3.5 text-slate-400" /> : null}
        </div>
      </div>

      <MeetingDateBar schedule={schedule} date={date ?? today ?? sessionDate ?? ''} today={today} onPickDate={onPickDate} />

      {roster.isPending ? (
        <div role="status" aria-label="Loading roster" className="flex justify-center py-12">
          <Spinner className="size-6 text-blue-700" />
        </div>
      ) : roster.isError && !roster.data ? (
        <div className="p-5 sm:p-6">
          <Alert>The roster could not be loaded. {roster.isFetching ? 'Trying again…' : 'Reload the page to try again.'}</Alert>
        </div>
      ) : rows.length === 0 ? (
        <div className="flex flex-col items-center px-6 py-12 text-center">
          <Users aria-hidden="true" className="size-8 text-slate-400" />
          <p className="mt-3 text-sm font-medium text-slate-900">No students on this roster yet</p>
          <p className="mt-1 max-w-md text-sm text-slate-600">An administrator adds students to the class on the Schedules screen.</p>
        </div>
      ) : (
        <>
          <div className="flex flex-wrap items-center justify-between gap-4 px-5 py-4 sm:px-6">
            <div className="min-w-[14rem] flex-1">
              <p className="text-sm text-slate-700" data-testid="roster-summary">
                Checked in <span className="text-lg font-bold text-slate-900">{checkedIn}</span> of{' '}
                <span className="font-semibold text-slate-900">{rows.length}</span>
                <span className="text-slate-500"> · {missing} not checked in</span>
                {toReview > 0 ? <span className="font-medium text-amber-900"> · {toReview} possible proxy to review</span> : null}
                {scansToReview > 0 ? <span className="font-medium text-amber-900"> · {scansToReview} scanned while marked absent</span> : null}
              </p>
              <div
                role="progressbar"
                aria-label="Checked in"
                aria-valuemin={0}
                aria-valuemax={rows.length}
                aria-valuenow={checkedIn}
                aria-valuetext={`${checkedIn} of ${rows.length} checked in`}
                className="mt-2 h-2 max-w-md overflow-hidden rounded-full bg-slate-100"
              >
                <div className="h-full rounded-full bg-emerald-500 transition-[width]" style={{ width: `${rate}%` }} />
              </div>
            </div>
            <div role="group" aria-label="Show students" className="inline-flex rounded-lg bg-slate-100 p-1">
              {FILTERS.map((f) => (
                <button
                  key={f.value}
                  type="button"
                  aria-pressed={filter === f.value}
                  onClick={() => setFilter(f.value)}
                  className={cn(
                    'rounded-md px-3 py-1.5 text-xs font-semibold transition-colors',
                    filter === f.value ? 'bg-white text-slate-900 shadow-sm' : 'text-slate-600 hover:text-slate-900',
                  )}
                >
                  {f.label}
                </button>
              ))}
            </div>
          </div>

          <DataTable
            table={table}
            caption={`Roster for ${schedule.courseName}: attendance status, check-in and check-out times`}
            empty={filter === 'missing' ? 'Everyone has a record for this meeting.' : 'Nobody has checked in yet.'}
            className="border-t border-slate-200"
            cardsOnPhone
          />
        </>
      )}
      <MissedPunchRequests scheduleId={schedule.id} date={date ?? sessionDate ?? null} />
      <OverrideDialog row={editing} scheduleId={schedule.id} onClose={() => setEditingId(null)} />
      <ProxyFlagDialog row={reviewing} scheduleId={schedule.id} onClose={() => setReviewingId(null)} />
      <RecordHistoryDialog record={history} onClose={() => setHistory(null)} />
    </Card>
  );
}
