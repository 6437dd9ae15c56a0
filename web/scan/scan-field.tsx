import { useId, type InputHTMLAttributes, type Ref } from 'react';

type ScanFieldProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'className'> & {
  label: string;
  name: string;
  hint?: string;
  inputRef?: Ref<HTMLInputElement>;
};

/**
 * A labelled input sized for thumbs: 48 px tall, 16 px text (smaller text makes iOS zoom the page
 * on focus).
 */
export function ScanField({ label, hint, inputRef, ...inputProps }: ScanFieldProps) {
  const id = useId();
  const hintId = hint ? `${id}-hint` : undefined;
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-semibold text-slate-800">
        {label}
      </label>
      <input
        ref={inputRef}
        id={id}
        aria-describedby={hintId}
        className="mt-1.5 block h-12 w-full rounded-xl border border-slate-300 bg-white px-3.5 text-base text-slate-900 shadow-sm placeholder:text-slate-400 focus:border-blue-600 focus:outline-2 focus:-outline-offset-1 focus:outline-blue-600"
        {...inputProps}
      />
      {hint ? (
        <p id={hintId} className="mt-1.5 text-xs text-slate-600">
          {hint}
        </p>
      ) : null}
    </div>
  );
}
