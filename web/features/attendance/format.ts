import { DAY_NAMES } from '../../../common/schedules.ts';

/** SPEC §4: a countdown as mm:ss; minutes may exceed 59 for long sessions. */
export function formatCountdown(remainingMs: number): string {
  const total = Math.max(0, Math.ceil(remainingMs / 1000));
  const minutes = Math.floor(total / 60);
  const seconds = total % 60;
  return `${String(minutes).padStart(2, '0')}:${String(seconds).padStart(2, '0')}`;
}

/** SPEC §9: session ids are shown truncated to 8 characters. */
export const shortId = (id: string): string => id.slice(0, 8);

const clockFormat = new Intl.DateTimeFormat(undefined, { hour: 'numeric', minute: '2-digit', timeZone: 'UTC' });

/** A school-local wall time 'HH:MM' as the reader's locale writes it ("8:00 AM"). */
export function formatClock(hhmm: string): string {
  const [h, m] = hhmm.split(':').map(Number);
  if (h === undefined || m === undefined || Number.isNaN(h) || Number.isNaN(m)) return hhmm;
  return clockFormat.format(Date.UTC(2000, 0, 1, h, m));
}

export const formatClockRange = (start: string, end: string): string => `${formatClock(start)} – ${formatClock(end)}`;

const timeFormat = new Intl.DateTimeFormat(undefined, { hour: 'numeric', minute: '2-digit' });

/** An instant (ISO) as a time of day in this browser's time zone. */
export function formatLocalTime(iso: string | null): string | null {
  if (!iso) return null;
  const t = Date.parse(iso);
  return Number.isNaN(t) ? null : timeFormat.format(t);
}

const dateFormat = new Intl.DateTimeFormat(undefined, { weekday: 'short', month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' });

/** A calendar date 'YYYY-MM-DD' ("Mon, Mar 2, 2026"). */
export function formatDate(date: string): string {
  const t = Date.parse(`${date}T00:00:00Z`);
  return Number.isNaN(t) ? date : dateFormat.format(t);
}

export const dayName = (dayOfWeek: number): string => DAY_NAMES[dayOfWeek] ?? `Day ${dayOfWeek}`;

export function formatMinutes(minutes: number | null): string | null {
  if (minutes == null) return null;
  if (minutes < 60) return `${minutes} min`;
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return m ? `${h} h ${m} min` : `${h} h`;
}
