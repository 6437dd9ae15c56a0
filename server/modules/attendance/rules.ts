import type { AttendanceStatus } from '../../../common/constants.ts';
import { clockMinutesInside } from '../../../common/hours.ts';
import { minutesOfDay, zonedInstant } from '../../lib/school-time.ts';

/**
 * The attendance rules of PRODUCT.md as pure functions of instants, so tests hand them exact
 * times (threshold edges, classes crossing midnight, daylight-saving days) without a clock.
 */
export type ClassWindow = { start: Date; end: Date };

/** The real instants of one class meeting: local date + local times in the school's time zone. */
export function classWindow(sessionDate: string, startTime: string, endTime: string, timeZone: string): ClassWindow {
  const startMin = minutesOfDay(startTime);
  let endMin = minutesOfDay(endTime);
  if (endMin <= startMin) endMin += 24 * 60; // the class crosses midnight
  return { start: zonedInstant(sessionDate, startMin, timeZone), end: zonedInstant(sessionDate, endMin, timeZone) };
}

/** Check-in at or before start + lateThreshold is present; later is late. */
export function checkInStatus(scanIn: Date, window: ClassWindow, lateThresholdMinutes: number): 'present' | 'late' {
  return scanIn.getTime() <= window.start.getTime() + lateThresholdMinutes * 60_000 ? 'present' : 'late';
}

/** A check-out earlier than end − earlyLeaveThreshold makes the meeting incomplete. */
export function leftEarly(scanOut: Date, window: ClassWindow, earlyLeaveThresholdMinutes: number): boolean {
  return scanOut.getTime() < window.end.getTime() - earlyLeaveThresholdMinutes * 60_000;
}

/** Whole minutes of [check-in, check-out or class end] that fall inside the class (clock hours). */
export function minutesAttended(scanIn: Date, scanOut: Date | null, window: ClassWindow): number {
  return clockMinutesInside(scanIn.getTime(), (scanOut ?? window.end).getTime(), window.start.getTime(), window.end.getTime());
}

export function scheduledMinutes(window: ClassWindow): number {
  return Math.round((window.end.getTime() - window.start.getTime()) / 60_000);
}

/** Status after a check-out: incomplete when leaving early, otherwise the check-in status stands. */
export function statusAfterCheckOut(current: AttendanceStatus, scanOut: Date, window: ClassWindow, earlyLeaveThresholdMinutes: number): AttendanceStatus {
  if (current !== 'present' && current !== 'late') return current;
  return leftEarly(scanOut, window, earlyLeaveThresholdMinutes) ? 'incomplete' : current;
}

// The meeting rule lives in common/ (the schedules module says it in SQL too; schedules/meetings-agree.test.ts).
export { whyNotAMeeting, type MeetingCalendar } from '../../../common/hours.ts';
