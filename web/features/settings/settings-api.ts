import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  backupSummarySchema,
  notificationSettingsSchema,
  settingsSchema,
  systemStatusSchema,
  timeZoneImpactSchema,
  type Settings,
  type SettingsGroup,
} from '../../../common/settings.ts';
import { z } from 'zod';
import { backgroundJobSchema, deliveryStatusSchema } from '../../../common/notifications.ts';
import { notifySuccess } from '../../components/ui/notify.ts';
import { apiParse } from '../../lib/api.ts';
import { SETTINGS_KEY } from '../../lib/shared-queries.ts';

const SYSTEM_STATUS_KEY = ['/api/settings/system-status'] as const;

/** Real facts for the System tab; read again on every visit (sizes and runs change). */
export function useSystemStatus() {
  return useQuery({ queryKey: SYSTEM_STATUS_KEY, queryFn: () => apiParse(systemStatusSchema, 'GET', SYSTEM_STATUS_KEY[0]), staleTime: 0 });
}

/**
 * PUT /api/settings with one group only; the answer is the whole, saved settings. The toast is
 * raised here, not by the form: the form starts afresh from the saved values (it remounts).
 */
export function useSaveSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ group, values }: { group: SettingsGroup; values: Settings[SettingsGroup]; savedText: string }) =>
      apiParse(settingsSchema, 'PUT', '/api/settings', { [group]: values }),
    onSuccess: (saved, { savedText }) => {
      queryClient.setQueryData(SETTINGS_KEY, saved);
      notifySuccess('Settings Saved', savedText);
    },
  });
}

const NOTIFICATION_DEFAULTS_KEY = ['/api/settings/notification-defaults'] as const;

/** The school's notification defaults (what applies to people who have not chosen). */
export function useNotificationDefaults(enabled: boolean) {
  return useQuery({ queryKey: NOTIFICATION_DEFAULTS_KEY, queryFn: () => apiParse(notificationSettingsSchema, 'GET', NOTIFICATION_DEFAULTS_KEY[0]), enabled });
}

/**
 * PUT the school's notification defaults (super_admin, it_admin). The caller's own switches are read
 * again: where they have not chosen, the new default is now theirs too.
 */
export function useSaveNotificationDefaults() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ values }: { group: SettingsGroup; values: Settings[SettingsGroup]; savedText: string }) =>
      apiParse(notificationSettingsSchema, 'PUT', NOTIFICATION_DEFAULTS_KEY[0], values),
    onSuccess: async (saved, { savedText }) => {
      queryClient.setQueryData(NOTIFICATION_DEFAULTS_KEY, saved);
      await queryClient.invalidateQueries({ queryKey: SETTINGS_KEY });
      notifySuccess('Settings Saved', savedText);
    },
  });
}

/** Back up now (super_admin): the answer is the finished run; the status panel is read again. */
export function useBackUpNow() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiParse(backupSummarySchema, 'POST', '/api/backups'),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: SYSTEM_STATUS_KEY }),
  });
}

const DELIVERY_KEY = ['/api/settings/delivery'] as const;
const JOBS_KEY = ['/api/settings/jobs'] as const;

/** E-mail and SMS: configured or not, and what the outbox holds (administrators). */
export function useDeliveryStatus(enabled: boolean) {
  return useQuery({
    queryKey: DELIVERY_KEY,
    queryFn: () => apiParse(deliveryStatusSchema, 'GET', DELIVERY_KEY[0]),
    enabled,
    staleTime: 0,
    refetchInterval: 15_000,
  });
}

/** The background jobs with their recent runs (administrators). */
export function useBackgroundJobs(enabled: boolean) {
  return useQuery({ queryKey: JOBS_KEY, queryFn: () => apiParse(z.array(backgroundJobSchema), 'GET', JOBS_KEY[0]), enabled, staleTime: 0 });
}

/** Send oneself a test e-mail through the outbox; the counts are read again shortly after. */
export function useSendTestEmail() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiParse(z.object({ message: z.string() }), 'POST', '/api/settings/delivery/test-email'),
    onSuccess: ({ message }) => {
      notifySuccess('Test E-mail Queued', message);
      setTimeout(() => void queryClient.invalidateQueries({ queryKey: DELIVERY_KEY }), 3000);
    },
  });
}

/** Whether e-mail and SMS can act on this server (any signed-in user). */
export function useDeliveryChannels() {
  return useQuery({
    queryKey: ['/api/notifications/channels'],
    queryFn: () => apiParse(z.object({ email: z.boolean(), sms: z.boolean() }), 'GET', '/api/notifications/channels'),
  });
}

/**
 * What saving a new school time zone would recount (GET /api/settings/time-zone-impact): asked
 * once the zone was changed and Save pressed, before anything is saved.
 */
export function useTimeZoneImpact(timeZone: string | null) {
  return useQuery({
    queryKey: ['/api/settings/time-zone-impact', timeZone],
    queryFn: () => apiParse(timeZoneImpactSchema, 'GET', `/api/settings/time-zone-impact?${new URLSearchParams({ timeZone: timeZone! }).toString()}`),
    enabled: timeZone != null,
    // History changes between visits: a later change asks again.
    staleTime: 0,
    gcTime: 0,
  });
}
