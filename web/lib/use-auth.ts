import { useQuery } from '@tanstack/react-query';
import { currentUserSchema, type CurrentUser } from '../../common/auth.ts';
import { getQueryFn } from './api.ts';

export const AUTH_USER_KEY = ['/api/auth/user'] as const;

const fetchUser = getQueryFn<unknown>({ on401: 'returnNull' });

/**
 * Who is signed in (SPEC §7: GET /api/auth/user, no retry). A 401 means "signed out" here, not
 * an error, so it never triggers the Unauthorized toast.
 */
export function useAuth() {
  const query = useQuery<CurrentUser | null>({
    queryKey: AUTH_USER_KEY,
    queryFn: async (ctx) => {
      const body = await fetchUser(ctx);
      return body === null ? null : currentUserSchema.parse(body);
    },
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
