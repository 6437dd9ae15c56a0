import { useQuery } from '@tanstack/react-query';
import { setupStatusSchema } from '../../../common/auth.ts';
import { apiJson } from '../../lib/api.ts';

export const SETUP_STATUS_KEY = ['/api/setup/status'] as const;

/** Whether the school still needs its first Super Administrator (first run). */
export function useSetupStatus() {
  return useQuery({
    queryKey: SETUP_STATUS_KEY,
    queryFn: async () => setupStatusSchema.parse(await apiJson('GET', '/api/setup/status')),
  });
}
