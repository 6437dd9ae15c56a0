import { UNAUTHORIZED_REDIRECT_MS } from '../../common/constants.ts';
import { UNAUTHORIZED_DESCRIPTION, UNAUTHORIZED_TITLE } from '../../common/messages.ts';
import { isUnauthorizedError } from './api.ts';
import { toast } from './toast.ts';

let redirecting = false;

/**
 * SPEC §8: a 401 Unauthorized anywhere means the session ended. Tell the user, then send the
 * browser to sign in. Several queries failing together must give one toast and one redirect.
 * Returns whether the error was handled.
 */
export function handleUnauthorized(error: unknown): boolean {
  if (!isUnauthorizedError(error)) return false;
  if (redirecting) return true;
  redirecting = true;
  toast({ title: UNAUTHORIZED_TITLE, description: UNAUTHORIZED_DESCRIPTION, variant: 'destructive' });
  setTimeout(() => {
    window.location.href = '/api/login';
  }, UNAUTHORIZED_REDIRECT_MS);
  return true;
}
