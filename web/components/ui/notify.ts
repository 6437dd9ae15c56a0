import { isUnauthorizedError } from '../../lib/api.ts';
import { toast } from '../../lib/toast.ts';

/** A success toast (SPEC §8 titles such as 'Student created'). */
export function notifySuccess(title: string, description?: string): void {
  toast({ title, description, variant: 'success' });
}

/**
 * A failure toast with the SPEC §8 text. A 401 is left to the Unauthorized toast and redirect
 * (lib/unauthorized.ts), which must not be replaced by this one (one toast at a time).
 */
export function notifyFailure(error: unknown, description: string, title = 'Error'): void {
  if (isUnauthorizedError(error)) return;
  toast({ title, description, variant: 'destructive' });
}
