import { History, PencilLine, Undo2, Users } from 'lucide-react';
import { Link } from 'react-router';
import { useState } from 'react';
import type { AttendanceRow } from '../../../common/attendance.ts';
import type { Schedule } from '../../../common/schedules.ts';
import { Alert } from '../../components/ui/alert.tsx';
import { RecordHistoryDialog, type HistoryTarget } from '../../components/record-history-dialog.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { cn } from '../../lib/cn.ts';
import { useRoster, useUndoCheckOut } from './attendance-api.ts';
import { formatDate, formatLocalTime } from '../../lib/format.ts';
import { useServerNow } from '../../lib/server-clock.ts';
import { useSettings } from '../../lib/shared-queries.ts';
import { formatMinutes } from './format.ts';
import { classSpan, liveMinutes, type ClassSpan } from './live-minutes.ts';
import { MeetingDateBar } from './meeting-date.tsx';
import { OverrideDialog } from './override-dialog.tsx';
import { ProxyFlagBadge, ProxyFlagDialog, flagStanding } from './proxy-flags.tsx';
import { ScanFlagNotice, openScanFlag } from './scan-flag.tsx';
import { AttendanceStatusBadge } from './status-badge.tsx';

type Filter = 'all' | 'missing' | 'in';
const FILTERS: { value: Filter; label: string }[] = [
  { value: 'all', label: 'All' },
  { value: 'missing', label: 'Not checked in' },
  { value: 'in', label: 'Checked in' },
];

/** Attended the meeting (a scan or an override to present/late); absent and excused did not. */
const isIn = (r: AttendanceRow) => r.status === 'present' || r.status === 'late' || r.status === 'incomplete';
/** Checked in and out: the check-out can be undone in one action (POST /api/attendance/{id}/undo-check-out). */
const canUndoCheckOut = (r: AttendanceRow) => r.id != null && r.scanInTime != null && r.scanOutTime != null && isIn(r);

/**
 * The class roster merged with one meeting's records (the server's list, no sample students),
 * polled every 5 s while a session is live (SPEC §4), with a manual override per row. The meeting
 * is today's (or the running session's) unless a past date is picked to review and correct.
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
  const rows = roster.data ?? [];
  const checkedIn = rows.filter(isIn).length;
  const missing = rows.filter((r) => r.status == null).length;
  const shown = rows.filter((r) => (filter === 'all' ? true : filter === 'in' ? isIn(r) : r.status == null));
  const rate = rows.length ? Math.round((checkedIn / rows.length) * 100) : 0;
  const sessionDate = rows[0]?.sessionDate;
  // While class runs, minutes are shown as so far / projected to the scheduled end.
  const span = live && sessionDate && timeZone ? classSpan(sessionDate, schedule.startTime, schedule.endTime, timeZone) : null;
  const editing = rows.find((r) => r.studentId === editingId) ?? null;
  const reviewing = rows.find((r) => r.studentId === reviewingId) ?? null;
  const toReview = rows.filter((r) => flagStanding(r) === 'flagged').length;
  const scansToReview = rows.filter((r) => openScanFlag(r) != null).length;

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

          <div className="relative overflow-x-auto">
            <table className="w-full min-w-[44rem] text-left text-sm">
              <caption className="sr-only">Roster for {schedule.courseName}: attendance status, check-in and check-out times</caption>
              <thead className="border-y border-slate-200 bg-slate-50 text-xs font-semibold text-slate-600">
                <tr>
                  <th scope="col" className="px-5 py-2.5 sm:px-6">Student</th>
                  <th scope="col" className="px-3 py-2.5">SIS ID</th>
                  <th scope="col" className="px-3 py-2.5">Status</th>
                  <th scope="col" className="px-3 py-2.5">Check-in</th>
                  <th scope="col" className="px-3 py-2.5">Check-out</th>
                  <th scope="col" className="px-3 py-2.5">{span ? 'Minutes (so far / projected)' : 'Minutes'}</th>
                  <th scope="col" className="px-5 py-2.5 text-right sm:px-6">
                    <span className="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {shown.map((r) => (
                  <RosterRow
                    key={r.studentId}
                    row={r}
                    scheduleId={schedule.id}
                    span={span}
                    onOverride={() => setEditingId(r.studentId)}
                    onReview={() => setReviewingId(r.studentId)}
                    onHistory={() => r.id != null && setHistory({ id: r.id, description: `${r.firstName} ${r.lastName} · ${schedule.courseCode} · ${formatDate(r.sessionDate, 'medium')}` })}
                  />
                ))}
                {shown.length === 0 ? (
                  <tr>
                    <td colSpan={7} className="px-6 py-8 text-center text-sm text-slate-600">
                      {filter === 'missing' ? 'Everyone has a record for this meeting.' : 'Nobody has checked in yet.'}
                    </td>
                  </tr>
                ) : null}
              </tbody>
            </table>
          </div>
        </>
      )}
      <OverrideDialog row={editing} scheduleId={schedule.id} onClose={() => setEditingId(null)} />
      <ProxyFlagDialog row={reviewing} scheduleId={schedule.id} onClose={() => setReviewingId(null)} />
      <RecordHistoryDialog record={history} onClose={() => setHistory(null)} />
    </Card>
  );
}

function RosterRow({
  row,
  scheduleId,
  span,
  onOverride,
  onReview,
  onHistory,
}: {
  row: AttendanceRow;
  scheduleId: number;
  span: ClassSpan | null;
  onOverride: () => void;
  onReview: () => void;
  onHistory: () => void;
}) {
  const name = `${row.firstName} ${row.lastName}`;
  const minutes = formatMinutes(row.minutesAttended);
  const undo = useUndoCheckOut();
  return (
    <tr className="align-baseline hover:bg-slate-50/60" data-student-id={row.studentId}>
      <th scope="row" className="px-5 py-3 font-medium whitespace-nowrap text-slate-900 sm:px-6">
        <Link to={`/students/${row.studentId}`} className="text-blue-700 underline-offset-2 hover:underline">
          {name}
        </Link>
      </th>
      <td className="px-3 py-3 font-mono text-xs whitespace-nowrap text-slate-700">{row.sisStudentId ?? '—'}</td>
      <td className="px-3 py-3">
        <AttendanceStatusBadge status={row.status} />
        {row.isManualOverride ? (
          <p className="mt-1 max-w-[14rem] text-xs text-slate-600" title={row.overrideReason ?? undefined}>
            <span className="font-medium">Override:</span> {row.overrideReason}
          </p>
        ) : row.source === 'auto' ? (
          <p className="mt-1 text-xs text-slate-500">Marked automatically</p>
        ) : null}
        {flagStanding(row) ? (
          <div>
            <ProxyFlagBadge row={row} onOpen={onReview} />
          </div>
        ) : null}
        <ScanFlagNotice row={row} scheduleId={scheduleId} />
      </td>
      <td className="px-3 py-3 text-slate-700 tabular-nums">{formatLocalTime(row.scanInTime) ?? <span className="text-slate-400">—</span>}</td>
      <td className="px-3 py-3 text-slate-700 tabular-nums">{formatLocalTime(row.scanOutTime) ?? <span className="text-slate-400">—</span>}</td>
      <td className="px-3 py-3 text-slate-700 tabular-nums">
        {span && row.scanInTime && isIn(row) ? (
          <LiveMinutes row={row} span={span} />
        ) : (
          <>
            {minutes ?? <span className="text-slate-400">—</span>}
            {row.scheduledMinutes ? <span className="text-xs text-slate-500"> / {formatMinutes(row.scheduledMinutes)}</span> : null}
          </>
        )}
      </td>
      <td className="px-5 py-2 text-right sm:px-6">
        <div className="flex flex-wrap justify-end gap-1">
          {canUndoCheckOut(row) ? (
            <Button
              size="sm"
              variant="ghost"
              onClick={() => undo.mutate({ row, scheduleId })}
              disabled={undo.isPending}
              className="whitespace-nowrap"
              aria-label={`Undo check-out for ${name}`}
              icon={Undo2}
            >
              Undo check-out
            </Button>
          ) : null}
          {row.id != null ? (
            <Button size="sm" variant="ghost" onClick={onHistory} aria-label={`History of ${name}'s record`} icon={History}>History</Button>
          ) : null}
          <Button size="sm" variant="ghost" onClick={onOverride} aria-label={`Override attendance for ${name}`} icon={PencilLine}>Override</Button>
        </div>
      </td>
    </tr>
  );
}

/** A checked-in student's minutes while class runs, redrawn every second on the server's clock. */
function LiveMinutes({ row, span }: { row: AttendanceRow; span: ClassSpan }) {
  const now = useServerNow();
  const m = liveMinutes(row, span, now);
  if (!m) return null;
  return (
    <span data-testid="live-minutes" className="whitespace-nowrap">
      <span className="font-medium text-slate-900">{formatMinutes(m.soFar)}</span> so far
      <span className="text-slate-400"> / </span>
      {formatMinutes(m.projected)} projected
    </span>
  );
}
