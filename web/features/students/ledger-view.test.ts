import { describe, expect, it } from 'vitest';
import type { LedgerDay, PaymentPeriodProgress } from '../../../common/hours.ts';
import { sumTimeClock, timeClockLinesShown } from '../../components/time-clock-lines.ts';
import { dayKind, monthRange, monthWeeks, projectedCompletion, recentPace, shiftMonth, timeClockDays } from './ledger-view.ts';

const day = (
  date: string,
  scheduledMinutes: number,
  attendedMinutes: number,
  excusedMinutes = 0,
  makeUpMinutes = 0,
  creditedMinutes = attendedMinutes + makeUpMinutes + excusedMinutes,
): LedgerDay => ({
  date,
  scheduledMinutes,
  attendedMinutes,
  excusedMinutes,
  makeUpMinutes,
  creditedMinutes,
  pendingMinutes: 0,
  unrecordedMinutes: 0,
  rawMinutes: attendedMinutes,
  roundedMinutes: attendedMinutes,
  deductedMinutes: 0,
  cappedMinutes: 0,
  pendingExceptionMinutes: 0,
  autoCheckOutMinutes: 0,
  closed: false,
  onLeave: false,
});

const period = (over: Partial<PaymentPeriodProgress> = {}): PaymentPeriodProgress => ({
  number: 1,
  startHours: 0,
  endHours: 450,
  weeks: 15,
  creditedMinutes: 0,
  excusedCreditedMinutes: 0,
  excusedCapMinutes: 2700,
  status: 'in_progress',
  completedOn: null,
  startedOn: '2026-01-05',
  weeksEndOn: '2026-04-20',
  hoursRemaining: 450,
  ...over,
});

describe('ledger view', () => {
  it('lays out a month Sunday first, with its neighbours blank', () => {
    // March 2026 starts on a Sunday and has 31 days: five weeks, the last four days padded.
    const weeks = monthWeeks('2026-03');
    expect(weeks).toHaveLength(5);
    expect(weeks[0]![0]).toBe('2026-03-01');
    expect(weeks[4]).toEqual(['2026-03-29', '2026-03-30', '2026-03-31', null, null, null, null]);
    // February 2026 starts on a Sunday too and fills exactly four weeks.
    expect(monthWeeks('2026-02')).toHaveLength(4);
    // May 2026 starts on a Friday.
    expect(monthWeeks('2026-05')[0]).toEqual([null, null, null, null, null, '2026-05-01', '2026-05-02']);
    expect(monthRange('2024-02')).toEqual({ from: '2024-02-01', to: '2024-02-29' });
    expect(shiftMonth('2026-01', -1)).toBe('2025-12');
    expect(shiftMonth('2025-12', 1)).toBe('2026-01');
  });

  it('reads each day as a kind, not only a colour', () => {
    expect(dayKind(undefined)).toBe('outside');
    expect(dayKind(day('2026-03-02', 0, 0))).toBe('no-class');
    expect(dayKind({ ...day('2026-03-02', 0, 0), closed: true })).toBe('closed');
    expect(dayKind({ ...day('2026-03-02', 0, 0), onLeave: true })).toBe('leave');
    expect(dayKind(day('2026-03-02', 0, 0, 0, 60))).toBe('make-up');
    expect(dayKind(day('2026-03-02', 240, 240))).toBe('present');
    expect(dayKind(day('2026-03-02', 240, 200))).toBe('partial');
    expect(dayKind(day('2026-03-02', 240, 0, 0, 30))).toBe('partial');
    expect(dayKind(day('2026-03-02', 240, 0, 240))).toBe('excused');
    expect(dayKind(day('2026-03-02', 240, 120, 120))).toBe('excused');
    expect(dayKind(day('2026-03-02', 240, 0))).toBe('absent');
  });

  it('projects completion from the last 28 days, not before the weeks elapse', () => {
    // The last day's excused minutes went past the cap: only its attended minutes were credited.
    const days = [day('2026-02-01', 240, 240), day('2026-02-02', 240, 240, 0, 60), day('2026-03-01', 480, 240, 240, 0, 240)];
    // 2026-02-02 .. 2026-03-01 is the window: 300 + 240 = 540 credited minutes.
    expect(recentPace(days, '2026-03-01')).toBe(540 / 28);
    // 27,000 − 26,460 = 540 minutes left at 20 a day: 27 days → 2026-03-28, before the weeks end.
    expect(projectedCompletion(period({ creditedMinutes: 26_460 }), 20, '2026-03-01')).toBe('2026-04-20');
    expect(projectedCompletion(period({ creditedMinutes: 26_460, weeksEndOn: '2026-03-10' }), 20, '2026-03-01')).toBe('2026-03-28');
    expect(projectedCompletion(period({ creditedMinutes: 27_000, weeksEndOn: '2026-02-01' }), 0, '2026-03-01')).toBe('2026-03-01');
    expect(projectedCompletion(period(), 0, '2026-03-01')).toBeNull();
    expect(projectedCompletion(period({ status: 'completed', completedOn: '2026-02-01' }), 20, '2026-03-01')).toBeNull();
  });

  it('shows the time-clock lines only where the rules changed something, and only the lines that are not zero', () => {
    // A paper-sheet day (raw = rounded), a rounded punch, a meal deduction with a cap, a missing check-out.
    const plain = day('2026-04-06', 240, 240);
    const rounded = { ...day('2026-04-07', 240, 240), rawMinutes: 232 };
    const capped = { ...day('2026-04-08', 660, 600), rawMinutes: 660, roundedMinutes: 660, deductedMinutes: 30, cappedMinutes: 30 };
    const missing = { ...day('2026-04-09', 240, 0), rawMinutes: 0, roundedMinutes: 0, pendingExceptionMinutes: 230 };
    expect(timeClockDays([plain, rounded, capped, missing]).map((d) => d.date)).toEqual(['2026-04-07', '2026-04-08', '2026-04-09']);
    expect(timeClockLinesShown([plain])).toEqual([]);
    expect(timeClockLinesShown([plain, rounded]).map((l) => l.label)).toEqual(['Punched', 'Rounded']);
    expect(timeClockLinesShown([rounded, capped, missing]).map((l) => l.label)).toEqual([
      'Punched',
      'Rounded',
      'Meal deduction',
      'Over the cap',
      'Pending an exception',
    ]);
    // The sums keep attended = rounded − deducted − capped.
    const total = sumTimeClock([rounded, capped, missing]);
    expect(total).toEqual({
      rawMinutes: 892,
      roundedMinutes: 900,
      deductedMinutes: 30,
      cappedMinutes: 30,
      pendingExceptionMinutes: 230,
      autoCheckOutMinutes: 0,
      attendedMinutes: 840,
    });
    expect(total.attendedMinutes).toBe(total.roundedMinutes - total.deductedMinutes - total.cappedMinutes);
  });
});
