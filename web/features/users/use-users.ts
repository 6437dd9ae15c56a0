import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { User, UserInput, userCreatedSchema } from '../../../common/users.ts';
import { apiJson } from '../../lib/api.ts';

export type UserCreated = z.infer<typeof userCreatedSchema>;

export const USERS_KEY = ['/api/users'] as const;

/** GET /api/users: every staff account (a school has tens, not thousands: filtered in the browser). */
export function useUsers() {
  return useQuery<User[]>({ queryKey: USERS_KEY });
}

function useUserMutation<TVars, TResult>(fn: (vars: TVars) => Promise<TResult>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    // Schedule cards show instructor names too.
    onSuccess: () => Promise.all([queryClient.invalidateQueries({ queryKey: USERS_KEY }), queryClient.invalidateQueries({ queryKey: ['/api/schedules'] })]),
  });
}

/** POST /api/users: a local account with no password yet, plus its one-time set-password link. */
export const useCreateUser = () => useUserMutation((input: UserInput) => apiJson<UserCreated>('POST', '/api/users', input));

export const useUpdateUser = () =>
  useUserMutation(({ id, input }: { id: number; input: UserInput }) => apiJson<User>('PUT', `/api/users/${id}`, input));

/** DELETE /api/users/{id} deactivates: the account's history stays attributed to it. */
export const useDeactivateUser = () => useUserMutation((id: number) => apiJson<User>('DELETE', `/api/users/${id}`));

export const useReactivateUser = () => useUserMutation((id: number) => apiJson<User>('POST', `/api/users/${id}/reactivate`));

/** A fresh set-password link (the first expired, or the user forgot their password). */
export const useIssuePasswordLink = () => useUserMutation((id: number) => apiJson<UserCreated>('POST', `/api/users/${id}/password-link`));
