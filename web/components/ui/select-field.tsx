import { useId, type ReactNode, type SelectHTMLAttributes } from 'react';
import { cn } from '../../lib/cn.ts';

type SelectFieldProps = Omit<SelectHTMLAttributes<HTMLSelectElement>, 'id'> & {
  label: string;
  name: string;
  error?: string | undefined;
  hint?: string;
  children: ReactNode;
};

/** A labelled native select, styled and wired for errors like TextField. */
export function SelectField({ label, error, hint, className, children, ...selectProps }: SelectFieldProps) {
  const id = useId();
  // The hint gives way to the error, so only the message on screen is referenced.
  const hintId = hint && !error ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  return (
    <div className={className}>
      <label htmlFor={id} className="block text-sm font-medium text-slate-800">
        {label}
      </label>
      <select
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={[hintId, errorId].filter(Boolean).join(' ') || undefined}
        className={cn(
          'mt-1.5 block h-10 w-full rounded-lg border bg-white px-3 text-sm text-slate-900 shadow-sm',
          'focus:outline-2 focus:-outline-offset-1 focus:outline-blue-600 disabled:bg-slate-50 disabled:text-slate-500',
          error ? 'border-red-600' : 'border-slate-300',
        )}
        {...selectProps}
      >
        {children}
      </select>
      {hintId ? (
        <p id={hintId} className="mt-1.5 text-xs text-slate-600">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={errorId} className="mt-1.5 text-xs font-medium text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}
