import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiParse, lazyContracts } from '../../lib/api.ts';

/** The auth feature's calls: sign-in, first-run setup, sign-out confirmation and your sessions. */

/** One of the feature's schemas, loaded with the first call that needs it (zod is not in the first draw). */
export const authContract = lazyContracts(() => import('./auth-contracts.ts'));

export const SETUP_STATUS_KEY = ['/api/setup/status'] as const;
const SESSIONS_KEY = ['/api/auth/sessions'] as const;

type SetupInput = { setupCode: string; firstName: string; lastName: string; email: string; password: string; timeZone?: string; schoolName?: string };

/** POST /api/auth/login: sets the session cookie; the user is then read from /api/auth/user. */
export const signIn = (body: { email: string; password: string }) => apiParse(authContract('okSchema'), 'POST', '/api/auth/login', body);

/** POST /api/setup: creates the first Super Administrator; the answer is that user, signed in. */
export const setUpSchool = (body: SetupInput) => apiParse(authContract('currentUserSchema'), 'POST', '/api/setup', body);

/** POST /api/auth/logout: ends this browser's session. */
export const signOutHere = () => apiParse(authContract('okSchema'), 'POST', '/api/auth/logout');

/** Whether the school still needs its first Super Administrator (first run). */
export function useSetupStatus() {
  return useQuery({ queryKey: SETUP_STATUS_KEY, queryFn: () => apiParse(authContract('setupStatusSchema'), 'GET', '/api/setup/status') });
}

/** GET /api/auth/sessions: the signed-in user's own sessions still in force. */
export function useSessions() {
  return useQuery({
    queryKey: SESSIONS_KEY,
    queryFn: () => apiParse(authContract('loginSessionsSchema'), 'GET', '/api/auth/sessions'),
    // Sessions come and go on other devices: read afresh each time the page opens.
    staleTime: 0,
  });
}

/** DELETE /api/auth/sessions/{id}: end one of your own sessions. */
export function useEndSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiParse(authContract('okSchema'), 'DELETE', `/api/auth/sessions/${encodeURIComponent(id)}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: SESSIONS_KEY }),
  });
}

/** POST /api/auth/sessions/end-others: end every session but this one. */
export function useEndOtherSessions() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiParse(authContract('endedSessionsSchema'), 'POST', '/api/auth/sessions/end-others'),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: SESSIONS_KEY }),
  });
}

/** GET /api/auth/sso: whether "Sign in with {school}" is offered, and whether passwords are for super_admin only. */
export function useSsoStatus() {
  return useQuery({ queryKey: ['/api/auth/sso'], queryFn: () => apiParse(authContract('ssoStatusSchema'), 'GET', '/api/auth/sso') });
}
