import type { BreakPunch } from '../../../common/attendance.ts';
import type { StoredBreak } from './check-in-queries.ts';
import { minutesAttended, type ClassWindow } from './rules.ts';

/**
 * Several punches per meeting (docs/decisions/051) as pure functions: what a record's
 * breaks take from its minutes, and when a student coming back from a break is credited from.
 */

type BreakTimes = { startedAt: Date | string; endedAt: Date | string | null };

const ms = (v: Date | string) => (typeof v === 'string' ? Date.parse(v) : v.getTime());

/** A break as the API and the pages show it. */
export const breakPunch = (b: Pick<StoredBreak, 'kind' | 'startedAt' | 'endedAt'>): BreakPunch => ({
  kind: b.kind,
  startedAt: b.startedAt.toISOString(),
  endedAt: b.endedAt?.toISOString() ?? null,
});

export const isOnBreak = (breaks: readonly { endedAt: unknown }[]): boolean => breaks.some((b) => b.endedAt == null);

/**
 * Whole minutes of the punch pairs inside the class ([in, b1.start], [b1.end, b2.start] … [bn.end,
 * out or class end]; after a break never ended, nothing): the check-in's minutes (rules.ts
 * minutesAttended) with the student's breaks left out as the schedule's breaks are.
 */
export function minutesWithBreaks(scanIn: Date, scanOut: Date | null, breaks: readonly BreakTimes[], window: ClassWindow): number {
  if (breaks.length === 0) return minutesAttended(scanIn, scanOut, window);
  // A break never ended: away from its start on.
  const away = breaks.map((b) => [ms(b.startedAt), b.endedAt == null ? Infinity : ms(b.endedAt)] as const);
  return minutesAttended(scanIn, scanOut, { ...window, breaks: [...(window.breaks ?? []), ...away] });
}

/**
 * When a student coming back ends their open break. From an instructor's break that has ended, while
 * its re-check-in window is open: the break's end (the window is grace, not time away). Otherwise: now.
 */
export function breakEndsAt(open: StoredBreak, now: Date): Date {
  const { meetingBreakEndedAt: ended, recheckUntil } = open;
  if (open.kind === 'instructor' && ended && recheckUntil && now.getTime() <= recheckUntil.getTime()) {
    return ended.getTime() > open.startedAt.getTime() ? ended : open.startedAt;
  }
  return now;
}
