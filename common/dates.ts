// Calendar dates as YYYY-MM-DD strings: whole days between two, a date some days on.

// Parsed by hand, not by Date.parse: the compliance reads call these for every student (a tenth of a
// read's time went to parsing date strings).
const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const pad2 = (n: number) => (n < 10 ? `0${n}` : String(n));
const utcMs = (date: string) => Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10)));

/** Whole days from a to b (YYYY-MM-DD), negative when b is earlier. */
export function daysBetween(a: string, b: string): number {
  return Math.round((utcMs(b) - utcMs(a)) / 86_400_000);
}

export function addDays(date: string, days: number): string {
  if (days === 1) return nextDay(date);
  const d = new Date(utcMs(date) + days * 86_400_000);
  return `${String(d.getUTCFullYear()).padStart(4, '0')}-${pad2(d.getUTCMonth() + 1)}-${pad2(d.getUTCDate())}`;
}

/** The day after a YYYY-MM-DD date, without a Date (the ledger's walk calls it for every day). */
export function nextDay(date: string): string {
  const y = Number(date.slice(0, 4));
  const m = Number(date.slice(5, 7));
  const d = Number(date.slice(8, 10));
  const leap = y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);
  const monthDays = m === 2 && leap ? 29 : DAYS_IN_MONTH[m - 1]!;
  if (d < monthDays) return `${date.slice(0, 8)}${pad2(d + 1)}`;
  return m === 12 ? `${String(y + 1).padStart(4, '0')}-01-01` : `${date.slice(0, 5)}${pad2(m + 1)}-01`;
}
