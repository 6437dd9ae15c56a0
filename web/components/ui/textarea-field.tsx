import type { ComponentPropsWithRef } from 'react';
import { controlClasses, FieldShell } from './field.tsx';

type TextareaFieldProps = Omit<ComponentPropsWithRef<'textarea'>, 'id'> & {
  label: string;
  name: string;
  error?: string | undefined;
};

/** A labelled multi-line input, wired for errors like TextField. */
export function TextareaField({ label, error, className, rows = 3, ...props }: TextareaFieldProps) {
  return (
    <FieldShell label={label} error={error} className={className}>
      {(control) => <textarea {...control} rows={rows} className={controlClasses(error, 'py-2 placeholder:text-slate-500')} {...props} />}
    </FieldShell>
  );
}
