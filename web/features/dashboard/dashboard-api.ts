import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { ANALYTICS_STALE_MS, REALTIME_REFRESH_MS } from '../../../common/constants.ts';
import type { analyticsSchema, executiveSummarySchema, realTimeSchema } from '../../../common/dashboard.ts';
import { notifySuccess } from '../../components/ui/notify.ts';
import { apiParse, lazyContracts } from '../../lib/api.ts';

/** One of the dashboard's schemas, loaded with the first call that needs it (decision 025). */
const contract = lazyContracts(() => import('./dashboard-contracts.ts'));

export type ExecutiveSummary = z.infer<typeof executiveSummarySchema>;
export type RealTime = z.infer<typeof realTimeSchema>;
export type Analytics = z.infer<typeof analyticsSchema>;
export type LiveSession = RealTime['activeSessions'][number];
export type CourseAnalytics = Analytics['courseAnalytics'][number];
export type LiveAlert = RealTime['alerts'][number];
export type AcknowledgedLiveAlert = RealTime['acknowledgedAlerts'][number];

const SUMMARY_KEY = ['/api/dashboard/executive-summary'] as const;
const REAL_TIME_KEY = ['/api/dashboard/real-time'] as const;
const ANALYTICS_KEY = ['/api/dashboard/analytics'] as const;
const GETTING_STARTED_KEY = ['/api/dashboard/getting-started'] as const;

/** Overview figures (SPEC §7 defaults: fetched once, refreshed on demand). */
export function useExecutiveSummary() {
  return useQuery({ queryKey: SUMMARY_KEY, queryFn: () => apiParse(contract('executiveSummarySchema'), 'GET', SUMMARY_KEY[0]) });
}

/** Live sessions, alerts and server figures; polled every 5 s while `poll` is on (Auto mode). */
export function useRealTime({ poll }: { poll: boolean }) {
  return useQuery({
    queryKey: REAL_TIME_KEY,
    queryFn: () => apiParse(contract('realTimeSchema'), 'GET', REAL_TIME_KEY[0]),
    refetchInterval: poll ? REALTIME_REFRESH_MS : false,
  });
}

/** Analytics are fresh for 60 s: opening the tab later fetches them again (SPEC §7). */
export function useAnalytics() {
  return useQuery({
    queryKey: ANALYTICS_KEY,
    queryFn: () => apiParse(contract('analyticsSchema'), 'GET', ANALYTICS_KEY[0]),
    staleTime: ANALYTICS_STALE_MS,
  });
}

/** What the school has set up so far, for the first-run checklist (administrators only). */
/** GET /api/compliance/overview: the counts of the Overview tab's compliance card. */
export function useComplianceCounts({ enabled }: { enabled: boolean }) {
  return useQuery({
    queryKey: ['/api/compliance', 'overview', {}],
    queryFn: () => apiParse(contract('complianceOverviewSchema'), 'GET', '/api/compliance/overview'),
    enabled,
    staleTime: ANALYTICS_STALE_MS,
  });
}

export function useGettingStarted({ enabled }: { enabled: boolean }) {
  return useQuery({ queryKey: GETTING_STARTED_KEY, queryFn: () => apiParse(contract('gettingStartedSchema'), 'GET', GETTING_STARTED_KEY[0]), enabled });
}

/** The header's Refresh: every dashboard query at once (a disabled one is skipped). */
export function useRefreshDashboard() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([SUMMARY_KEY, REAL_TIME_KEY, ANALYTICS_KEY, GETTING_STARTED_KEY].map((queryKey) => queryClient.refetchQueries({ queryKey, exact: true })));
}

/**
 * POST /api/dashboard/alerts/{id}/acknowledge (docs/decisions/048): the alert leaves the counts and
 * the list, so every figure that counts alerts is read again. A refusal stays with the dialog.
 */
export function useAcknowledgeAlert() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ alert, note }: { alert: Pick<LiveAlert, 'id'>; note: string }) =>
      apiParse(
        contract('alertAcknowledgementSchema'),
        'POST',
        `/api/dashboard/alerts/${encodeURIComponent(alert.id)}/acknowledge`,
        note.trim() ? { note: note.trim() } : {},
      ),
    onSuccess: () => {
      notifySuccess('Alert Acknowledged', 'It stays listed under Acknowledged and shows again if it fires for a new reason.');
      return Promise.all([SUMMARY_KEY, REAL_TIME_KEY, ANALYTICS_KEY].map((queryKey) => queryClient.invalidateQueries({ queryKey, exact: true })));
    },
  });
}
