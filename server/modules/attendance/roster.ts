// One meeting's roster with its records, breaks and proxy flags, as the Take Attendance page reads it.
import type { AttendanceRow } from '../../../common/attendance.ts';
import type { Role } from '../../../common/roles.ts';
import type { DbOrTx } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import { localDate } from '../../lib/school-time.ts';
import { assertMayUseSchedule } from '../access/service.ts';
import { getSettings } from '../settings/service.ts';
import { flagsOfMeeting } from './proxy-flags.ts';
import { breakPunch } from './punches.ts';
import { breaksOfMeeting, rosterWithRecords } from './queries.ts';

type User = { id: number; role: Role };

/** Roster rows of one meeting with their records and proxy flags; the caller has checked access. */
async function meetingRows(db: DbOrTx, scheduleId: number, sessionDate: string): Promise<AttendanceRow[]> {
  const [rows, flags, breaks] = await Promise.all([
    rosterWithRecords(db, scheduleId, sessionDate),
    flagsOfMeeting(db, scheduleId, sessionDate),
    breaksOfMeeting(db, scheduleId, sessionDate),
  ]);
  return rows.map((r) => ({
    ...r,
    sessionDate,
    scanInTime: r.scanInTime?.toISOString() ?? null,
    scanOutTime: r.scanOutTime?.toISOString() ?? null,
    isManualOverride: r.isManualOverride ?? false,
    breaks: r.id == null ? [] : (breaks.get(r.id) ?? []).map(breakPunch),
    flags: r.id == null ? [] : (flags.get(r.id) ?? []),
  }));
}

/** One student's row of a meeting, after a change the caller was allowed to make. */
export async function meetingRow(db: DbOrTx, scheduleId: number, sessionDate: string, studentId: number): Promise<AttendanceRow> {
  return (await meetingRows(db, scheduleId, sessionDate)).find((r) => r.studentId === studentId)!;
}

/**
 * The schedule's roster merged with the records of one meeting (default: today, school time), with
 * the "possible proxy" flags of each check-in. Instructors see their own schedules only.
 */
export async function listScheduleAttendance(db: DbOrTx, user: User, scheduleId: number, date: string | undefined, clock: Clock): Promise<AttendanceRow[]> {
  await assertMayUseSchedule(db, user, scheduleId);
  const sessionDate = date ?? localDate(clock.now(), (await getSettings(db)).attendance.timeZone);
  return meetingRows(db, scheduleId, sessionDate);
}
