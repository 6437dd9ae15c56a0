// Calendar helpers on 'YYYY-MM-DD' strings (school-local dates) and school-local clock times.

const DAY_MS = 86_400_000;

function parseDate(date: string): { y: number; m: number; d: number } {
  const [y, m, d] = date.split('-').map(Number);
  return { y: y!, m: m!, d: d! };
}

function utcMidnight(date: string): number {
  const { y, m, d } = parseDate(date);
  return Date.UTC(y, m - 1, d);
}

export function addDays(date: string, days: number): string {
  return new Date(utcMidnight(date) + days * DAY_MS).toISOString().slice(0, 10);
}

/** 0 = Sunday … 6 = Saturday, as schedules.day_of_week. */
export function dayOfWeek(date: string): number {
  return new Date(utcMidnight(date)).getUTCDay();
}

/** The Monday on or before `date`. */
export function mondayOnOrBefore(date: string): string {
  return addDays(date, -((dayOfWeek(date) + 6) % 7));
}

/** 'HH:MM' → minutes after midnight. */
export function minutesOfDay(time: string): number {
  const [h, m] = time.split(':').map(Number);
  return h! * 60 + m!;
}

const formatters = new Map<string, Intl.DateTimeFormat>();
function partsIn(instant: number, timeZone: string): Record<string, number> {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, f);
  }
  const out: Record<string, number> = {};
  for (const p of f.formatToParts(new Date(instant))) if (p.type !== 'literal') out[p.type] = Number(p.value);
  return out;
}

/** The school-local calendar date of an instant. */
export function localDate(instant: Date, timeZone: string): string {
  const p = partsIn(instant.getTime(), timeZone);
  return `${String(p.year).padStart(4, '0')}-${String(p.month).padStart(2, '0')}-${String(p.day).padStart(2, '0')}`;
}

/** The school-local time of day of an instant, HH:MM. */
export function localTimeOfDay(instant: Date, timeZone: string): string {
  const p = partsIn(instant.getTime(), timeZone);
  return `${String(p.hour).padStart(2, '0')}:${String(p.minute).padStart(2, '0')}`;
}

function offsetMs(instant: number, timeZone: string): number {
  const p = partsIn(instant, timeZone);
  const asUtc = Date.UTC(p.year!, p.month! - 1, p.day!, p.hour!, p.minute!, p.second!);
  return asUtc - Math.floor(instant / 1000) * 1000;
}

/** The instant at which the school's clock shows `minutes` after midnight of `date` (minutes may exceed a day). */
export function zonedInstant(date: string, minutes: number, timeZone: string): Date {
  const wall = utcMidnight(date) + minutes * 60_000;
  // Two passes settle the offset on either side of a DST change.
  let t = wall - offsetMs(wall, timeZone);
  t = wall - offsetMs(t, timeZone);
  return new Date(t);
}

/** The zone this server runs in (TZ, else the system's), the school's default until someone chooses. */
export function serverTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

/**
 * An instant as the school's wall-clock time with its UTC offset, ISO 8601
 * ('2026-11-26T08:02:00-06:00'): what files for people and spreadsheets carry, so a time reads as
 * the school's and still names one instant.
 */
export function zonedIso(instant: Date, timeZone: string): string {
  const p = partsIn(instant.getTime(), timeZone);
  const two = (n: number | undefined) => String(n).padStart(2, '0');
  const offset = Math.round(offsetMs(instant.getTime(), timeZone) / 60_000);
  const sign = offset < 0 ? '-' : '+';
  const abs = Math.abs(offset);
  return `${String(p.year).padStart(4, '0')}-${two(p.month)}-${two(p.day)}T${two(p.hour)}:${two(p.minute)}:${two(p.second)}${sign}${two(Math.floor(abs / 60))}:${two(abs % 60)}`;
}
