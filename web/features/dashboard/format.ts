import { useEffect, useState } from 'react';

/** A percentage as the dashboard writes it: one decimal unless whole ("92%", "87.5%"). */
export function formatPercent(value: number): string {
  const rounded = Math.round(value * 10) / 10;
  return `${Number.isInteger(rounded) ? rounded.toFixed(0) : rounded.toFixed(1)}%`;
}

const timeFormat = new Intl.DateTimeFormat(undefined, { hour: 'numeric', minute: '2-digit', second: '2-digit' });
const shortTimeFormat = new Intl.DateTimeFormat(undefined, { hour: 'numeric', minute: '2-digit' });
const dateTimeFormat = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' });

export function formatTime(ms: number | string): string {
  const t = typeof ms === 'string' ? Date.parse(ms) : ms;
  return Number.isNaN(t) ? '—' : timeFormat.format(t);
}

/** An alert or event time: the time alone today, else with its date. */
export function formatWhen(iso: string, now = Date.now()): string {
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return '—';
  return new Date(t).toDateString() === new Date(now).toDateString() ? shortTimeFormat.format(t) : dateTimeFormat.format(t);
}

/** "Just now", "3 min ago", "2 h ago": how old a health check is. */
export function formatAgo(iso: string, now: number): string {
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return 'Just now';
  const seconds = Math.max(0, Math.round((now - t) / 1000));
  if (seconds < 60) return 'Just now';
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  return `${Math.round(minutes / 60)} h ago`;
}

/** Date.now(), re-rendering the caller every `intervalMs` (countdowns: every second, SPEC §9). */
export function useNow(intervalMs = 1000): number {
  const [now, setNow] = useState(Date.now);
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  return now;
}

const plural = (n: number, one: string, many: string) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

/**
 * The alert figures in words, the same on Overview and Live (Analytics' Students at Risk is the
 * third figure): "29 open alerts · 12 high · 13 students".
 */
export function alertFigures(c: { open: number; high: number; students: number }): string {
  if (c.open === 0) return 'No open alerts';
  return `${plural(c.open, 'open alert', 'open alerts')} · ${c.high.toLocaleString('en-US')} high · ${plural(c.students, 'student', 'students')}`;
}
