import { createColumnHelper, type ColumnDef } from '@tanstack/react-table';
import { History, PencilLine, Undo2 } from 'lucide-react';
import { Link } from 'react-router';
import { punchPairs, type AttendanceRow, type BreakKind } from '../../../common/attendance.ts';
import { BreakPunchList } from '../../components/break-punches.tsx';
import { Badge } from '../../components/ui/badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import { IconButton } from '../../components/ui/icon-button.tsx';
import { formatLocalTime } from '../../lib/format.ts';
import { useServerNow } from '../../lib/server-clock.ts';
import { useUndoCheckOut } from './attendance-api.ts';
import { formatMinutes } from './format.ts';
import { liveMinutes, type ClassSpan } from './live-minutes.ts';
import { ProxyFlagBadge, flagStanding } from './proxy-flags.tsx';
import { ScanFlagNotice } from './scan-flag.tsx';
import { AttendanceStatusBadge } from './status-badge.tsx';

/** Attended the meeting (a scan or an override to present/late); absent and excused did not. */
export const isIn = (r: AttendanceRow) => r.status === 'present' || r.status === 'late' || r.status === 'incomplete';
/** Checked in and out: the check-out can be undone in one action (POST /api/attendance/{id}/undo-check-out). */
const canUndoCheckOut = (r: AttendanceRow) => r.id != null && r.scanInTime != null && r.scanOutTime != null && isIn(r);

const studentName = (r: AttendanceRow) => `${r.firstName} ${r.lastName}`;
const none = <span className="text-slate-400">—</span>;

const ON_BREAK_LABELS: Record<BreakKind, string> = { break: 'On break', lunch: 'At lunch', instructor: 'On class break' };
/** The break the student is out on now, if any (a break never ended: they left at its start unless they come back). */
const openBreak = (r: AttendanceRow) => r.breaks.find((b) => b.endedAt == null) ?? null;

type RosterColumnOptions = {
  scheduleId: number;
  /** The class under way (live minutes so far / projected), or null. */
  span: ClassSpan | null;
  onOverride: (r: AttendanceRow) => void;
  onReview: (r: AttendanceRow) => void;
  onHistory: (r: AttendanceRow) => void;
};

const col = createColumnHelper<AttendanceRow>();

/**
 * The live roster's columns, drawn by the shared DataTable (decision 046): a table that fits a
 * 1366 px screen (names, reasons, minutes and actions wrap rather than widen it; the actions stay
 * pinned if it still cannot fit), and one card per student on a phone, status and actions included.
 */
export function rosterColumns(o: RosterColumnOptions): ColumnDef<AttendanceRow, never>[] {
  const columns = [
    col.accessor(studentName, {
      id: 'student',
      header: 'Student',
      meta: { rowHeader: true, className: 'font-medium' },
      cell: ({ row }) => (
        <Link to={`/students/${row.original.studentId}`} className="text-blue-700 underline-offset-2 hover:underline">
          {studentName(row.original)}
        </Link>
      ),
    }),
    col.accessor('sisStudentId', {
      header: 'SIS ID',
      cell: ({ getValue }) => <span className="font-mono text-xs whitespace-nowrap">{getValue() ?? '—'}</span>,
    }),
    col.accessor('status', {
      header: 'Status',
      cell: ({ row: { original: r } }) => (
        <>
          <AttendanceStatusBadge status={r.status} />
          {openBreak(r) ? (
            <Badge tone="amber" className="ml-1">
              {ON_BREAK_LABELS[openBreak(r)!.kind]}
            </Badge>
          ) : null}
          {r.isManualOverride ? (
            <p className="mt-1 max-w-[14rem] text-xs text-slate-600">
              <span className="font-medium">Override:</span> {r.overrideReason}
            </p>
          ) : r.source === 'auto' ? (
            <p className="mt-1 text-xs text-slate-500">Marked automatically</p>
          ) : null}
          {flagStanding(r) ? (
            <div>
              <ProxyFlagBadge row={r} onOpen={() => o.onReview(r)} />
            </div>
          ) : null}
          <ScanFlagNotice row={r} scheduleId={o.scheduleId} />
        </>
      ),
    }),
    col.accessor('scanInTime', {
      header: 'Check-in',
      meta: { className: 'tabular-nums whitespace-nowrap' },
      // The breaks go under the check-in: a column of their own pushed the roster past a 1366 px screen.
      cell: ({ row: { original: r } }) => (
        <>
          {formatLocalTime(r.scanInTime) ?? none}
          <BreakPunches row={r} />
        </>
      ),
    }),
    col.accessor('scanOutTime', {
      header: 'Check-out',
      meta: { className: 'tabular-nums whitespace-nowrap' },
      cell: ({ getValue }) => formatLocalTime(getValue()) ?? none,
    }),
    col.accessor('minutesAttended', {
      id: 'minutes',
      header: o.span ? 'Minutes (so far / projected)' : 'Minutes',
      // The long live header wraps instead of widening the table.
      meta: { className: 'tabular-nums whitespace-normal!' },
      cell: ({ row: { original: r } }) =>
        o.span && r.scanInTime && isIn(r) ? (
          <LiveMinutes row={r} span={o.span} />
        ) : (
          <>
            {formatMinutes(r.minutesAttended) ?? none}
            {r.scheduledMinutes ? <span className="text-xs text-slate-500"> / {formatMinutes(r.scheduledMinutes)}</span> : null}
          </>
        ),
    }),
    col.display({
      id: 'actions',
      header: () => <span className="sr-only">Actions</span>,
      // As narrow as its buttons on one line: the other columns wrap instead (Override was cut at 1366 px).
      meta: { className: 'w-px text-right' },
      cell: ({ row }) => <RosterActions row={row.original} scheduleId={o.scheduleId} onOverride={o.onOverride} onHistory={o.onHistory} />,
    }),
  ];
  return columns as ColumnDef<AttendanceRow, never>[];
}

function RosterActions({
  row,
  scheduleId,
  onOverride,
  onHistory,
}: {
  row: AttendanceRow;
  scheduleId: number;
  onOverride: (r: AttendanceRow) => void;
  onHistory: (r: AttendanceRow) => void;
}) {
  const undo = useUndoCheckOut();
  const name = studentName(row);
  return (
    // One line in the table; on a phone's card they may wrap. Override comes last, at the right edge.
    <div className="flex flex-wrap items-center justify-end gap-1 md:flex-nowrap">
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
      {row.id != null ? <IconButton icon={History} label={`History of ${name}'s record`} onClick={() => onHistory(row)} /> : null}
      <Button size="sm" variant="ghost" onClick={() => onOverride(row)} aria-label={`Override attendance for ${name}`} icon={PencilLine}>
        Override
      </Button>
    </div>
  );
}

/** Every break of a row (web/components/break-punches.tsx). */
function BreakPunches({ row }: { row: AttendanceRow }) {
  if (row.breaks.length === 0) return null;
  return <BreakPunchList breaks={row.breaks} label={`Breaks of ${studentName(row)}`} />;
}

/** Live minutes over the punch pairs (the breaks left out): liveMinutes of each stretch, added up. */
function punchedLiveMinutes(row: AttendanceRow, span: ClassSpan, now: number): { soFar: number; projected: number } | null {
  if (!row.scanInTime || row.breaks.length === 0) return liveMinutes(row, span, now);
  const iso = (ms: number | null) => (ms == null ? null : new Date(ms).toISOString());
  const breaks = row.breaks.map((b) => ({ startedAt: Date.parse(b.startedAt), endedAt: b.endedAt ? Date.parse(b.endedAt) : null }));
  const total = { soFar: 0, projected: 0 };
  for (const p of punchPairs(Date.parse(row.scanInTime), row.scanOutTime ? Date.parse(row.scanOutTime) : null, breaks)) {
    const m = liveMinutes({ scanInTime: iso(p.in), scanOutTime: iso(p.out) }, span, now);
    total.soFar += m?.soFar ?? 0;
    total.projected += m?.projected ?? 0;
  }
  return total;
}

/** A checked-in student's minutes while class runs, redrawn every second on the server's clock. */
function LiveMinutes({ row, span }: { row: AttendanceRow; span: ClassSpan }) {
  const now = useServerNow();
  const m = punchedLiveMinutes(row, span, now);
  if (!m) return null;
  return (
    <span data-testid="live-minutes">
      <span className="whitespace-nowrap">
        <span className="font-medium text-slate-900">{formatMinutes(m.soFar)}</span> so far
      </span>
      <span className="text-slate-400"> / </span>
      {formatMinutes(m.projected)} projected
    </span>
  );
}
