import type { UseQueryResult } from '@tanstack/react-query';
import {
  Activity,
  BellRing,
  ChevronRight,
  CloudUpload,
  Database,
  FileBarChart,
  QrCode,
  RefreshCcw,
  ScrollText,
  Server,
  Settings,
  ShieldCheck,
  Users,
} from 'lucide-react';
import { Link } from 'react-router';
import { SCREEN_ACCESS, type ScreenKey } from '../../lib/screen-access.ts';
import { Card } from '../../components/ui/card.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { useSignedInUser } from '../../lib/use-auth.ts';
import { formatCount } from '../../lib/format.ts';
import { alertFigures, formatAgo, formatPercent, useNow } from './format.ts';
import { useComplianceCounts, type ExecutiveSummary } from './dashboard-api.ts';
import { HealthBadge, Meter, Panel, PanelMessage, Stat } from './widgets.tsx';

const QUICK_ACTIONS = [
  { label: 'Generate Report', to: '/data-management?tab=export', screen: 'data-management', icon: FileBarChart, text: 'Export attendance for a date range' },
  // Opens the alerts themselves, where they are acknowledged (docs/decisions/048); the audit log keeps a link of its own.
  { label: 'Resolve Alerts', to: '/?tab=live#alerts', screen: 'dashboard', icon: BellRing, text: 'Review and acknowledge low-attendance alerts' },
  { label: 'Sync (SIS)', to: '/data-management?tab=sync', screen: 'data-management', icon: RefreshCcw, text: 'Exchange data with your SIS' },
  { label: 'System Settings', to: '/settings', screen: 'settings', icon: Settings, text: 'Attendance rules and options' },
  { label: 'Audit Logs', to: '/audit-logs', screen: 'audit-logs', icon: ScrollText, text: 'Review recent activity and changes' },
] as const satisfies readonly { label: string; to: string; screen: ScreenKey; icon: unknown; text: string }[];

export function OverviewTab({ summary }: { summary: UseQueryResult<ExecutiveSummary> }) {
  const now = useNow(15_000);
  const { role } = useSignedInUser();
  // Only the actions whose screen this role may open (SPEC §6); the others would say Access Denied.
  const actions = QUICK_ACTIONS.filter((a) => SCREEN_ACCESS[a.screen].allows(role));
  const data = summary.data;
  if (!data) {
    return summary.isError ? (
      <Card>
        <PanelMessage tone="error">The dashboard figures could not be loaded. Use Refresh to try again.</PanelMessage>
      </Card>
    ) : (
      <Card className="flex items-center justify-center gap-2 py-16 text-sm text-slate-600" role="status">
        <Spinner className="size-5 text-blue-700" /> Loading figures…
      </Card>
    );
  }
  const { systemHealth: health, todayMetrics: today } = data;
  const complianceCard = SCREEN_ACCESS.compliance.allows(role) ? <ComplianceCard /> : null;
  const rateTone = today.totalStudentsExpected === 0 ? 'slate' : today.attendanceRate >= 90 ? 'green' : today.attendanceRate >= 80 ? 'amber' : 'red';
  return (
    <div className="grid gap-6">
      {complianceCard}
      <section aria-labelledby="today-heading">
        <h2 id="today-heading" className="mb-3 text-base font-semibold text-slate-900">
          Today&apos;s Performance
        </h2>
        <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
          <Stat
            testId="today-attendance-rate"
            label="Attendance Rate"
            icon={Users}
            tone={rateTone}
            value={today.totalStudentsExpected === 0 ? '—' : formatPercent(today.attendanceRate)}
            caption={
              today.totalStudentsExpected === 0
                ? 'No classes expected today'
                : `${formatCount(today.studentsCheckedIn)} of ${formatCount(today.totalStudentsExpected)} students`
            }
          >
            {today.totalStudentsExpected > 0 ? (
              <Meter value={today.attendanceRate} label="Today's attendance rate" tone={rateTone === 'slate' ? 'blue' : rateTone} />
            ) : null}
          </Stat>
          <Stat
            testId="today-active-sessions"
            label="Active QR Sessions"
            icon={QrCode}
            value={formatCount(today.activeQrSessions)}
            caption={today.activeQrSessions === 1 ? 'Session open for check-in' : 'Sessions open for check-in'}
          />
          <Stat
            testId="today-critical-alerts"
            label="Critical Alerts"
            icon={BellRing}
            tone={today.criticalAlerts > 0 ? 'red' : 'green'}
            value={formatCount(today.criticalAlerts)}
            caption={
              // The dashboard's one count of alerts: the same figures as Live's list and Analytics' Students at Risk.
              <Link to="/?tab=live#alerts" className="font-medium text-blue-700 underline underline-offset-2 hover:text-blue-800">
                {alertFigures(data.alerts)}
              </Link>
            }
          />
          <Stat
            testId="today-pending-sync"
            label="Pending Sync"
            icon={CloudUpload}
            tone={today.pendingSyncRecords > 0 ? 'amber' : 'green'}
            value={formatCount(today.pendingSyncRecords)}
            caption="Attendance records awaiting SIS export"
          />
        </div>
      </section>

      <div className="grid gap-6 lg:grid-cols-2">
        <Panel title="System Health & Status" icon={ShieldCheck} description={`Last health check: ${formatAgo(health.lastHealthCheck, now)}`}>
          <ul className="divide-y divide-slate-100">
            <HealthRow
              icon={Database}
              name="Database"
              detail={health.databaseLatencyMs == null ? 'No answer to the last check' : `Responded in ${health.databaseLatencyMs} ms`}
              status={health.database}
            />
            <HealthRow
              icon={Server}
              name="Server"
              detail="Load and response times within limits"
              status={health.server}
              warningDetail="Under heavy load or answering slowly"
            />
            <HealthRow
              icon={Activity}
              name="SIS sync"
              detail="Attendance exports by CSV, no failed records"
              status={health.sync}
              warningDetail="Some records failed to sync and need attention"
            />
          </ul>
        </Panel>

        <Panel title="Quick Actions" icon={Activity}>
          <ul className="grid gap-3 sm:grid-cols-2">
            {actions.map(({ label, to, icon: Icon, text }) => (
              <li key={label}>
                <Link
                  to={to}
                  className="group flex h-full items-center gap-3 rounded-lg border border-slate-200 p-3 transition-colors hover:border-blue-300 hover:bg-blue-50/50"
                >
                  <span className="flex size-10 shrink-0 items-center justify-center rounded-lg bg-blue-50 text-blue-700 group-hover:bg-white">
                    <Icon aria-hidden="true" className="size-5" />
                  </span>
                  <span className="min-w-0 flex-1">
                    <span className="block text-sm font-semibold text-slate-900">{label}</span>
                    <span className="block text-xs text-slate-600">{text}</span>
                  </span>
                  <ChevronRight aria-hidden="true" className="size-4 shrink-0 text-slate-400" />
                </Link>
              </li>
            ))}
          </ul>
        </Panel>
      </div>
    </div>
  );
}

function HealthRow({
  icon: Icon,
  name,
  detail,
  warningDetail,
  status,
}: {
  icon: typeof Database;
  name: string;
  detail: string;
  warningDetail?: string;
  status: string;
}) {
  return (
    <li className="flex items-center gap-3 py-3 first:pt-0 last:pb-0">
      <span className="flex size-9 shrink-0 items-center justify-center rounded-lg bg-slate-100 text-slate-700">
        <Icon aria-hidden="true" className="size-5" />
      </span>
      <div className="min-w-0 flex-1">
        <p className="text-sm font-semibold text-slate-900">{name}</p>
        <p className="text-xs text-slate-600">{status !== 'healthy' && warningDetail ? warningDetail : detail}</p>
      </div>
      <HealthBadge status={status} />
    </li>
  );
}

/** Compliance at a glance: withdrawal determinations due and overdue, SAP not met; each links to its list. */
function ComplianceCard() {
  const counts = useComplianceCounts({ enabled: true });
  const c = counts.data?.counts;
  const items = [
    { label: 'Withdrawals overdue', value: c?.overdue, to: '/compliance', tone: 'text-red-700' },
    { label: 'Withdrawals due', value: c?.due, to: '/compliance', tone: 'text-amber-700' },
    { label: 'On the watch', value: c?.watch, to: '/compliance', tone: 'text-slate-900' },
    { label: 'SAP not met', value: c?.sapNotMet, to: '/compliance?tab=sap', tone: 'text-red-700' },
  ];
  return (
    <section aria-labelledby="compliance-card-heading">
      <Card className="p-5">
        <div className="mb-3 flex items-center gap-2">
          <ShieldCheck aria-hidden="true" className="size-5 text-blue-700" />
          <h2 id="compliance-card-heading" className="text-base font-semibold text-slate-900">
            Compliance
          </h2>
        </div>
        {counts.isError ? (
          <PanelMessage tone="error">The compliance counts could not be loaded.</PanelMessage>
        ) : (
          <ul className="grid gap-3 sm:grid-cols-2 xl:grid-cols-4">
            {items.map((i) => (
              <li key={i.label}>
                <Link to={i.to} className="flex items-center justify-between rounded-lg border border-slate-200 px-4 py-3 hover:bg-slate-50">
                  <span className="text-sm text-slate-700">{i.label}</span>
                  <span className={`text-xl font-semibold tabular-nums ${i.tone}`}>
                    {i.value == null ? <Spinner className="size-4 text-blue-700" /> : formatCount(i.value)}
                  </span>
                </Link>
              </li>
            ))}
          </ul>
        )}
      </Card>
    </section>
  );
}
