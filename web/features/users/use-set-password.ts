import { useMutation } from '@tanstack/react-query';
import { apiJson } from '../../lib/api.ts';

/** POST /api/auth/set-password (public): redeems a one-time link; the user then signs in. */
export function useSetPassword() {
  return useMutation({
    mutationFn: (body: { token: string; password: string }) => apiJson<{ ok: true }>('POST', '/api/auth/set-password', body),
  });
}
