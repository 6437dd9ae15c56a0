import { useId, type TextareaHTMLAttributes } from 'react';
import { cn } from '../../lib/cn.ts';

type TextareaFieldProps = Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'id'> & {
  label: string;
  name: string;
  error?: string | undefined;
};

/** A labelled multi-line input, wired for errors like TextField. */
export function TextareaField({ label, error, className, rows = 3, ...props }: TextareaFieldProps) {
  const id = useId();
  const errorId = error ? `${id}-error` : undefined;
  return (
    <div className={className}>
      <label htmlFor={id} className="block text-sm font-medium text-slate-800">
        {label}
      </label>
      <textarea
        id={id}
        rows={rows}
        aria-invalid={error ? true : undefined}
        aria-describedby={errorId}
        className={cn(
          'mt-1.5 block w-full rounded-lg border bg-white px-3 py-2 text-sm text-slate-900 shadow-sm',
          'placeholder:text-slate-500 focus:outline-2 focus:-outline-offset-1 focus:outline-blue-600',
          error ? 'border-red-600' : 'border-slate-300',
        )}
        {...props}
      />
      {error ? (
        <p id={errorId} className="mt-1.5 text-xs font-medium text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}
