import { useRef, useState } from 'react';
import type { z } from 'zod';
import type { FieldErrors } from '../../lib/api.ts';
import { focusFirstInvalid, validateForm } from '../../lib/form-validation.ts';
import { serverFormErrors } from './form-errors.ts';
import { notifyFailure } from './notify.ts';

/**
 * The error side of a record form: client validation with the shared zod schema, and a server
 * refusal shown beside its fields (or as one message when it names none), each time moving focus
 * to the first invalid field and, for refusals, toasting the SPEC §8 failure text.
 */
export function useFormFeedback(fields: readonly string[]) {
  const formRef = useRef<HTMLFormElement>(null);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [serverMessage, setServerMessage] = useState<string | null>(null);

  /** The parsed input, or null after showing what is wrong. */
  function validate<S extends z.ZodType>(schema: S, candidate: unknown): z.infer<S> | null {
    setServerMessage(null);
    const { data, errors: found } = validateForm(schema, candidate);
    setErrors(found);
    if (!data) focusFirstInvalid(formRef.current);
    return data;
  }

  function showRefusal(error: unknown, failureText: string): void {
    const body = serverFormErrors(error, fields);
    setErrors(body.fieldErrors);
    setServerMessage(body.message);
    focusFirstInvalid(formRef.current);
    notifyFailure(error, failureText);
  }

  return { formRef, errors, serverMessage, validate, showRefusal };
}
