import { formatCountdown } from '../../common/countdown.ts';

/**
 * The one home of the admin screens' time and number formatting. Wall times ('HH:MM') and calendar
 * dates ('YYYY-MM-DD') are the school's and are formatted as UTC, so the reader's time zone never
 * shifts them; instants (ISO) show in the reader's time zone. The countdown's mm:ss lives in
 * common/, since the server renders the scan page's.
 */

export { formatCountdown };

/** SPEC §4: time left as mm:ss, or 'Expired' at zero. */
export const formatTimeLeft = (remainingMs: number): string => (remainingMs <= 0 ? 'Expired' : formatCountdown(remainingMs));

const clockFormat = new Intl.DateTimeFormat(undefined, { hour: 'numeric', minute: '2-digit', timeZone: 'UTC' });

/** A school-local wall time 'HH:MM' as the reader's locale writes it ("8:00 AM"). */
export function formatClock(hhmm: string): string {
  const [h, m] = hhmm.split(':').map(Number);
  if (h === undefined || m === undefined || Number.isNaN(h) || Number.isNaN(m)) return hhmm;
  return clockFormat.format(Date.UTC(2000, 0, 1, h, m));
}

export const formatClockRange = (start: string, end: string): string => `${formatClock(start)} – ${formatClock(end)}`;

const localTimeFormat = new Intl.DateTimeFormat(undefined, { hour: 'numeric', minute: '2-digit' });

/** An instant (ISO) as a time of day in this browser's time zone ("9:03 AM"). */
export function formatLocalTime(iso: string | null): string | null {
  const t = iso ? Date.parse(iso) : NaN;
  return Number.isNaN(t) ? null : localTimeFormat.format(t);
}

const dateFormats = {
  /** "Mon, Mar 2, 2026" */
  weekday: new Intl.DateTimeFormat(undefined, { weekday: 'short', month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' }),
  /** "Monday, March 2" */
  long: new Intl.DateTimeFormat(undefined, { weekday: 'long', month: 'long', day: 'numeric', timeZone: 'UTC' }),
  /** "Jan 6, 2025" */
  medium: new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' }),
};

/** A calendar date 'YYYY-MM-DD' in one of the app's styles (no time-zone shift). */
export function formatDate(date: string, style: keyof typeof dateFormats = 'weekday'): string {
  const t = Date.parse(`${date}T00:00:00Z`);
  return Number.isNaN(t) ? date : dateFormats[style].format(t);
}

/** An instant as the record tables write it ("Mar 2, 2026, 9:03 AM"). */
export const formatDateTime = (iso: string): string => new Date(iso).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' });

/** A size in bytes ("812 B", "1.5 KB", "240 MB"); 'Unknown' when the server could not tell. */
export function formatBytes(bytes: number | null): string {
  if (bytes == null) return 'Unknown';
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let v = bytes / 1024;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i += 1;
  }
  return `${v >= 100 ? Math.round(v) : v.toFixed(1)} ${units[i]}`;
}

/** A count with thousands separators ("1,234"). */
export const formatCount = (n: number): string => n.toLocaleString('en-US');

/**
 * Exact minutes as hours and minutes ("1,234:05"): the clock-hour ledger keeps minutes and shows
 * hours without rounding them (COMPLIANCE.md: one decimal or h:mm, for display only).
 */
export function formatHm(minutes: number): string {
  const sign = minutes < 0 ? '−' : '';
  const abs = Math.abs(Math.round(minutes));
  return `${sign}${Math.floor(abs / 60).toLocaleString('en-US')}:${String(abs % 60).padStart(2, '0')}`;
}

/** Hours a contract gives as a number (payment-period bounds, hours remaining), to one decimal at most. */
export const formatHours = (hours: number): string => (Math.round(hours * 10) / 10).toLocaleString('en-US', { maximumFractionDigits: 1 });

/** A percentage to one decimal at most; '—' when there is none (nothing scheduled yet). */
export const formatPercent = (percent: number | null): string => (percent == null ? '—' : `${percent.toLocaleString('en-US', { maximumFractionDigits: 1 })}%`);
