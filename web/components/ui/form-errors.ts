import { readErrorBody, type FieldErrors } from '../../lib/api.ts';

/**
 * A refused save, split for a form: messages for the fields it shows (beside each field), and a
 * general message when the server named no field the form has (e.g. a 403 guard rail), so a
 * refusal is never silent.
 */
export function serverFormErrors(error: unknown, fields: readonly string[]): { fieldErrors: FieldErrors; message: string | null } {
  const { message, fieldErrors } = readErrorBody(error);
  // 'sapCheckpointHours.1' is shown on the form's sapCheckpointHours field.
  const shown = Object.keys(fieldErrors).filter((f) => fields.includes(f.split('.')[0]!));
  const fallback = message ?? 'The server refused the change. Please try again.';
  return { fieldErrors, message: shown.length === 0 ? fallback : null };
}
