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

export type MeetingCalendar = {
  courseStartDate: string;
  courseEndDate: string;
  /** 0 = Sunday … 6 = Saturday. */
  dayOfWeek: number;
  holidayExceptions: string[];
  makeupDates: string[];
};

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const;

/**
 * Why a school-local date is not a meeting of the schedule, or null when it is one: a make-up date
 * is always a meeting; otherwise the date must fall within the course dates, on the schedule's day of
 * the week, and not on one of its holidays.
 */
export function whyNotAMeeting(date: string, c: MeetingCalendar): string | null {
  if (c.makeupDates.includes(date)) return null;
  if (date < c.courseStartDate || date > c.courseEndDate) return `The class runs from ${c.courseStartDate} to ${c.courseEndDate}; ${date} is outside those dates`;
  const weekday = new Date(`${date}T00:00:00Z`).getUTCDay();
  if (weekday !== c.dayOfWeek) return `The class meets on ${WEEKDAYS[c.dayOfWeek]}s; ${date} is a ${WEEKDAYS[weekday]}`;
  if (c.holidayExceptions.includes(date)) return `${date} is a holiday for this class: it does not meet that day`;
  return null;
}
