import type { ReactNode } from 'react';
import { cn } from '../../lib/cn.ts';

/** The strip above a table inside its card: search on the left, filters or counts on the right. */
export function Toolbar({ children, className }: { children: ReactNode; className?: string }) {
  return <div className={cn('flex flex-col gap-3 border-b border-slate-200 px-4 py-3 sm:flex-row sm:items-center sm:justify-between', className)}>{children}</div>;
}
