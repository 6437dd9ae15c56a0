import { describe, expect, it } from 'vitest';
import { addDays } from '../../../common/dates.ts';
import { nextDay } from './ledger-walk.ts';

describe('nextDay', () => {
  it('agrees with addDays(date, 1) on every day from 1899 to 2101 (month ends, leap years, 1900 and 2000)', () => {
    let wrong = 0;
    for (let d = '1899-12-25'; d < '2101-01-05'; d = addDays(d, 1)) if (nextDay(d) !== addDays(d, 1)) wrong++;
    expect(wrong).toBe(0);
    expect(nextDay('2024-02-28')).toBe('2024-02-29');
    expect(nextDay('2100-02-28')).toBe('2100-03-01');
    expect(nextDay('2026-12-31')).toBe('2027-01-01');
  });
});
