import { useEffect } from 'react';
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

/** A schema loaded on demand (decision 025): the form draws first, zod arrives while the user types. */
export type SchemaLoader<T> = () => Promise<z.ZodType<T>>;

/**
 * validateForm with a schema loaded on demand. If it cannot load (the network dropped), the values go
 * as typed and the server's own check answers, field by field, as it always does.
 */
export async function validateFormLazily<T>(load: SchemaLoader<T>, values: unknown): Promise<{ data: T | null; errors: FieldErrors }> {
  const schema = await load().catch(() => null);
  return schema ? validateForm(schema, values) : { data: values as T, errors: {} };
}

/** Start loading a form's schema when the form first shows, so it is there by the time it is sent. */
export function usePreloadedSchema(load: SchemaLoader<unknown>): void {
  useEffect(() => {
    load().catch(() => {});
  }, [load]);
}
