import type { AttendanceRow } from '../../../common/attendance.ts';
import { addDays } from '../../../common/hours.ts';
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
 * if they stay to the scheduled end (or what they had, once checked out). Counted as the server
 * counts clock hours: the part of [check-in, check-out or end] inside the class, whole minutes.
 */
export function liveMinutes(row: Pick<AttendanceRow, 'scanInTime' | 'scanOutTime'>, span: ClassSpan, now: number): { soFar: number; projected: number } | null {
  if (!row.scanInTime) return null;
  const from = Math.max(Date.parse(row.scanInTime), span.start);
  const left = row.scanOutTime ? Date.parse(row.scanOutTime) : span.end;
  const upTo = (to: number) => Math.max(0, Math.floor((Math.min(to, left, span.end) - from) / 60_000));
  return { soFar: upTo(now), projected: upTo(span.end) };
}
