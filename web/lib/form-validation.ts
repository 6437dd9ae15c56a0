import type { z } from 'zod';
import type { FieldErrors } from './api.ts';

/** Check a form against the shared zod schema; the first message per field, keyed like the server's. */
export function validateForm<S extends z.ZodType>(schema: S, values: unknown): { data: z.infer<S> | null; errors: FieldErrors } {
  const result = schema.safeParse(values);
  if (result.success) return { data: result.data, errors: {} };
  const errors: FieldErrors = {};
  for (const issue of result.error.issues) {
    const field = issue.path.join('.') || 'form';
    if (!(field in errors)) errors[field] = issue.message;
  }
  return { data: null, errors };
}

/** Move focus to the first field reported invalid, so keyboard and screen-reader users land on it. */
export function focusFirstInvalid(form: HTMLFormElement | null): void {
  requestAnimationFrame(() => form?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());
}
