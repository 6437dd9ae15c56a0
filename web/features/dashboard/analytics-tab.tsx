import type { UseQueryResult } from '@tanstack/react-query';
import { BarChart3, BookOpen, CalendarDays, Clock, FileDown, LogIn, Target, Trophy, UserRound } from 'lucide-react';
import { lazy, Suspense } from 'react';
import { Button } from '../../components/ui/button.tsx';
import { downloadFile, localDate } from '../../lib/download.ts';
import { useExportDownload } from '../../lib/use-export-download.ts';
import { Badge } from '../../components/ui/badge.tsx';
import { Card } from '../../components/ui/card.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { cn } from '../../lib/cn.ts';
import { CourseTable } from './course-table.tsx';
import { formatCount } from '../../lib/format.ts';
import { formatPercent } from './format.ts';
import { trendDays, trendSummary } from './trend-days.ts';
import { useAnalytics, type Analytics } from './dashboard-api.ts';
import { Panel, PanelMessage, Trend } from './widgets.tsx';

// The chart library is large: it loads with this tab, not with the app.
const AttendanceTrendsChart = lazy(() => import('./attendance-trends-chart.tsx'));

export function AnalyticsTab({ analytics }: { analytics: UseQueryResult<Analytics> }) {
  // Subscribing here refetches figures older than 60 s whenever the tab is opened (SPEC §7).
  useAnalytics();
  const data = analytics.data;
  if (!data) {
    return (
      <Card>
        {analytics.isError ? (
          <PanelMessage tone="error">The analytics could not be loaded. Use Refresh to try again.</PanelMessage>
        ) : (
          <p role="status" className="flex items-center justify-center gap-2 py-16 text-sm text-slate-600">
            <Spinner className="size-5 text-blue-700" /> Loading analytics…
          </p>
        )}
      </Card>
    );
  }
  return (
    <div className="grid gap-6">
      <ExportAnalyticsButton />
      <section aria-labelledby="kpi-heading">
        <h2 id="kpi-heading" className="mb-3 flex items-center gap-2 text-base font-semibold text-slate-900">
          <Target aria-hidden="true" className="size-5 text-blue-700" />
          Key Performance Indicators
        </h2>
        <ul className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
          {data.performanceMetrics.map((m) => (
            <Kpi key={m.metric} metric={m} />
          ))}
        </ul>
      </section>

      <TrendsPanel trends={data.attendanceTrends} />

      <div className="grid gap-6 xl:grid-cols-3 xl:items-start">
        <Card className="overflow-hidden xl:col-span-2">
          <div className="border-b border-slate-100 px-5 py-4">
            <h2 className="flex items-center gap-2 text-base font-semibold text-slate-900">
              <BookOpen aria-hidden="true" className="size-5 text-blue-700" />
              Course Performance Analysis
            </h2>
            <p className="mt-0.5 text-sm text-slate-600">Attendance over the last 30 days; trend compares the last 14 days with the 16 before.</p>
          </div>
          <CourseTable courses={data.courseAnalytics} />
        </Card>
        <UserActivity activity={data.userActivity} />
      </div>
    </div>
  );
}

function Kpi({ metric: m }: { metric: Analytics['performanceMetrics'][number] }) {
  // A target of zero (students at risk) is a ceiling; the others are floors.
  const lowerIsBetter = m.target === 0;
  const met = lowerIsBetter ? m.current <= m.target : m.current >= m.target;
  const fmt = (v: number) => (m.unit === '%' ? formatPercent(v) : `${formatCount(v)} ${m.unit}`);
  return (
    <li>
      <Card className="h-full p-5" data-testid="kpi">
        <div className="flex items-start justify-between gap-2">
          <h3 className="text-sm font-medium text-slate-600">{m.metric}</h3>
          <Trend trend={m.trend} goodWhen={lowerIsBetter ? 'down' : 'up'} />
        </div>
        <p className="mt-2 text-2xl font-bold tracking-tight text-slate-900 tabular-nums sm:text-3xl">{fmt(m.current)}</p>
        <div className="mt-2 flex flex-wrap items-center gap-2 text-sm text-slate-600">
          <span>
            Target {lowerIsBetter ? '' : '≥ '}
            {fmt(m.target)}
          </span>
          <Badge tone={met ? 'green' : 'amber'}>{met ? 'On target' : lowerIsBetter ? 'Above target' : 'Below target'}</Badge>
        </div>
      </Card>
    </li>
  );
}

function TrendsPanel({ trends }: { trends: Analytics['attendanceTrends'] }) {
  const days = trendDays(trends);
  const { highest, lowest, average, classDays } = trendSummary(days);
  return (
    <Panel title="Attendance Trends" icon={BarChart3} description="Daily attendance rate over the last 7 days">
      <div className="grid gap-5">
        <dl className="grid grid-cols-3 gap-3" data-testid="trend-summary">
          <SummaryFigure
            label="Highest"
            value={highest ? formatPercent(highest.rate!) : '—'}
            detail={highest ? `${highest.weekday}, ${highest.dayLabel}` : 'No classes'}
          />
          <SummaryFigure
            label="Lowest"
            value={lowest ? formatPercent(lowest.rate!) : '—'}
            detail={lowest ? `${lowest.weekday}, ${lowest.dayLabel}` : 'No classes'}
          />
          <SummaryFigure
            label="Average"
            value={average !== null ? formatPercent(average) : '—'}
            detail={`${classDays} class ${classDays === 1 ? 'day' : 'days'}`}
          />
        </dl>
        <Suspense
          fallback={
            <p role="status" className="flex h-64 items-center justify-center gap-2 text-sm text-slate-600 sm:h-72">
              <Spinner className="size-4 text-blue-700" /> Loading chart…
            </p>
          }
        >
          <AttendanceTrendsChart days={days} average={average} />
        </Suspense>
        <ol aria-label="Attendance by day" className="grid grid-cols-4 gap-2 sm:grid-cols-7">
          {days.map((d) => (
            <li key={d.date} data-testid="trend-day" className="rounded-lg bg-slate-50 px-2 py-2 text-center">
              <span className="block text-xs font-semibold text-slate-900">
                {d.weekday} <span className="font-normal text-slate-600">{d.dayLabel.split(' ')[1]}</span>
              </span>
              <span className="block text-sm font-bold text-slate-900 tabular-nums">{d.rate === null ? '—' : formatPercent(d.rate)}</span>
              <span className="block text-xs text-slate-600 tabular-nums">{d.total === 0 ? 'No classes' : `${d.present}/${d.total}`}</span>
            </li>
          ))}
        </ol>
      </div>
    </Panel>
  );
}

function SummaryFigure({ label, value, detail }: { label: string; value: string; detail: string }) {
  return (
    <div className="rounded-lg border border-slate-200 px-3 py-2.5">
      <dt className="text-xs font-medium tracking-wide text-slate-600 uppercase">{label}</dt>
      <dd className="mt-0.5 text-lg font-bold text-slate-900 tabular-nums sm:text-xl">{value}</dd>
      <dd className="text-xs text-slate-600">{detail}</dd>
    </div>
  );
}

function UserActivity({ activity }: { activity: Analytics['userActivity'] }) {
  return (
    <Panel title="User Activity Insights" icon={UserRound}>
      <dl className="grid grid-cols-2 gap-3">
        <div className="rounded-lg bg-slate-50 p-3">
          <dt className="flex items-center gap-1.5 text-xs font-medium text-slate-600">
            <LogIn aria-hidden="true" className="size-4" /> Daily logins
          </dt>
          <dd className="mt-1 text-2xl font-bold text-slate-900 tabular-nums">{formatCount(activity.dailyLogins)}</dd>
          <dd className="text-xs text-slate-600">Last 24 hours</dd>
        </div>
        <div className="rounded-lg bg-slate-50 p-3">
          <dt className="flex items-center gap-1.5 text-xs font-medium text-slate-600">
            <Clock aria-hidden="true" className="size-4" /> Avg session
          </dt>
          <dd className="mt-1 text-2xl font-bold text-slate-900 tabular-nums">{formatCount(activity.avgSessionDuration)} min</dd>
          <dd className="text-xs text-slate-600">Last 7 days</dd>
        </div>
      </dl>
      <h3 className="mt-5 flex items-center gap-1.5 text-sm font-semibold text-slate-900">
        <Trophy aria-hidden="true" className="size-4 text-amber-600" /> Most active users
      </h3>
      {activity.topActiveUsers.length === 0 ? (
        <p className="mt-2 text-sm text-slate-600">No sign-ins in the last 7 days.</p>
      ) : (
        <ol className="mt-2 divide-y divide-slate-100" aria-label="Most active users, last 7 days">
          {activity.topActiveUsers.slice(0, 3).map((u, i) => (
            <li key={`${u.name}-${i}`} className="flex items-center gap-3 py-2.5">
              <span
                className={cn(
                  'flex size-7 shrink-0 items-center justify-center rounded-full text-xs font-bold',
                  i === 0 ? 'bg-amber-100 text-amber-900' : 'bg-slate-100 text-slate-700',
                )}
              >
                {i + 1}
              </span>
              <span className="min-w-0 flex-1 truncate text-sm font-medium text-slate-900">{u.name}</span>
              <span className="text-sm text-slate-600 tabular-nums">
                {formatCount(u.sessions)} {u.sessions === 1 ? 'session' : 'sessions'}
              </span>
            </li>
          ))}
        </ol>
      )}
      <p className="mt-3 flex items-center gap-1.5 text-xs text-slate-600">
        <CalendarDays aria-hidden="true" className="size-3.5" /> From sign-in sessions
      </p>
    </Panel>
  );
}

/** Downloads the figures of this tab as CSV (GET /api/export/analytics: the server works them out afresh, as the viewer sees them). */
function ExportAnalyticsButton() {
  const { exporting, run } = useExportDownload('Failed to export the analytics. Please try again.');
  const onExport = () => run(() => downloadFile('/api/export/analytics', { fallbackName: `analytics_export_${localDate()}.csv` }));
  return (
    <div className="flex justify-end print:hidden">
      <Button variant="secondary" onClick={() => void onExport()} disabled={exporting}>
        {exporting ? <Spinner className="size-4" /> : <FileDown aria-hidden="true" className="size-4" />}
        {exporting ? 'Exporting...' : 'Export CSV'}
      </Button>
    </div>
  );
}
