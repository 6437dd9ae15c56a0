import { useId, type ReactNode } from 'react';
import { cn } from '../../lib/cn.ts';

/** What a FieldShell hands its control: the id its label points at, and the error/hint wiring. */
type FieldControlProps = { id: string; 'aria-invalid': true | undefined; 'aria-describedby': string | undefined };

type FieldShellProps = {
  label: string;
  error?: string | undefined;
  hint?: string | undefined;
  className?: string | undefined;
  children: (control: FieldControlProps) => ReactNode;
};

/**
 * The frame every labelled form control shares: the label, the control, then its hint or its
 * error, tied to the control for assistive technology. The hint gives way to the error, so only
 * the message on screen is referenced.
 */
export function FieldShell({ label, error, hint, className, children }: FieldShellProps) {
  const id = useId();
  const hintId = hint && !error ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  return (
    <div className={className}>
      <label htmlFor={id} className="block text-sm font-medium text-slate-800">
        {label}
      </label>
      {children({ id, 'aria-invalid': error ? true : undefined, 'aria-describedby': [hintId, errorId].filter(Boolean).join(' ') || undefined })}
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

/** The box of a text input, select or textarea; red-bordered when its field is invalid. */
export function controlClasses(error: string | undefined, extra: string): string {
  return cn(
    'mt-1.5 block w-full rounded-lg border bg-white px-3 text-sm text-slate-900 shadow-sm focus:outline-2 focus:-outline-offset-1 focus:outline-blue-600',
    extra,
    error ? 'border-red-600' : 'border-slate-300',
  );
}
