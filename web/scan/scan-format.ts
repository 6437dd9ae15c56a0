// Small display helpers for the scan page (its bundle shares nothing with the admin screens).

export function formatCountdown(remainingMs: number): string {
  const total = Math.max(0, Math.ceil(remainingMs / 1000));
  return `${String(Math.floor(total / 60)).padStart(2, '0')}:${String(total % 60).padStart(2, '0')}`;
}

/** A school-local wall time 'HH:MM' in the phone's locale ("8:00 AM"). */
export function formatClock(hhmm: string): string {
  const [h, m] = hhmm.split(':').map(Number);
  if (h === undefined || m === undefined || Number.isNaN(h) || Number.isNaN(m)) return hhmm;
  return new Intl.DateTimeFormat(undefined, { hour: 'numeric', minute: '2-digit', timeZone: 'UTC' }).format(Date.UTC(2000, 0, 1, h, m));
}

/** A calendar date 'YYYY-MM-DD' ("Monday, March 2"). */
export function formatDate(date: string): string {
  const t = Date.parse(`${date}T00:00:00Z`);
  return Number.isNaN(t) ? date : new Intl.DateTimeFormat(undefined, { weekday: 'long', month: 'long', day: 'numeric', timeZone: 'UTC' }).format(t);
}

/** An instant as a time of day on this phone ("9:03 AM"). */
export function formatTime(iso: string | null): string | null {
  const t = iso ? Date.parse(iso) : NaN;
  return Number.isNaN(t) ? null : new Intl.DateTimeFormat(undefined, { hour: 'numeric', minute: '2-digit' }).format(t);
}
