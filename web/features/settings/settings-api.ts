import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  backupSummarySchema,
  notificationSettingsSchema,
  settingsSchema,
  systemStatusSchema,
  type Settings,
  type SettingsGroup,
} from '../../../common/settings.ts';
import { notifySuccess } from '../../components/ui/notify.ts';
import { apiParse } from '../../lib/api.ts';
import { SETTINGS_KEY } from '../../lib/shared-queries.ts';

export const SYSTEM_STATUS_KEY = ['/api/settings/system-status'] as const;

export type { SystemStatus } from '../../../common/settings.ts';

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

export const NOTIFICATION_DEFAULTS_KEY = ['/api/settings/notification-defaults'] as const;

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
