import { useId } from 'react';
import { cn } from '../../lib/cn.ts';

type SwitchFieldProps = {
  label: string;
  description?: string;
  checked: boolean;
  onCheckedChange: (checked: boolean) => void;
  disabled?: boolean;
  className?: string;
};

/**
 * An on/off setting: a button with role="switch" (Space or Enter toggles it), named by its label
 * and described by the text under it. The state is also written out ("On"/"Off"), not only coloured.
 */
export function SwitchField({ label, description, checked, onCheckedChange, disabled = false, className }: SwitchFieldProps) {
  const id = useId();
  const labelId = `${id}-label`;
  const descriptionId = description ? `${id}-description` : undefined;
  return (
    <div className={cn('flex items-start justify-between gap-4 py-4', className)}>
      <div className="min-w-0">
        <span id={labelId} className="block text-sm font-medium text-slate-900">
          {label}
        </span>
        {description ? (
          <span id={descriptionId} className="mt-0.5 block text-sm text-slate-600">
            {description}
          </span>
        ) : null}
      </div>
      <div className="flex shrink-0 items-center gap-2.5">
        <span aria-hidden="true" className="w-7 text-right text-xs font-medium text-slate-600">
          {checked ? 'On' : 'Off'}
        </span>
        <button
          type="button"
          role="switch"
          aria-checked={checked}
          aria-labelledby={labelId}
          aria-describedby={descriptionId}
          disabled={disabled}
          onClick={() => onCheckedChange(!checked)}
          className={cn(
            'relative inline-flex h-6 w-11 shrink-0 items-center rounded-full transition-colors',
            'disabled:cursor-not-allowed disabled:opacity-60',
            checked ? 'bg-blue-700' : 'bg-slate-400',
          )}
        >
          <span
            aria-hidden="true"
            className={cn('inline-block size-5 rounded-full bg-white shadow transition-transform', checked ? 'translate-x-5.5' : 'translate-x-0.5')}
          />
        </button>
      </div>
    </div>
  );
}
