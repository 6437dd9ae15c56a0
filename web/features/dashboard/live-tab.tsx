import type { UseQueryResult } from '@tanstack/react-query';
import { Clock, Gauge, MapPin, QrCode, RefreshCw, Timer, User, Users } from 'lucide-react';
import { useEffect } from 'react';
import { Link } from 'react-router';
import { REALTIME_REFRESH_MS } from '../../../common/constants.ts';
import { Badge, type BadgeTone } from '../../components/ui/badge.tsx';
import { Button, buttonClasses } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { cn } from '../../lib/cn.ts';
import { formatClock, formatCount, formatTimeLeft } from '../../lib/format.ts';
import { useServerNow } from '../../lib/server-clock.ts';
import { AlertsPanel } from './alerts-panel.tsx';
import { formatPercent, formatTime } from './format.ts';
import type { LiveSession, RealTime } from './dashboard-api.ts';
import { Meter, Panel, PanelMessage, Stat } from './widgets.tsx';

type LiveTabProps = {
  realTime: UseQueryResult<RealTime>;
  autoRefresh: boolean;
  onAutoRefreshChange: (auto: boolean) => void;
};

const STATUS_TONES: Record<LiveSession['status'], BadgeTone> = { active: 'green', expiring: 'amber', expired: 'slate' };
const STATUS_LABELS: Record<LiveSession['status'], string> = { active: 'Active', expiring: 'Expiring', expired: 'Expired' };

export function LiveTab({ realTime, autoRefresh, onAutoRefreshChange }: LiveTabProps) {
  const data = realTime.data;
  // Opening the tab after a while on another one: show the present, not the figures of page load.
  useEffect(() => {
    if (realTime.dataUpdatedAt > 0 && Date.now() - realTime.dataUpdatedAt > REALTIME_REFRESH_MS) void realTime.refetch();
    // Only when the tab opens.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const controls = (
    <>
      <div role="group" aria-label="Refresh mode" className="inline-flex rounded-lg bg-slate-100 p-0.5">
        {(
          [
            ['Auto', true],
            ['Manual', false],
          ] as const
        ).map(([label, auto]) => (
          <button
            key={label}
            type="button"
            aria-pressed={autoRefresh === auto}
            onClick={() => onAutoRefreshChange(auto)}
            className={cn(
              'h-8 rounded-md px-3 text-sm font-semibold transition-colors',
              autoRefresh === auto ? 'bg-white text-blue-800 shadow-sm' : 'text-slate-600 hover:text-slate-900',
            )}
          >
            {label}
          </button>
        ))}
      </div>
      <Button variant="secondary" size="sm" onClick={() => void realTime.refetch()} disabled={realTime.isFetching}>
        <RefreshCw aria-hidden="true" className={cn('size-4', realTime.isFetching && 'animate-spin')} />
        Refresh
      </Button>
    </>
  );

  return (
    <div className="grid gap-6">
      <div className="grid gap-6 xl:grid-cols-3 xl:items-start">
        <Panel
          className="xl:col-span-2"
          title="Live QR Sessions"
          icon={QrCode}
          description={autoRefresh ? 'Updates every 5 seconds' : data ? `Manual refresh · updated ${formatTime(realTime.dataUpdatedAt)}` : 'Manual refresh'}
          actions={controls}
        >
          {!data ? (
            <Pending query={realTime} />
          ) : data.activeSessions.length === 0 ? (
            <div className="flex flex-col items-center py-10 text-center">
              <span className="flex size-12 items-center justify-center rounded-full bg-slate-100">
                <QrCode aria-hidden="true" className="size-6 text-slate-600" />
              </span>
              <p className="mt-3 text-sm font-semibold text-slate-900">No active QR sessions</p>
              <p className="mt-1 text-sm text-slate-600">Sessions appear here as soon as an instructor starts one.</p>
            </div>
          ) : (
            <ul className="grid gap-3" aria-label="Active sessions">
              {data.activeSessions.map((s) => (
                <SessionItem key={s.id} session={s} />
              ))}
            </ul>
          )}
        </Panel>

        <AlertsPanel data={data} pending={<Pending query={realTime} />} />
      </div>

      <section aria-labelledby="performance-heading">
        <h2 id="performance-heading" className="mb-3 flex items-center gap-2 text-base font-semibold text-slate-900">
          <Gauge aria-hidden="true" className="size-5 text-blue-700" />
          System Performance
        </h2>
        {!data ? (
          <Card>
            <Pending query={realTime} />
          </Card>
        ) : (
          <div className="grid gap-4 sm:grid-cols-3">
            <Stat
              testId="system-load"
              label="System Load"
              icon={Gauge}
              tone={data.systemLoad > 90 ? 'red' : data.systemLoad > 70 ? 'amber' : 'green'}
              value={formatPercent(data.systemLoad)}
              caption="CPU, last minute"
            >
              <Meter value={data.systemLoad} label="System load" tone={data.systemLoad > 90 ? 'red' : data.systemLoad > 70 ? 'amber' : 'green'} />
            </Stat>
            <Stat testId="active-students" label="Active Students" icon={Users} value={formatCount(data.totalActiveStudents)} caption="Currently online" />
            <Stat
              testId="avg-response-time"
              label="Avg Response Time"
              icon={Timer}
              value={data.avgResponseTimeMs == null ? '—' : `${data.avgResponseTimeMs} ms`}
              caption={
                data.avgResponseTimeMs == null
                  ? 'No requests yet'
                  : `Last 5 minutes · ${formatCount(data.responseSamples)} ${data.responseSamples === 1 ? 'request' : 'requests'}`
              }
            />
          </div>
        )}
      </section>
    </div>
  );
}

function SessionItem({ session: s }: { session: LiveSession }) {
  // Countdowns run on the server's clock (lib/server-clock.ts reads it from every answer).
  const now = useServerNow();
  const remaining = Date.parse(s.expiresAt) - now;
  const expired = remaining <= 0;
  const status = expired ? 'expired' : s.status;
  return (
    <li className="rounded-lg border border-slate-200 p-4" data-testid="live-session">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <div className="flex flex-wrap items-center gap-2">
            <h3 className="text-sm font-semibold text-slate-900">{s.courseName}</h3>
            <span className="text-sm text-slate-600">{s.courseCode}</span>
            <Badge tone={STATUS_TONES[status]}>{STATUS_LABELS[status]}</Badge>
          </div>
          <p className="mt-1 flex flex-wrap gap-x-4 gap-y-1 text-sm text-slate-600">
            <span className="inline-flex items-center gap-1">
              <User aria-hidden="true" className="size-4" />
              {s.instructorName ?? 'No instructor'}
            </span>
            <span className="inline-flex items-center gap-1">
              <MapPin aria-hidden="true" className="size-4" />
              {s.location ?? 'No room'}
            </span>
          </p>
        </div>
        <div className="flex items-center gap-3">
          <span
            className={cn(
              'inline-flex items-center gap-1 text-sm font-semibold tabular-nums',
              expired ? 'text-slate-600' : status === 'expiring' ? 'text-amber-800' : 'text-slate-900',
            )}
          >
            <Clock aria-hidden="true" className="size-4" />
            <span className="sr-only">Time left: </span>
            <span data-testid="time-left">{formatTimeLeft(remaining)}</span>
          </span>
          <Link to="/attendance" className={buttonClasses('secondary', 'sm')} aria-label={`View ${s.courseName} session`}>
            View
          </Link>
        </div>
      </div>
      <div className="mt-3">
        <div className="flex flex-wrap items-baseline justify-between gap-2 text-sm">
          <span className="text-slate-700">
            <span className="font-semibold text-slate-900">{formatCount(s.checkedInStudents)}</span> of {formatCount(s.expectedStudents)} students checked in
          </span>
          <span className="text-slate-600">
            {formatPercent(s.attendanceRate)} · Class starts {formatClock(s.startTime)}
          </span>
        </div>
        <Meter value={s.attendanceRate} label={`${s.courseName} attendance`} tone="green" />
      </div>
    </li>
  );
}

function Pending({ query }: { query: UseQueryResult<unknown> }) {
  return query.isError ? (
    <PanelMessage tone="error">The live figures could not be loaded. Use Refresh to try again.</PanelMessage>
  ) : (
    <p role="status" className="flex items-center justify-center gap-2 py-8 text-sm text-slate-600">
      <Spinner className="size-4 text-blue-700" /> Loading…
    </p>
  );
}
