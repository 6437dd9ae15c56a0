import { describe, expect, it } from 'vitest';
import { monthLabel, monthWeeks, shiftMonth } from './calendar-dates.ts';

describe('month view dates', () => {
  it('lays a month out in Sunday-first weeks, padded with null', () => {
    // November 2026 starts on a Sunday and has 30 days: five weeks, the last padded to Saturday.
    const nov = monthWeeks('2026-11');
    expect(nov).toHaveLength(5);
    expect(nov[0]).toEqual(['2026-11-01', '2026-11-02', '2026-11-03', '2026-11-04', '2026-11-05', '2026-11-06', '2026-11-07']);
    expect(nov[4]).toEqual(['2026-11-29', '2026-11-30', null, null, null, null, null]);
    // February 2026 starts on a Sunday: exactly four full weeks.
    expect(monthWeeks('2026-02')).toHaveLength(4);
    expect(monthWeeks('2026-02').flat().filter(Boolean)).toHaveLength(28);
    // A leap February starting on a Thursday (2024).
    const feb = monthWeeks('2024-02');
    expect(feb[0]).toEqual([null, null, null, null, '2024-02-01', '2024-02-02', '2024-02-03']);
    expect(feb.flat().filter(Boolean).at(-1)).toBe('2024-02-29');
  });

  it('moves across year ends and names the month', () => {
    expect(shiftMonth('2026-12', 1)).toBe('2027-01');
    expect(shiftMonth('2026-01', -1)).toBe('2025-12');
    expect(monthLabel('2026-11')).toBe('November 2026');
  });
});
