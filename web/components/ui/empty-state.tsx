import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { Card } from './card.tsx';

export function EmptyState({ icon: Icon, title, children }: { icon: LucideIcon; title: string; children?: ReactNode }) {
  return (
    <Card className="flex flex-col items-center px-6 py-16 text-center">
      <span className="flex size-12 items-center justify-center rounded-full bg-slate-100">
        <Icon aria-hidden="true" className="size-6 text-slate-600" />
      </span>
      <h2 className="mt-4 text-base font-semibold text-slate-900">{title}</h2>
      {children ? <p className="mt-1 max-w-md text-sm text-slate-600">{children}</p> : null}
    </Card>
  );
}
