import { describe, expect, it } from 'vitest';
import { addDays, daysBetween, nextDay } from './dates.ts';

/** What the date helpers must answer, the slow way: through Date.parse and toISOString. */
const reference = (date: string, days: number) => new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

describe('calendar dates', () => {
  it('agree with Date on every day from 1899 to 2101 (month ends, leap years, 1900 and 2000)', () => {
    let wrong = 0;
    let days = 0;
    for (let d = '1899-12-25'; d < '2101-01-05'; d = reference(d, 1), days++) {
      if (nextDay(d) !== reference(d, 1)) wrong++;
      for (const n of [-400, -29, -1, 0, 1, 7, 28, 366]) if (addDays(d, n) !== reference(d, n)) wrong++;
      if (daysBetween('1899-12-25', d) !== days) wrong++;
    }
    expect(wrong).toBe(0);
    expect(nextDay('2024-02-28')).toBe('2024-02-29');
    expect(nextDay('2100-02-28')).toBe('2100-03-01');
    expect(nextDay('2026-12-31')).toBe('2027-01-01');
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
  });
});
