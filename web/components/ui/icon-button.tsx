import type { LucideIcon } from 'lucide-react';
import type { ButtonHTMLAttributes } from 'react';
import { cn } from '../../lib/cn.ts';

type IconButtonProps = Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'children'> & {
  icon: LucideIcon;
  /** The accessible name, also shown as a tooltip. */
  label: string;
  tone?: 'default' | 'danger';
};

/** A compact icon-only action (table rows); its name comes from `label`. */
export function IconButton({ icon: Icon, label, tone = 'default', className, type = 'button', ...props }: IconButtonProps) {
  return (
    <button
      type={type}
      aria-label={label}
      title={label}
      className={cn(
        'inline-flex size-8 items-center justify-center rounded-md transition-colors disabled:cursor-not-allowed disabled:opacity-50',
        tone === 'danger' ? 'text-red-700 hover:bg-red-50' : 'text-slate-600 hover:bg-slate-100 hover:text-slate-900',
        className,
      )}
      {...props}
    >
      <Icon aria-hidden="true" className="size-4" />
    </button>
  );
}
