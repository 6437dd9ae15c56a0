import { describe, expect, it } from 'vitest';
import { formatClock, formatCount, formatCountdown, formatDate, formatHm, formatHours, formatLocalTime, formatPercent, formatTimeLeft } from './format.ts';

describe('time and count formatting (one home for the admin screens)', () => {
  it('writes countdowns as mm:ss, minutes past 59 included, and Expired at zero', () => {
    expect(formatCountdown(61_000)).toBe('01:01');
    expect(formatCountdown(3_700_000)).toBe('61:40');
    expect(formatCountdown(-5)).toBe('00:00');
    expect(formatTimeLeft(1)).toBe('00:01');
    expect(formatTimeLeft(0)).toBe('Expired');
  });

  it('formats wall times and calendar dates without a time-zone shift', () => {
    const clock = new Intl.DateTimeFormat(undefined, { hour: 'numeric', minute: '2-digit', timeZone: 'UTC' });
    expect(formatClock('13:30')).toBe(clock.format(Date.UTC(2000, 0, 1, 13, 30)));
    expect(formatClock('soon')).toBe('soon');
    expect(formatDate('2025-01-06', 'medium')).toBe('Jan 6, 2025');
    expect(formatDate('not a date')).toBe('not a date');
  });

  it('leaves an unreadable instant unformatted and counts with separators', () => {
    expect(formatLocalTime(null)).toBeNull();
    expect(formatLocalTime('never')).toBeNull();
    expect(formatCount(1234567)).toBe('1,234,567');
  });

  it('writes ledger minutes exactly as h:mm, contract hours and percentages to one decimal', () => {
    expect(formatHm(0)).toBe('0:00');
    expect(formatHm(59)).toBe('0:59');
    expect(formatHm(61)).toBe('1:01');
    expect(formatHm(27_000)).toBe('450:00');
    expect(formatHm(74_045)).toBe('1,234:05');
    expect(formatHours(449.95)).toBe('450');
    expect(formatHours(12.25)).toBe('12.3');
    expect(formatPercent(87.25)).toBe('87.3%');
    expect(formatPercent(null)).toBe('—');
  });
});
