import { BarChart3, LayoutDashboard, Radio, RefreshCw } from 'lucide-react';
import { lazy, Suspense, useState } from 'react';
import { TodaysClassesCard } from '../../components/todays-classes-card.tsx';
import { Button } from '../../components/ui/button.tsx';
import { PageHeader } from '../../components/ui/page-header.tsx';
import { PageTabPanel, PageTabs } from '../../components/ui/page-tabs.tsx';
import { LoadingPanel } from '../../components/ui/spinner.tsx';
import { cn } from '../../lib/cn.ts';
import { useSignedInUser } from '../../lib/use-auth.ts';
import { useTabParam } from '../../lib/use-tab-param.ts';
import { formatTime } from './format.ts';
import { GettingStartedCard } from './getting-started-card.tsx';
import { OverviewTab } from './overview-tab.tsx';
import { useAnalytics, useExecutiveSummary, useRealTime, useRefreshDashboard } from './dashboard-api.ts';
import { isInstructor } from '../../../common/roles.ts';

// The Overview draws first; the Live and Analytics tabs (tables, charts) load when first opened.
const LiveTab = lazy(() => import('./live-tab.tsx').then((m) => ({ default: m.LiveTab })));
const AnalyticsTab = lazy(() => import('./analytics-tab.tsx').then((m) => ({ default: m.AnalyticsTab })));

const TABS = [
  { value: 'overview', label: 'Overview', icon: LayoutDashboard },
  { value: 'live', label: 'Live', icon: Radio },
  { value: 'analytics', label: 'Analytics', icon: BarChart3 },
] as const;

/**
 * / (SPEC §2): Overview, Live and Analytics. Every figure comes from the dashboard API (PRODUCT.md:
 * nothing is a placeholder). The open tab is kept in ?tab= so a reload or a shared link keeps it.
 */
export function DashboardPage() {
  const user = useSignedInUser();
  const [tab, setTab] = useTabParam(TABS);
  const [autoRefresh, setAutoRefresh] = useState(true);

  const summary = useExecutiveSummary();
  // Polling runs only while the Live tab shows its figures and Auto mode is on (SPEC §4, §7).
  const realTime = useRealTime({ poll: tab === 'live' && autoRefresh });
  const analytics = useAnalytics();
  const refresh = useRefreshDashboard();

  const refreshing = summary.isFetching || realTime.isFetching || analytics.isFetching;
  const updatedAt = Math.max(summary.dataUpdatedAt, realTime.dataUpdatedAt, analytics.dataUpdatedAt);

  return (
    <>
      <PageHeader
        title="System Dashboard"
        subtitle="Comprehensive attendance management and analytics"
        actions={
          <div className="flex flex-wrap items-center gap-3">
            <p className="text-sm text-slate-600" aria-live="polite">
              {updatedAt > 0 ? (
                <>
                  Last updated <time dateTime={new Date(updatedAt).toISOString()}>{formatTime(updatedAt)}</time>
                </>
              ) : (
                'Loading…'
              )}
            </p>
            <Button variant="secondary" onClick={() => void refresh()} disabled={refreshing}>
              <RefreshCw aria-hidden="true" className={cn('size-4', refreshing && 'animate-spin')} />
              Refresh
            </Button>
          </div>
        }
      />
      {/* Where an instructor lands: their classes of today first (decision 031); the admin dashboard is unchanged. */}
      {isInstructor(user) ? <TodaysClassesCard /> : null}
      <GettingStartedCard />
      <PageTabs label="Dashboard views" tabs={TABS} value={tab} onValueChange={setTab}>
        <PageTabPanel value="overview">
          <OverviewTab summary={summary} />
        </PageTabPanel>
        <PageTabPanel value="live">
          <Suspense fallback={<LoadingPanel />}>
            <LiveTab realTime={realTime} autoRefresh={autoRefresh} onAutoRefreshChange={setAutoRefresh} />
          </Suspense>
        </PageTabPanel>
        <PageTabPanel value="analytics">
          <Suspense fallback={<LoadingPanel />}>
            <AnalyticsTab analytics={analytics} />
          </Suspense>
        </PageTabPanel>
      </PageTabs>
    </>
  );
}
