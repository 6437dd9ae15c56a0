import type { LedgerDay, PaymentPeriodProgress } from '../../../common/hours.ts';
import { addDays, daysBetween } from '../../../common/dates.ts';
import { timeClockChanged } from '../../components/time-clock-lines.ts';

/**
 * What the student page derives from the ledger for display: minutes as h:mm, the month grid of
 * the attendance calendar, each day's reading, and the projected completion of a payment period.
 * Pure, so it is tested without a browser.
 */

/** 'YYYY-MM' of a 'YYYY-MM-DD'. */
export const monthOf = (date: string): string => date.slice(0, 7);

export function shiftMonth(month: string, delta: number): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  const d = new Date(Date.UTC(y, m - 1 + delta, 1));
  return d.toISOString().slice(0, 7);
}

/** First and last day of a month. */
export function monthRange(month: string): { from: string; to: string } {
  const from = `${month}-01`;
  return { from, to: addDays(`${shiftMonth(month, 1)}-01`, -1) };
}

const monthFormat = new Intl.DateTimeFormat('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' });
export const monthLabel = (month: string): string => monthFormat.format(Date.parse(`${month}-01T00:00:00Z`));

/** The month as weeks of seven days, Sunday first; null pads the days of the months around it. */
export function monthWeeks(month: string): (string | null)[][] {
  const { from, to } = monthRange(month);
  const lead = new Date(`${from}T00:00:00Z`).getUTCDay();
  const cells: (string | null)[] = Array.from({ length: lead }, () => null);
  for (let d = from; d <= to; d = addDays(d, 1)) cells.push(d);
  while (cells.length % 7) cells.push(null);
  const weeks: (string | null)[][] = [];
  for (let i = 0; i < cells.length; i += 7) weeks.push(cells.slice(i, i + 7));
  return weeks;
}

export type DayKind = 'outside' | 'closed' | 'leave' | 'no-class' | 'present' | 'partial' | 'excused' | 'absent' | 'make-up' | 'in-progress' | 'unrecorded';

/** How the calendar reads a day: a word and a one-letter code besides the colour (WCAG 1.4.1). */
export const DAY_KINDS: Record<DayKind, { label: string; code: string }> = {
  outside: { label: 'Not in the ledger', code: '' },
  closed: { label: 'School closed', code: 'C' },
  leave: { label: 'Leave of absence', code: 'L' },
  'no-class': { label: 'No class', code: '' },
  present: { label: 'Attended in full', code: 'P' },
  partial: { label: 'Partly attended', code: 'Pt' },
  excused: { label: 'Excused', code: 'E' },
  absent: { label: 'Absent', code: 'A' },
  'make-up': { label: 'Make-up only', code: 'M' },
  'in-progress': { label: 'Class not over yet', code: '…' },
  unrecorded: { label: 'No attendance taken', code: '?' },
};

/**
 * One day of the calendar. A day the ledger does not cover (before enrolment, after the as-of
 * date) is `outside`; a closure or a day of approved leave is never an absence; an unscheduled
 * day is `no-class` unless make-up time was spent on it.
 * Scheduled days: attended in full, or the missing part excused, or partly attended (make-up on
 * the day counts), else absent.
 */
export function dayKind(day: LedgerDay | undefined): DayKind {
  if (!day) return 'outside';
  const { scheduledMinutes: sched, attendedMinutes: att, excusedMinutes: exc, makeUpMinutes: mk } = day;
  if (day.closed && sched <= 0 && att <= 0 && mk <= 0) return 'closed';
  if (day.onLeave && sched <= 0 && att <= 0 && mk <= 0) return 'leave';
  // Today, while a class is still to come or running: nothing is counted for it yet.
  if (day.pendingMinutes > 0) return 'in-progress';
  // A class nobody took attendance at: for the instructor to review, not an absence.
  if (sched <= 0 && att <= 0 && mk <= 0 && day.unrecordedMinutes > 0) return 'unrecorded';
  if (sched <= 0) return mk > 0 ? 'make-up' : att > 0 ? 'present' : 'no-class';
  if (att >= sched) return 'present';
  if (exc > 0 && att + exc >= sched) return 'excused';
  if (att > 0 || mk > 0) return 'partial';
  return exc > 0 ? 'excused' : 'absent';
}

/** The number of recent days the projection's pace is taken from. */
export const PACE_DAYS = 28;

/** Recent pace: credited minutes per calendar day over the last PACE_DAYS days up to `asOf`. */
export function recentPace(days: readonly LedgerDay[], asOf: string): number {
  const first = addDays(asOf, -(PACE_DAYS - 1));
  let minutes = 0;
  for (const d of days) if (d.date >= first && d.date <= asOf) minutes += d.creditedMinutes;
  return minutes / PACE_DAYS;
}

/** Minutes a payment period needs from its start to its end. */
export const periodMinutes = (p: Pick<PaymentPeriodProgress, 'startHours' | 'endHours'>): number => Math.round((p.endHours - p.startHours) * 60);

/**
 * When an unfinished period should be completed at the recent pace: the day its hours are reached,
 * but not before its weeks have elapsed (COMPLIANCE.md: both are needed). Null without a pace.
 */
export function projectedCompletion(period: PaymentPeriodProgress, pacePerDay: number, asOf: string): string | null {
  if (period.status === 'completed') return null;
  const remaining = Math.max(0, periodMinutes(period) - period.creditedMinutes);
  let byHours: string;
  if (remaining === 0) byHours = asOf;
  else if (pacePerDay > 0) byHours = addDays(asOf, Math.ceil(remaining / pacePerDay));
  else return null;
  const weeksEnd = period.weeksEndOn;
  return weeksEnd && daysBetween(byHours, weeksEnd) > 0 ? weeksEnd : byHours;
}

/** The days on which the time-clock rules changed the minutes (a rounded punch, a deduction, a cap, a missing check-out). */
export function timeClockDays(days: readonly LedgerDay[]): LedgerDay[] {
  return days.filter(timeClockChanged);
}
