import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { BackupSummary, Settings, SettingsGroup } from '../../../common/settings.ts';
import { notifySuccess } from '../../components/ui/notify.ts';
import { apiJson } from '../../lib/api.ts';

export const SETTINGS_KEY = ['/api/settings'] as const;
export const SYSTEM_STATUS_KEY = ['/api/settings/system-status'] as const;

export type SystemStatus = {
  database: { connected: boolean; latencyMs: number | null; sizeBytes: number | null; version: string | null; mode: 'embedded' | 'external' };
  fileStorage: { bytes: number; note: string };
  lastBackup: BackupSummary | null;
  backupNote: string;
  lastRetentionRun: { at: string; removed: Record<string, number> } | null;
};

export function useSettings() {
  return useQuery({ queryKey: SETTINGS_KEY, queryFn: () => apiJson<Settings>('GET', SETTINGS_KEY[0]) });
}

/** Real facts for the System tab; read again on every visit (sizes and runs change). */
export function useSystemStatus() {
  return useQuery({ queryKey: SYSTEM_STATUS_KEY, queryFn: () => apiJson<SystemStatus>('GET', SYSTEM_STATUS_KEY[0]), staleTime: 0 });
}

/**
 * PUT /api/settings with one group only; the answer is the whole, saved settings. The toast is
 * raised here, not by the form: the form starts afresh from the saved values (it remounts).
 */
export function useSaveSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ group, values }: { group: SettingsGroup; values: Settings[SettingsGroup]; savedText: string }) =>
      apiJson<Settings>('PUT', SETTINGS_KEY[0], { [group]: values }),
    onSuccess: (saved, { savedText }) => {
      queryClient.setQueryData(SETTINGS_KEY, saved);
      notifySuccess('Settings Saved', savedText);
    },
  });
}

/** Back up now (super_admin): the answer is the finished run; the status panel is read again. */
export function useBackUpNow() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiJson<BackupSummary>('POST', '/api/backups'),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: SYSTEM_STATUS_KEY }),
  });
}
