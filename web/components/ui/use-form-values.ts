import { useState, type ChangeEvent } from 'react';

type FormElement = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;

/**
 * Controlled form state as strings (what inputs hold); the submit handler converts and checks
 * them against the shared zod schema. `bind('email')` gives an input its name, value and onChange.
 */
export function useFormValues<T extends Record<string, string>>(initial: T | (() => T)) {
  const [values, setValues] = useState<T>(initial);
  const set = (name: keyof T, value: string) => setValues((v) => ({ ...v, [name]: value }));
  const bind = (name: keyof T & string) => ({
    name,
    value: values[name],
    onChange: (e: ChangeEvent<FormElement>) => set(name, e.target.value),
  });
  return { values, set, bind };
}

/** '' → null, else the number ('' means "not given" for optional numeric fields). */
export function numberOrNull(value: string): number | null {
  return value.trim() === '' ? null : Number(value);
}

/** '' → undefined, so a required numeric field reports "… is required" rather than a range error. */
export function numberOrUndefined(value: string): number | undefined {
  return value.trim() === '' ? undefined : Number(value);
}
