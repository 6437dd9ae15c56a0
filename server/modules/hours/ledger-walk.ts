// The ledger's walk over the days: where it starts, the next day, and a meeting's record into the day's time.
import { punchPairs } from '../../../common/attendance.ts';
import { addDays } from '../../../common/dates.ts';
import type { TimeClockRules } from '../../../common/time-clock.ts';
import { whyNotAMeeting, type ClassWindow } from '../attendance/service.ts';
import type { LedgerInput, LedgerRecord, LedgerSchedule } from './ledger-types.ts';
import { meetingTime, without, type Interval } from './time-clock.ts';

/** A day's minutes as the time-clock rules count them, gathered meeting by meeting. */
export type DayTime = { raw: Interval[]; credited: Interval[]; pendingExceptionMinutes: number; autoCheckOutMinutes: number };

/**
 * A meeting's record into the day's time. Punched records go through the time-clock rules, one
 * pair per stretch between breaks. Recorded by staff without times: present/late credit the
 * meeting, incomplete the minutes given, as recorded (no punch to round or to miss). `cuts` are the
 * meeting's breaks, never class time.
 */
export function addRecordTime(r: LedgerRecord, w: ClassWindow, cuts: readonly Interval[], rules: TimeClockRules, day: DayTime): void {
  if (r.status === 'absent' || r.status === 'excused') return;
  const start = w.start.getTime();
  const end = w.end.getTime();
  if (r.scanInTime) {
    const m = meetingTime(punchPairs(r.scanInTime.getTime(), r.scanOutTime?.getTime() ?? null, r.breaks ?? []), start, end, rules, cuts);
    day.raw.push(...m.raw);
    day.credited.push(...m.credited);
    day.pendingExceptionMinutes += m.pendingExceptionMinutes;
    day.autoCheckOutMinutes += m.autoCheckOutMinutes;
    return;
  }
  let interval: Interval | null = [start, end];
  if (r.status === 'incomplete') {
    const minutes = Math.max(0, r.minutesAttended ?? 0);
    interval = minutes > 0 ? [start, Math.min(end, start + minutes * 60_000)] : null;
  }
  if (interval) {
    const inClass = without([interval], cuts);
    day.raw.push(...inClass);
    day.credited.push(...inClass);
  }
}

/** The first date from which any rostered schedule meets, on or after its earliest date; null if none. */
export function firstMeeting(schedules: LedgerSchedule[], closed: ReadonlySet<string>): string | null {
  let best: string | null = null;
  for (const s of schedules) {
    if (!s.onRoster) continue;
    const candidates = [...s.makeupDates];
    // The first regular meeting: the first matching weekday on or after the course start.
    for (let d = s.courseStartDate, i = 0; d <= s.courseEndDate && i < 400; d = addDays(d, 1), i++) {
      if (!closed.has(d) && whyNotAMeeting(d, s) === null) {
        candidates.push(d);
        break;
      }
    }
    for (const d of candidates) if (!closed.has(d) && (best == null || d < best)) best = d;
  }
  return best;
}

/**
 * The first day from `startDate` on that anything can be on: a rostered schedule's first date, a
 * record or a make-up; null when there is none. Days before it are empty, so the walk starts
 * there: an enrolment date decades before any class must not cost a day per day (decision 038).
 */
export function firstActiveDay(startDate: string, input: LedgerInput): string | null {
  const dates: string[] = [];
  for (const s of input.schedules) if (s.onRoster) dates.push(s.courseStartDate, ...s.makeupDates);
  for (const r of input.records) dates.push(r.sessionDate);
  for (const m of input.makeUps) dates.push(m.date);
  if (dates.length === 0) return null;
  const first = dates.reduce((a, b) => (b < a ? b : a));
  return first < startDate ? startDate : first;
}
