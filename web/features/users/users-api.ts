import { useMutation } from '@tanstack/react-query';
import type { z } from 'zod';
import { userCreatedSchema, userSchema, type UserInput } from '../../../common/users.ts';
import { okSchema } from '../../../common/validation.ts';
import { SCHEDULES_KEY, USERS_KEY } from '../../lib/shared-queries.ts';
import { apiParse } from '../../lib/api.ts';
import { useRefreshingMutation } from '../../lib/use-refreshing-mutation.ts';

/** The Users screen's changes and the public set-password call; the list is lib/shared-queries.ts. */

export type UserCreated = z.infer<typeof userCreatedSchema>;

function useUserMutation<TVars, TResult>(fn: (vars: TVars) => Promise<TResult>) {
  // Schedule cards show instructor names too.
  return useRefreshingMutation(fn, [USERS_KEY, SCHEDULES_KEY]);
}

/** POST /api/users: a local account with no password yet, plus its one-time set-password link. */
export const useCreateUser = () => useUserMutation((input: UserInput) => apiParse(userCreatedSchema, 'POST', '/api/users', input));

export const useUpdateUser = () => useUserMutation(({ id, input }: { id: number; input: UserInput }) => apiParse(userSchema, 'PUT', `/api/users/${id}`, input));

/** DELETE /api/users/{id} deactivates: the account's history stays attributed to it. */
export const useDeactivateUser = () => useUserMutation((id: number) => apiParse(userSchema, 'DELETE', `/api/users/${id}`));

export const useReactivateUser = () => useUserMutation((id: number) => apiParse(userSchema, 'POST', `/api/users/${id}/reactivate`));

/** A fresh set-password link (the first expired, or the user forgot their password). */
/** POST /api/users/{id}/two-factor/reset (super_admin): the user enrols again at next sign-in. */
export const useResetTwoFactor = () => useUserMutation((id: number) => apiParse(okSchema, 'POST', `/api/users/${id}/two-factor/reset`));

export const useIssuePasswordLink = () => useUserMutation((id: number) => apiParse(userCreatedSchema, 'POST', `/api/users/${id}/password-link`));

/** POST /api/auth/set-password (public): redeems a one-time link; the user then signs in. */
export function useSetPassword() {
  return useMutation({
    mutationFn: (body: { token: string; password: string }) => apiParse(okSchema, 'POST', '/api/auth/set-password', body),
  });
}
