import { useQuery } from '@tanstack/react-query';
import type { CurrentUser } from '../../common/auth.ts';
import { apiParseOrNullOn401 } from './api.ts';

export const AUTH_USER_KEY = ['/api/auth/user'] as const;

/**
 * Who is signed in (SPEC §7: GET /api/auth/user, no retry). A 401 means "signed out" here, not
 * an error, so it never triggers the Unauthorized toast.
 */
export function useAuth() {
  const query = useQuery<CurrentUser | null>({
    queryKey: AUTH_USER_KEY,
    // The schema (and zod) load beside the request, not before the first draw (decision 025).
    queryFn: () => apiParseOrNullOn401(async () => (await import('../../common/auth.ts')).currentUserSchema, '/api/auth/user'),
    retry: false,
  });
  return {
    user: query.data ?? null,
    isLoading: query.isLoading,
    error: query.error,
    refetch: query.refetch,
  };
}

/** The user inside the signed-in area, where the auth gate guarantees there is one. */
export function useSignedInUser(): CurrentUser {
  const { user } = useAuth();
  if (!user) throw new Error('useSignedInUser used outside the signed-in area');
  return user;
}
