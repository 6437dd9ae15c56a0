import { addDays } from '../../../common/dates.ts';
import { formatDate } from '../../lib/format.ts';

/** A month as 'YYYY-MM'. */
export type Month = string;

export const monthOf = (date: string): Month => date.slice(0, 7);

export function shiftMonth(month: Month, by: number): Month {
  const [y, m] = month.split('-').map(Number) as [number, number];
  const d = new Date(Date.UTC(y, m - 1 + by, 1));
  return d.toISOString().slice(0, 7);
}

const monthFormat = new Intl.DateTimeFormat('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' });
export const monthLabel = (month: Month) => monthFormat.format(Date.parse(`${month}-01T00:00:00Z`));

/** The month's weeks, Sunday first; null pads the days of the neighbouring months. */
export function monthWeeks(month: Month): (string | null)[][] {
  const first = `${month}-01`;
  const lead = new Date(`${first}T00:00:00Z`).getUTCDay();
  const days: (string | null)[] = Array.from({ length: lead }, () => null);
  for (let d = first; monthOf(d) === month; d = addDays(d, 1)) days.push(d);
  while (days.length % 7) days.push(null);
  const weeks: (string | null)[][] = [];
  for (let i = 0; i < days.length; i += 7) weeks.push(days.slice(i, i + 7));
  return weeks;
}

/** "Nov 26, 2026" or "Nov 26, 2026 – Nov 27, 2026". */
export const dateRange = (start: string, end: string) =>
  start === end ? formatDate(start, 'medium') : `${formatDate(start, 'medium')} – ${formatDate(end, 'medium')}`;
