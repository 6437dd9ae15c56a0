import type { AttendanceStatus } from '../../../common/constants.ts';
import type { ScheduleBreak } from '../../../common/schedules.ts';
import { minutesOfDay, zonedInstant } from '../../lib/school-time.ts';
import { coveredMs } from '../../lib/intervals.ts';

/**
 * The attendance rules of PRODUCT.md as pure functions of instants, so tests hand them exact
 * times (threshold edges, classes crossing midnight, daylight-saving days) without a clock.
 */
/** [from, to) in epoch milliseconds. */
export type Interval = readonly [number, number];
/** A meeting's start and end, and its scheduled breaks (not scheduled time; none when absent). */
export type ClassWindow = { start: Date; end: Date; breaks?: readonly Interval[] };

/** The class's start and end in minutes after midnight of its date (a class past midnight ends the next day). */
function classMinutesOfDay(startTime: string, endTime: string): { startMin: number; endMin: number } {
  const startMin = minutesOfDay(startTime);
  let endMin = minutesOfDay(endTime);
  if (endMin <= startMin) endMin += 24 * 60; // the class crosses midnight
  return { startMin, endMin };
}

/**
 * The real instants of one class meeting: local date + local times in the school's time zone, with
 * the schedule's breaks (decision 052) when given: scheduledMinutes and minutesAttended leave them out.
 */
export function classWindow(sessionDate: string, startTime: string, endTime: string, timeZone: string, breaks: readonly ScheduleBreak[] = []): ClassWindow {
  const { startMin, endMin } = classMinutesOfDay(startTime, endTime);
  const window: ClassWindow = { start: zonedInstant(sessionDate, startMin, timeZone), end: zonedInstant(sessionDate, endMin, timeZone) };
  return breaks.length === 0 ? window : { ...window, breaks: scheduledBreakIntervals(sessionDate, startTime, endTime, breaks, timeZone) };
}

/**
 * A schedule's breaks ('HH:MM' in school time) as instants of the meeting on `date`, in order, each
 * cut to the class. A break time before the class start is on the next day (a class past midnight),
 * as server/db/meeting-rule.ts classMinutes places it.
 */
export function scheduledBreakIntervals(
  date: string,
  startTime: string,
  endTime: string,
  breaks: readonly ScheduleBreak[],
  timeZone: string,
): [number, number][] {
  const { startMin, endMin } = classMinutesOfDay(startTime, endTime);
  const sinceStart = (time: string) => (minutesOfDay(time) - startMin + 1440) % 1440;
  const out: [number, number][] = [];
  for (const b of breaks) {
    const from = startMin + sinceStart(b.start);
    const to = Math.min(from + ((minutesOfDay(b.end) - minutesOfDay(b.start) + 1440) % 1440), endMin);
    if (to > from) out.push([zonedInstant(date, from, timeZone).getTime(), zonedInstant(date, to, timeZone).getTime()]);
  }
  return out.sort((a, b) => a[0] - b[0]);
}

/** Check-in at or before start + lateThreshold is present; later is late. */
export function checkInStatus(scanIn: Date, window: ClassWindow, lateThresholdMinutes: number): 'present' | 'late' {
  return scanIn.getTime() <= window.start.getTime() + lateThresholdMinutes * 60_000 ? 'present' : 'late';
}

/** A check-out earlier than end − earlyLeaveThreshold makes the meeting incomplete. */
export function leftEarly(scanOut: Date, window: ClassWindow, earlyLeaveThresholdMinutes: number): boolean {
  return scanOut.getTime() < window.end.getTime() - earlyLeaveThresholdMinutes * 60_000;
}

/** Whole minutes of [check-in, check-out or class end] that fall inside the class and outside its scheduled breaks (clock hours). */
export function minutesAttended(scanIn: Date, scanOut: Date | null, window: ClassWindow): number {
  const from = Math.max(scanIn.getTime(), window.start.getTime());
  const to = Math.min((scanOut ?? window.end).getTime(), window.end.getTime());
  if (to <= from) return 0;
  return Math.floor((to - from - coveredMs(from, to, window.breaks ?? [])) / 60_000);
}

/**
 * A meeting's scheduled minutes: the class less its scheduled breaks (the window's) and any
 * instructor-led breaks (meeting_breaks, started to ended), a minute in two breaks counted once.
 * The one home of a class's length; server/db/meeting-rule.ts classMinutes says it in SQL.
 */
export function scheduledMinutes(window: ClassWindow, instructorBreaks: readonly Interval[] = []): number {
  const start = window.start.getTime();
  const end = window.end.getTime();
  return Math.round((end - start - coveredMs(start, end, [...(window.breaks ?? []), ...instructorBreaks])) / 60_000);
}

/** Status after a check-out: incomplete when leaving early, otherwise the check-in status stands. */
export function statusAfterCheckOut(current: AttendanceStatus, scanOut: Date, window: ClassWindow, earlyLeaveThresholdMinutes: number): AttendanceStatus {
  if (current !== 'present' && current !== 'late') return current;
  return leftEarly(scanOut, window, earlyLeaveThresholdMinutes) ? 'incomplete' : current;
}

// The meeting rule lives in common/ (the schedules module says it in SQL too; schedules/meetings-agree.test.ts).
export { whyNotAMeeting, type MeetingCalendar } from '../../../common/meeting-rule.ts';
