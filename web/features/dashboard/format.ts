import { useEffect, useState } from 'react';

/** A percentage as the dashboard writes it: one decimal unless whole ("92%", "87.5%"). */
export function formatPercent(value: number): string {
  const rounded = Math.round(value * 10) / 10;
  return `${Number.isInteger(rounded) ? rounded.toFixed(0) : rounded.toFixed(1)}%`;
}

export const formatCount = (n: number): string => n.toLocaleString('en-US');

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

/** A school-local wall time 'HH:MM' as the reader's locale writes it ("8:00 AM"). */
export function formatClock(hhmm: string): string {
  const [h, m] = hhmm.split(':').map(Number);
  if (h === undefined || m === undefined || Number.isNaN(h) || Number.isNaN(m)) return hhmm;
  return new Intl.DateTimeFormat(undefined, { hour: 'numeric', minute: '2-digit', timeZone: 'UTC' }).format(Date.UTC(2000, 0, 1, h, m));
}

/** SPEC §4: time left as mm:ss (minutes may pass 59), or 'Expired' at zero. */
export function formatTimeLeft(remainingMs: number): string {
  if (remainingMs <= 0) return 'Expired';
  const total = Math.ceil(remainingMs / 1000);
  return `${String(Math.floor(total / 60)).padStart(2, '0')}:${String(total % 60).padStart(2, '0')}`;
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
