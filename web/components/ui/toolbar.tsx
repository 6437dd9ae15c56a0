import type { ReactNode } from 'react';
import { cn } from '../../lib/cn.ts';

/** The strip above a table inside its card: search on the left, filters or counts on the right. */
export function Toolbar({ children, className }: { children: ReactNode; className?: string }) {
  return (
    <div className={cn('flex flex-col gap-3 border-b border-slate-200 px-4 py-3 sm:flex-row sm:items-center sm:justify-between', className)}>{children}</div>
  );
}

/** A compact labelled filter for a Toolbar ("Status: All"), the label beside the select. */
export function ToolbarSelect({
  id,
  label,
  value,
  onChange,
  children,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  children: ReactNode;
}) {
  return (
    <div className="flex items-center gap-2 text-sm">
      <label htmlFor={id} className="text-slate-700">
        {label}
      </label>
      <select
        id={id}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        className="h-11 rounded-lg border border-slate-300 bg-white px-3 text-sm shadow-sm sm:h-10"
      >
        {children}
      </select>
    </div>
  );
}
