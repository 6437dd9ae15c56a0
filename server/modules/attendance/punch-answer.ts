// What a scan's punch answers the scan page: the message for what it did and where the student stands.
import {
  SCAN_ALREADY_CHECKED_IN,
  SCAN_BREAK_ENDED,
  SCAN_BREAK_STARTED,
  SCAN_CHECKED_IN,
  SCAN_CHECKED_IN_LATE,
  SCAN_CHECKED_OUT,
  SCAN_CHECKED_OUT_EARLY,
  SCAN_LUNCH_ENDED,
  SCAN_LUNCH_STARTED,
  SCAN_RECORDED_BY_INSTRUCTOR,
  standingRecordMessage,
  type AttendanceSubmitResult,
  type BreakKind,
} from '../../../common/attendance.ts';
import { isAttendedStatus } from '../../../common/constants.ts';
import type { CheckInRow, StoredBreak } from './check-in-queries.ts';
import { breakPunch, isOnBreak } from './punches.ts';

/** `breaks`: the record's, after the punch; `punched`: the kind of the break a break punch started or ended. */
export function answer(
  action: AttendanceSubmitResult['action'],
  r: CheckInRow,
  courseName: string,
  breaks: readonly StoredBreak[] = [],
  punched?: BreakKind,
): AttendanceSubmitResult {
  const messages = {
    checked_in: r.status === 'late' ? SCAN_CHECKED_IN_LATE : SCAN_CHECKED_IN,
    checked_out: r.status === 'incomplete' ? SCAN_CHECKED_OUT_EARLY : SCAN_CHECKED_OUT,
    already_checked_in: SCAN_ALREADY_CHECKED_IN,
    // A record that does not show the student present must not be answered as if it did.
    already_recorded: isAttendedStatus(r.status) ? SCAN_RECORDED_BY_INSTRUCTOR : standingRecordMessage(r.status, r.isManualOverride),
    break_started: punched === 'lunch' ? SCAN_LUNCH_STARTED : SCAN_BREAK_STARTED,
    break_ended: punched === 'lunch' ? SCAN_LUNCH_ENDED : SCAN_BREAK_ENDED,
  };
  return {
    message: messages[action],
    action,
    status: r.status,
    courseName,
    scanInTime: r.scanInTime?.toISOString() ?? null,
    scanOutTime: r.scanOutTime?.toISOString() ?? null,
    minutesAttended: r.minutesAttended,
    onBreak: isOnBreak(breaks),
    breaks: breaks.map(breakPunch),
  };
}
