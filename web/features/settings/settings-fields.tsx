import type { ZodNumber } from 'zod';
import { TextField } from '../../components/ui/text-field.tsx';

/** An integer setting: its label, the prefix of the shared schema's messages, and its range. */
export type IntegerSpec = { label: string; subject: string; unit: string; schema: ZodNumber; help: string };

/**
 * Check typed text against the shared schema (common/settings.ts), with its messages: an empty or
 * non-numeric entry is an error, never a silent 0.
 */
export function checkInteger(spec: IntegerSpec, raw: string): { value: number } | { error: string } {
  const text = raw.trim();
  if (text === '') return { error: `${spec.subject} is required` };
  const n = /^-?\d+(\.\d+)?$/.test(text) ? Number(text) : Number.NaN;
  const parsed = spec.schema.safeParse(n);
  return parsed.success ? { value: parsed.data } : { error: parsed.error.issues[0]?.message ?? `${spec.subject} is not valid` };
}

function rangeText(spec: IntegerSpec): string {
  return `${spec.schema.minValue ?? 0}–${spec.schema.maxValue ?? '∞'} ${spec.unit}`;
}

export function IntegerField({
  name,
  spec,
  value,
  onChange,
  error,
  readOnly,
}: {
  name: string;
  spec: IntegerSpec;
  value: string;
  onChange: (value: string) => void;
  error: string | undefined;
  readOnly: boolean;
}) {
  return (
    <TextField
      label={spec.label}
      name={name}
      inputMode="numeric"
      autoComplete="off"
      value={value}
      onChange={(e) => onChange(e.target.value)}
      readOnly={readOnly}
      aria-readonly={readOnly || undefined}
      className={readOnly ? '[&_input]:bg-slate-50 [&_input]:text-slate-700' : undefined}
      hint={`${spec.help} Allowed: ${rangeText(spec)}.`}
      error={error}
    />
  );
}
