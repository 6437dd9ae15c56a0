// The meeting rule (on which dates a schedule meets) and the one count of minutes inside a class.
import { DAY_NAMES } from './schedules.ts';

/**
 * Clock minutes: whole minutes of [arrived, left] (instants in ms) that fall inside the class
 * [start, end]. The one count of attended minutes, for the server's records and the roster's
 * "so far / projected" alike.
 */
export function clockMinutesInside(arrived: number, left: number, start: number, end: number): number {
  return Math.max(0, Math.floor((Math.min(left, end) - Math.max(arrived, start)) / 60_000));
}

export type MeetingCalendar = {
  courseStartDate: string;
  courseEndDate: string;
  /** 0 = Sunday … 6 = Saturday. */
  dayOfWeek: number;
  holidayExceptions: string[];
  makeupDates: string[];
};

export type NotAMeeting = 'outside_dates' | 'other_weekday' | 'holiday';

/**
 * The meeting rule: why a school-local date is not a meeting of the schedule, or null when it is
 * one. A make-up date is always a meeting; otherwise the date must fall within the course dates, on
 * the schedule's day of the week, and not on one of its holidays.
 */
export function notAMeeting(date: string, c: MeetingCalendar): NotAMeeting | null {
  if (c.makeupDates.includes(date)) return null;
  if (date < c.courseStartDate || date > c.courseEndDate) return 'outside_dates';
  if (new Date(`${date}T00:00:00Z`).getUTCDay() !== c.dayOfWeek) return 'other_weekday';
  if (c.holidayExceptions.includes(date)) return 'holiday';
  return null;
}

/** notAMeeting in words, naming the date (manual records, the ledger). */
export function whyNotAMeeting(date: string, c: MeetingCalendar): string | null {
  switch (notAMeeting(date, c)) {
    case null:
      return null;
    case 'outside_dates':
      return `The class runs from ${c.courseStartDate} to ${c.courseEndDate}; ${date} is outside those dates`;
    case 'other_weekday':
      return `The class meets on ${DAY_NAMES[c.dayOfWeek]}s; ${date} is a ${DAY_NAMES[new Date(`${date}T00:00:00Z`).getUTCDay()]}`;
    case 'holiday':
      return `${date} is a holiday for this class: it does not meet that day`;
  }
}
