import type { AttendanceRow } from '../../../common/attendance.ts';
import { addDays } from '../../../common/dates.ts';
import { clockMinutesInside } from '../../../common/meeting-rule.ts';
import { schoolInstantIso } from '../../lib/zoned-time.ts';

/** A class meeting's real start and end (ms), from the school's date and clock times. */
export type ClassSpan = { start: number; end: number };

export function classSpan(sessionDate: string, startTime: string, endTime: string, timeZone: string): ClassSpan {
  // A class whose end is not after its start crosses midnight: it ends the next day ('HH:MM' compare as text).
  const endDate = endTime <= startTime ? addDays(sessionDate, 1) : sessionDate;
  return { start: Date.parse(schoolInstantIso(sessionDate, startTime, timeZone)), end: Date.parse(schoolInstantIso(endDate, endTime, timeZone)) };
}

/**
 * While class runs: the minutes a checked-in student has attended so far, and what they will have
 * if they stay to the scheduled end (or what they had, once checked out): the server's own count
 * of clock minutes (common/hours.ts), up to now and up to the end.
 */
export function liveMinutes(row: Pick<AttendanceRow, 'scanInTime' | 'scanOutTime'>, span: ClassSpan, now: number): { soFar: number; projected: number } | null {
  if (!row.scanInTime) return null;
  const arrived = Date.parse(row.scanInTime);
  const left = row.scanOutTime ? Date.parse(row.scanOutTime) : span.end;
  const upTo = (to: number) => clockMinutesInside(arrived, Math.min(to, left), span.start, span.end);
  return { soFar: upTo(now), projected: upTo(span.end) };
}
