import { useId, type InputHTMLAttributes } from 'react';
import { cn } from '../../lib/cn.ts';

type TextFieldProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> & {
  label: string;
  name: string;
  error?: string | undefined;
  hint?: string;
};

/** A labelled input whose error sits beside it and is tied to it for assistive technology. */
export function TextField({ label, error, hint, className, ...inputProps }: TextFieldProps) {
  const id = useId();
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  return (
    <div className={className}>
      <label htmlFor={id} className="block text-sm font-medium text-slate-800">
        {label}
      </label>
      <input
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={[hintId, errorId].filter(Boolean).join(' ') || undefined}
        className={cn(
          'mt-1.5 block h-10 w-full rounded-lg border bg-white px-3 text-sm text-slate-900 shadow-sm',
          'placeholder:text-slate-500 focus:outline-2 focus:-outline-offset-1 focus:outline-blue-600',
          error ? 'border-red-600' : 'border-slate-300',
        )}
        {...inputProps}
      />
      {hint && !error ? (
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
