import type { ComponentPropsWithRef } from 'react';
import { controlClasses, FieldShell } from './field.tsx';

type TextFieldProps = Omit<ComponentPropsWithRef<'input'>, 'id'> & {
  label: string;
  name: string;
  error?: string | undefined;
  hint?: string | undefined;
};

/** A labelled input whose error sits beside it and is tied to it for assistive technology. */
export function TextField({ label, error, hint, className, ...inputProps }: TextFieldProps) {
  return (
    <FieldShell label={label} error={error} hint={hint} className={className}>
      {(control) => <input {...control} className={controlClasses(error, 'h-10 placeholder:text-slate-500')} {...inputProps} />}
    </FieldShell>
  );
}
