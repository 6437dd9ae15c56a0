import { cn } from '../../lib/cn.ts';

/** The Muster logo: a stylised M on a blue tile, plus the word mark. */
export function BrandMark({ tone = 'dark', className }: { tone?: 'dark' | 'light'; className?: string }) {
  return (
    <span className={cn('inline-flex items-center gap-2.5', className)}>
      <svg aria-hidden="true" viewBox="0 0 32 32" className="size-8 shrink-0">
        <rect width="32" height="32" rx="8" fill="#1d4ed8" />
        <path d="M9 22V10l7 7 7-7v12" fill="none" stroke="#fff" strokeWidth="3" strokeLinecap="round" strokeLinejoin="round" />
      </svg>
      <span className={cn('text-lg font-bold tracking-tight', tone === 'dark' ? 'text-slate-900' : 'text-white')}>Muster</span>
    </span>
  );
}
