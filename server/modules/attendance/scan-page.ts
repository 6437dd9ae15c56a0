// What the scan page asks of attendance: the device's check-in, whether to offer lunch punches, a check-out's preview.
import { offersLunchPunches, type BreakPunch } from '../../../common/attendance.ts';
import { isAttendedStatus } from '../../../common/constants.ts';
import type { ScheduleBreak } from '../../../common/schedules.ts';
import type { Settings } from '../../../common/settings.ts';
import type { DbOrTx } from '../../db/client.ts';
import { timeClockVersions } from '../programs/service.ts';
import { isSessionUuid } from '../qr-sessions/service.ts';
import { breakPunch, minutesWithBreaks } from './punches.ts';
import { deviceMeetingRecord, sessionMeetingProgram, type DeviceRecord } from './queries.ts';
import { classWindow, leftEarly, scheduledMinutes } from './rules.ts';

/** A scanned check-in of this device's student at a session's meeting, for the scan page to say what a Check out will do. */
export type DeviceStanding = Pick<DeviceRecord, 'student' | 'status' | 'minutesAttended'> & {
  scanInTime: Date;
  scanOutTime: Date | null;
  breaks: BreakPunch[];
};

/**
 * What the device of a phone opening a session's scan page has checked in at its meeting (docs/decisions/039):
 * the student and the check-in, or null when it checked nobody in, or when the record is an
 * instructor's (an override, absent, excused: a scan changes nothing there, the form answers).
 */
export async function deviceStanding(db: DbOrTx, sessionUuid: string, deviceId: string): Promise<DeviceStanding | null> {
  if (!isSessionUuid(sessionUuid)) return null;
  const record = await deviceMeetingRecord(db, sessionUuid, deviceId);
  if (!record?.scanInTime || record.isManualOverride || !isAttendedStatus(record.status)) return null;
  return {
    student: record.student,
    status: record.status,
    minutesAttended: record.minutesAttended,
    scanInTime: record.scanInTime,
    scanOutTime: record.scanOutTime,
    breaks: record.breaks.map(breakPunch),
  };
}

/**
 * Whether the scan page of a session offers Lunch out / Lunch in (offersLunchPunches): by the meal
 * rule of the course's program in force on the meeting's date. A program without rules of its own
 * has the new-program defaults (no meal rule), and so has a course without a program.
 */
export async function lunchPunchesOffered(db: DbOrTx, sessionUuid: string, timeZone: string): Promise<boolean> {
  const meeting = isSessionUuid(sessionUuid) ? await sessionMeetingProgram(db, sessionUuid) : undefined;
  if (!meeting) return false;
  let mealDeduction: { afterMinutes: number } | null = null;
  if (meeting.programId != null) {
    // Versions in date order, one from the beginning first: the last dated on or before the meeting is in force.
    for (const v of await timeClockVersions(db, meeting.programId))
      if (v.effectiveFrom == null || v.effectiveFrom <= meeting.sessionDate) mealDeduction = v.mealDeduction;
  }
  // The class from start to end, its scheduled breaks included: a meal is due that long after arriving.
  return offersLunchPunches(scheduledMinutes(classWindow(meeting.sessionDate, meeting.startTime, meeting.endTime, timeZone)), mealDeduction);
}

type CheckOutPreview = {
  /** The end of class, an instant. */
  classEndsAt: Date;
  /** What a check-out now records: the same minutes rule the check-out uses. */
  minutesIfNow: number;
  scheduledMinutes: number;
  /** Earlier than end − earlyLeaveThreshold: the meeting would count as incomplete (a confirmation is asked). */
  early: boolean;
};

/** What checking out now would record, by the rules a check-out applies (rules.ts; the student's breaks taken out). */
export function checkOutPreview(
  scanIn: Date,
  meeting: { sessionDate: string; startTime: string; endTime: string; breaks?: ScheduleBreak[]; instructorBreaks?: [number, number][] },
  attendance: Pick<Settings['attendance'], 'timeZone' | 'earlyLeaveThresholdMinutes'>,
  now: Date,
  studentBreaks: readonly BreakPunch[] = [],
): CheckOutPreview {
  const window = classWindow(meeting.sessionDate, meeting.startTime, meeting.endTime, attendance.timeZone, meeting.breaks);
  return {
    classEndsAt: window.end,
    minutesIfNow: minutesWithBreaks(scanIn, now, studentBreaks, window),
    scheduledMinutes: scheduledMinutes(window, meeting.instructorBreaks),
    early: leftEarly(now, window, attendance.earlyLeaveThresholdMinutes),
  };
}
