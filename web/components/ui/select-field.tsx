import type { ComponentPropsWithRef, ReactNode } from 'react';
import { controlClasses, FieldShell } from './field.tsx';

type SelectFieldProps = Omit<ComponentPropsWithRef<'select'>, 'id'> & {
  label: string;
  name: string;
  error?: string | undefined;
  hint?: string | undefined;
  children: ReactNode;
};

/** A labelled native select, styled and wired for errors like TextField. */
export function SelectField({ label, error, hint, className, children, ...selectProps }: SelectFieldProps) {
  return (
    <FieldShell label={label} error={error} hint={hint} className={className}>
      {(control) => (
        <select {...control} className={controlClasses(error, 'h-10 disabled:bg-slate-50 disabled:text-slate-500')} {...selectProps}>
          {children}
        </select>
      )}
    </FieldShell>
  );
}
