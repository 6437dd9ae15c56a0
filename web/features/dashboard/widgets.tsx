import { ArrowDownRight, ArrowRight, ArrowUpRight, type LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { Badge, type BadgeTone } from '../../components/ui/badge.tsx';
import { Card } from '../../components/ui/card.tsx';
import { cn } from '../../lib/cn.ts';

/** A titled dashboard panel; the heading names the region for screen-reader navigation. */
export function Panel({
  title,
  icon: Icon,
  description,
  actions,
  children,
  className,
}: {
  title: string;
  icon?: LucideIcon;
  description?: ReactNode;
  actions?: ReactNode;
  children: ReactNode;
  className?: string;
}) {
  return (
    <Card className={cn('flex flex-col', className)}>
      <div className="flex flex-wrap items-start justify-between gap-3 border-b border-slate-100 px-5 py-4">
        <div className="min-w-0">
          <h2 className="flex items-center gap-2 text-base font-semibold text-slate-900">
            {Icon ? <Icon aria-hidden="true" className="size-5 text-blue-700" /> : null}
            {title}
          </h2>
          {description ? <p className="mt-0.5 text-sm text-slate-600">{description}</p> : null}
        </div>
        {actions ? <div className="flex flex-wrap items-center gap-2">{actions}</div> : null}
      </div>
      <div className="flex-1 px-5 py-4">{children}</div>
    </Card>
  );
}

/** One figure with its caption ("92% · 45 of 49 students"). */
export function Stat({
  label,
  value,
  caption,
  icon: Icon,
  tone = 'blue',
  children,
  testId,
}: {
  label: string;
  value: ReactNode;
  caption?: ReactNode;
  icon: LucideIcon;
  tone?: 'blue' | 'green' | 'amber' | 'red' | 'slate';
  children?: ReactNode;
  testId?: string;
}) {
  const tones = {
    blue: 'bg-blue-50 text-blue-700',
    green: 'bg-emerald-50 text-emerald-700',
    amber: 'bg-amber-50 text-amber-700',
    red: 'bg-red-50 text-red-700',
    slate: 'bg-slate-100 text-slate-600',
  };
  return (
    <Card className="p-5" data-testid={testId}>
      <div className="flex items-start justify-between gap-3">
        <div className="min-w-0">
          <p className="text-sm font-medium text-slate-600">{label}</p>
          <p className="mt-1 text-2xl font-bold tracking-tight text-slate-900 tabular-nums sm:text-3xl">{value}</p>
        </div>
        <span className={cn('flex size-10 shrink-0 items-center justify-center rounded-lg', tones[tone])}>
          <Icon aria-hidden="true" className="size-5" />
        </span>
      </div>
      {caption ? <p className="mt-1 text-sm text-slate-600">{caption}</p> : null}
      {children}
    </Card>
  );
}

/** A horizontal bar for a share (0–100); the figure itself is always written beside it. */
export function Meter({ value, label, tone = 'blue' }: { value: number; label: string; tone?: 'blue' | 'green' | 'amber' | 'red' }) {
  const colours = { blue: 'bg-blue-600', green: 'bg-emerald-600', amber: 'bg-amber-500', red: 'bg-red-600' };
  const clamped = Math.max(0, Math.min(100, value));
  return (
    <div
      role="meter"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={Math.round(clamped)}
      className="mt-3 h-2 overflow-hidden rounded-full bg-slate-100"
    >
      <div className={cn('h-full rounded-full', colours[tone])} style={{ width: `${clamped}%` }} />
    </div>
  );
}

const HEALTH_TONES: Record<string, BadgeTone> = { healthy: 'green', warning: 'amber', error: 'red' };
const HEALTH_LABELS: Record<string, string> = { healthy: 'Healthy', warning: 'Warning', error: 'Error' };

/** SPEC §4: healthy, warning or error; anything else neutral. */
export function HealthBadge({ status }: { status: string | null | undefined }) {
  const s = status ?? 'healthy';
  return <Badge tone={HEALTH_TONES[s] ?? 'slate'}>{HEALTH_LABELS[s] ?? s}</Badge>;
}

const LEVEL_TONES: Record<string, BadgeTone> = { high: 'red', medium: 'amber', low: 'green' };

/** Alert severity or course risk level (high, medium, low). */
export function LevelBadge({ level, kind }: { level: string; kind: 'severity' | 'risk' }) {
  const text = level.charAt(0).toUpperCase() + level.slice(1);
  const tone = kind === 'severity' && level === 'low' ? 'blue' : (LEVEL_TONES[level] ?? 'slate');
  return <Badge tone={tone}>{kind === 'risk' ? `${text} risk` : text}</Badge>;
}

/** SPEC §4: up, down, otherwise flat; the arrow is decoration, the word is read. */
export function Trend({ trend, goodWhen = 'up' }: { trend: string; goodWhen?: 'up' | 'down' }) {
  const t = trend === 'up' || trend === 'down' ? trend : 'flat';
  const Icon = t === 'up' ? ArrowUpRight : t === 'down' ? ArrowDownRight : ArrowRight;
  const colour = t === 'flat' ? 'text-slate-600' : t === goodWhen ? 'text-emerald-700' : 'text-red-700';
  return (
    <span className={cn('inline-flex items-center gap-1 text-sm font-medium', colour)}>
      <Icon aria-hidden="true" className="size-4" />
      {t === 'up' ? 'Up' : t === 'down' ? 'Down' : 'Flat'}
    </span>
  );
}

/** A panel body while its figures load or when they could not be loaded. */
export function PanelMessage({ children, tone = 'muted' }: { children: ReactNode; tone?: 'muted' | 'error' }) {
  return (
    <p role={tone === 'error' ? 'alert' : undefined} className={cn('py-6 text-center text-sm', tone === 'error' ? 'text-red-700' : 'text-slate-600')}>
      {children}
    </p>
  );
}
