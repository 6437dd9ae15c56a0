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
 * panel is labelled by its tab. On a narrow phone the tabs wrap onto a second row (each at least
 * 44 px tall) instead of scrolling sideways, where the last ones would sit unseen off the screen.
 */
export function PageTabs<K extends string>({ label, tabs, value, onValueChange, children, className }: PageTabsProps<K>) {
  return (
    <TabsPrimitive.Root value={value} onValueChange={(v) => onValueChange(v as K)} className={className}>
      <TabsPrimitive.List aria-label={label} className="mb-6 flex flex-wrap gap-1 rounded-xl bg-slate-200/70 p-1 sm:inline-flex">
        {tabs.map(({ value: v, label: text, icon: Icon }) => (
          <TabsPrimitive.Trigger
            key={v}
            value={v}
            className={cn(
              'inline-flex min-h-11 grow items-center justify-center gap-2 rounded-lg px-3 text-center text-sm font-semibold text-slate-700 transition-colors sm:min-h-9 sm:px-4',
              'hover:text-slate-900 data-[state=active]:bg-white data-[state=active]:text-blue-800 data-[state=active]:shadow-sm',
            )}
          >
            {Icon ? <Icon aria-hidden="true" className="size-4 shrink-0" /> : null}
            {text}
          </TabsPrimitive.Trigger>
        ))}
      </TabsPrimitive.List>
      {children}
    </TabsPrimitive.Root>
  );
}

/**
 * One tab's panel. Only the active panel is rendered, unless `keepMounted`: then inactive panels
 * stay in the page, hidden, so what was typed in a form survives a look at another tab.
 */
export function PageTabPanel({
  value,
  children,
  className,
  keepMounted = false,
}: {
  value: string;
  children: ReactNode;
  className?: string;
  keepMounted?: boolean;
}) {
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
