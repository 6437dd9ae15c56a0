import { CircleAlert, Info, TriangleAlert } from 'lucide-react';
import type { ReactNode } from 'react';
import { cn } from '../../lib/cn.ts';

const VARIANT = {
  error: 'border-red-200 bg-red-50 text-red-800',
  warning: 'border-amber-300 bg-amber-50 text-amber-950',
  info: 'border-blue-200 bg-blue-50 text-blue-900',
} as const;

/**
 * Inline message. Errors use role=alert so screen readers announce them as they appear; a
 * warning (something to look at, not a failure) and information are a polite status.
 */
export function Alert({ variant = 'error', children, className }: { variant?: keyof typeof VARIANT; children: ReactNode; className?: string }) {
  const Icon = variant === 'error' ? CircleAlert : variant === 'warning' ? TriangleAlert : Info;
  return (
    <div role={variant === 'error' ? 'alert' : 'status'} className={cn('flex gap-3 rounded-lg border px-4 py-3 text-sm', VARIANT[variant], className)}>
      <Icon aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
      <div>{children}</div>
    </div>
  );
}
