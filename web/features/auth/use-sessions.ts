import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { endedSessionsSchema, loginSessionSchema, type LoginSessionInfo } from '../../../common/auth.ts';
import { apiJson, getQueryFn } from '../../lib/api.ts';

export const SESSIONS_KEY = ['/api/auth/sessions'] as const;

const fetchSessions = getQueryFn<unknown>({ on401: 'throw' });

/** GET /api/auth/sessions: the signed-in user's own sessions still in force. */
export function useSessions() {
  return useQuery<LoginSessionInfo[]>({
    queryKey: SESSIONS_KEY,
    queryFn: async (ctx) => z.array(loginSessionSchema).parse(await fetchSessions(ctx)),
    // Sessions come and go on other devices: read afresh each time the page opens.
    staleTime: 0,
  });
}

/** DELETE /api/auth/sessions/{id}: end one of your own sessions. */
export function useEndSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiJson<{ ok: true }>('DELETE', `/api/auth/sessions/${encodeURIComponent(id)}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: SESSIONS_KEY }),
  });
}

/** POST /api/auth/sessions/end-others: end every session but this one. */
export function useEndOtherSessions() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => endedSessionsSchema.parse(await apiJson<unknown>('POST', '/api/auth/sessions/end-others')),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: SESSIONS_KEY }),
  });
}
