import * as TabsPrimitive from '@radix-ui/react-tabs';
import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { cn } from '../../lib/cn.ts';

export type PageTab<K extends string> = { value: K; label: string; icon?: LucideIcon };

type PageTabsProps<K extends string> = {
  /** The tab list's accessible name ("Dashboard views"). */
  label: string;
  tabs: readonly PageTab<K>[];
  value: K;
  onValueChange: (value: K) => void;
  children: ReactNode;
  className?: string;
};

/**
 * A screen's top-level tabs on Radix Tabs: arrow keys move between tabs, Home/End jump, and each
 * panel is labelled by its tab. The strip scrolls sideways on a narrow phone instead of wrapping.
 */
export function PageTabs<K extends string>({ label, tabs, value, onValueChange, children, className }: PageTabsProps<K>) {
  return (
    <TabsPrimitive.Root value={value} onValueChange={(v) => onValueChange(v as K)} className={className}>
      <div className="-mx-1 mb-6 overflow-x-auto px-1 pb-1">
        <TabsPrimitive.List aria-label={label} className="inline-flex min-w-max gap-1 rounded-xl bg-slate-200/70 p-1">
          {tabs.map(({ value: v, label: text, icon: Icon }) => (
            <TabsPrimitive.Trigger
              key={v}
              value={v}
              className={cn(
                'inline-flex h-9 items-center gap-2 rounded-lg px-4 text-sm font-semibold whitespace-nowrap text-slate-700 transition-colors',
                'hover:text-slate-900 data-[state=active]:bg-white data-[state=active]:text-blue-800 data-[state=active]:shadow-sm',
              )}
            >
              {Icon ? <Icon aria-hidden="true" className="size-4" /> : null}
              {text}
            </TabsPrimitive.Trigger>
          ))}
        </TabsPrimitive.List>
      </div>
      {children}
    </TabsPrimitive.Root>
  );
}

/**
 * One tab's panel. Only the active panel is rendered, unless `keepMounted`: then inactive panels
 * stay in the page, hidden, so what was typed in a form survives a look at another tab.
 */
export function PageTabPanel({ value, children, className, keepMounted = false }: { value: string; children: ReactNode; className?: string; keepMounted?: boolean }) {
  return (
    <TabsPrimitive.Content
      value={value}
      forceMount={keepMounted || undefined}
      className={cn('outline-none data-[state=inactive]:hidden', className)}
      tabIndex={-1}
    >
      {children}
    </TabsPrimitive.Content>
  );
}
