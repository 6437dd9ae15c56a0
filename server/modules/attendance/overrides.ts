// Staff changes of a record: overrides, undoing a check-out, manual records; and the minutes a break rewrites.
import type { z } from 'zod';
import { NO_CHECK_OUT_TO_UNDO, type AttendanceRow, type manualRecordSchema, type overrideSchema } from '../../../common/attendance.ts';
import { isAttendedStatus, type AttendanceStatus } from '../../../common/constants.ts';
import type { Role } from '../../../common/roles.ts';
import type { Db, DbOrTx } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import { badRequest, conflict, notFound } from '../../lib/errors.ts';
import { localDate } from '../../lib/school-time.ts';
import { recordAudit } from '../audit-logs/service.ts';
import { endedMeetingBreaksOf } from '../qr-sessions/service.ts';
import { closureOn, getMeetingCalendar } from '../schedules/service.ts';
import { getSettings } from '../settings/service.ts';
import { setRecordMinutes } from './check-in-queries.ts';
import { assertMayOverride, assertNotLocked, assertWithdrawalAllows, recordValues } from './punch-corrections.ts';
import { minutesWithBreaks } from './punches.ts';
import { clearCheckOut, insertManualRecord, lockRecordForOverride, recordBreaks, rosterEnrolment, setOverride } from './queries.ts';
import { insertCorrection } from './history-queries.ts';
import { meetingRow } from './roster.ts';
import { checkInStatus, classWindow, minutesAttended, scheduledMinutes, whyNotAMeeting, type ClassWindow } from './rules.ts';

type User = { id: number; role: Role };
type Ctx = { clock: Clock; ip: string | null };

/**
 * Minutes credited by an override: the scanned overlap when there is one, the whole class for a
 * present/late without scans, nothing for absent or excused (excused time is reported apart).
 */
function overrideMinutes(status: AttendanceStatus, scanned: number | null, scheduled: number): number {
  if (status === 'absent' || status === 'excused') return 0;
  return scanned ?? scheduled;
}

type Override = z.output<typeof overrideSchema>;
type Punch = { scanInTime: Date | null; scanOutTime: Date | null };

/**
 * Corrected times sent with an override or a manual record: only for present or late, and on the
 * meeting (from 12 hours before its start to 12 hours after its end), else a 400 naming the field.
 */
function correctedPunch(body: { status: AttendanceStatus; scanInTime?: string; scanOutTime?: string }, current: Punch, window: ClassWindow): Punch | null {
  if (!body.scanInTime && !body.scanOutTime) return null;
  const field = body.scanInTime ? 'scanInTime' : 'scanOutTime';
  if (body.status !== 'present' && body.status !== 'late')
    throw badRequest('Times can be corrected only for a present or late record', [{ field, message: 'Only for present or late' }]);
  const punch = {
    scanInTime: body.scanInTime ? new Date(body.scanInTime) : current.scanInTime,
    scanOutTime: body.scanOutTime ? new Date(body.scanOutTime) : current.scanOutTime,
  };
  if (!punch.scanInTime)
    throw badRequest('A check-out time needs a check-in time', [{ field: 'scanInTime', message: 'scanInTime is required with scanOutTime' }]);
  const slack = 12 * 3_600_000;
  for (const [name, at] of [
    ['scanInTime', punch.scanInTime],
    ['scanOutTime', punch.scanOutTime],
  ] as const) {
    if (at && (at.getTime() < window.start.getTime() - slack || at.getTime() > window.end.getTime() + slack)) {
      throw badRequest(`${name} must be on the day of the class meeting`, [{ field: name, message: 'Not on the day of the class meeting' }]);
    }
  }
  if (punch.scanOutTime && punch.scanOutTime < punch.scanInTime)
    throw badRequest('scanOutTime must not be before scanInTime', [{ field: 'scanOutTime', message: 'Before scanInTime' }]);
  return punch;
}

export async function overrideAttendance(db: Db, user: User, recordId: number, body: Override, ctx: Ctx): Promise<AttendanceRow> {
  const { timeZone } = (await getSettings(db)).attendance;
  return db.transaction(async (tx) => {
    const before = await lockRecordForOverride(tx, recordId);
    if (!before) throw notFound('Attendance record');
    const schedule = await assertMayOverride(tx, user, before.scheduleId);
    await assertWithdrawalAllows(tx, user, before.studentId, before.sessionDate);
    await assertNotLocked(tx, user, before.studentId, before.sessionDate, ctx.clock);
    const now = ctx.clock.now();
    const window = classWindow(before.sessionDate, schedule.startTime, schedule.endTime, timeZone, schedule.breaks);
    const punch = correctedPunch(body, before, window);
    // Corrected times keep the breaks punched between them.
    const minutes = punch
      ? minutesWithBreaks(punch.scanInTime!, punch.scanOutTime, await recordBreaks(tx, recordId), window)
      : overrideMinutes(body.status, before.hasScan ? before.scanned : null, before.scheduledMinutes ?? 0);
    await setOverride(tx, recordId, {
      status: body.status,
      overrideReason: body.overrideReason,
      overriddenBy: user.id,
      minutes,
      now,
      times: punch ?? undefined,
    });
    const after = { ...before, ...(punch ?? {}), status: body.status, minutesAttended: minutes, overrideReason: body.overrideReason };
    await insertCorrection(tx, {
      attendanceRecordId: recordId,
      changedBy: user.id,
      changedAt: now,
      reason: body.overrideReason,
      before: recordValues(before),
      after: recordValues(after),
    });
    await recordAudit(tx, {
      userId: user.id,
      action: 'Update',
      tableName: 'attendance',
      recordId,
      ipAddress: ctx.ip,
      oldValues: {
        status: before.status,
        isManualOverride: before.isManualOverride,
        overrideReason: before.overrideReason,
        ...(punch ? { scanInTime: before.scanInTime, scanOutTime: before.scanOutTime } : {}),
      },
      newValues: { status: body.status, isManualOverride: true, overrideReason: body.overrideReason, ...(punch ?? {}) },
      at: now,
    });
    return meetingRow(tx, before.scheduleId, before.sessionDate, before.studentId);
  });
}

/**
 * The minutes of records whose students an instructor-led break just took out (decision 052): as if
 * they never came back, like any open break (decision 051); a return rewrites them again.
 */
export async function minutesAfterBreakStarted(tx: DbOrTx, recordIds: readonly number[], window: ClassWindow, now: Date): Promise<void> {
  for (const id of recordIds) {
    const record = await lockRecordForOverride(tx, id);
    if (!record?.scanInTime || record.scanOutTime) continue;
    await setRecordMinutes(tx, id, { minutes: minutesWithBreaks(record.scanInTime, null, await recordBreaks(tx, id), window), now });
  }
}

/**
 * Undo a check-out in one action (decision 039): the record is the check-in again (no scan-out, the status
 * the check-in gave by the late threshold, minutes to the end of class, as a check-in counts them). An
 * override by another name: the same per-record rules (instructors on their own schedules, while
 * instructor overrides are allowed; withdrawals; the program's edit lock). The record's history keeps
 * the check-out (a correction whose `before` it is), and the audit log the old and new values. The
 * override marker is left as it was, so the student can still check out with the QR later. 409 when
 * the record has no check-out to undo (none, or a status a check-out did not give).
 */
export async function undoCheckOut(db: Db, user: User, recordId: number, ctx: Ctx): Promise<AttendanceRow> {
  const { attendance } = await getSettings(db);
  return db.transaction(async (tx) => {
    const before = await lockRecordForOverride(tx, recordId);
    if (!before) throw notFound('Attendance record');
    const schedule = await assertMayOverride(tx, user, before.scheduleId);
    await assertWithdrawalAllows(tx, user, before.studentId, before.sessionDate);
    await assertNotLocked(tx, user, before.studentId, before.sessionDate, ctx.clock);
    const scanIn = before.scanInTime;
    if (!scanIn || !before.scanOutTime || !isAttendedStatus(before.status)) throw conflict(NO_CHECK_OUT_TO_UNDO);
    const now = ctx.clock.now();
    const window = classWindow(before.sessionDate, schedule.startTime, schedule.endTime, attendance.timeZone, schedule.breaks);
    const status = before.status === 'incomplete' ? checkInStatus(scanIn, window, attendance.lateThresholdMinutes) : before.status;
    const minutes = minutesWithBreaks(scanIn, null, await recordBreaks(tx, recordId), window);
    await clearCheckOut(tx, recordId, { status, minutes, now });
    const after = { ...before, status, scanOutTime: null, minutesAttended: minutes };
    await insertCorrection(tx, {
      attendanceRecordId: recordId,
      changedBy: user.id,
      changedAt: now,
      reason: 'Undid the check-out',
      before: recordValues(before),
      after: recordValues(after),
    });
    await recordAudit(tx, {
      userId: user.id,
      action: 'Update',
      tableName: 'attendance',
      recordId,
      ipAddress: ctx.ip,
      oldValues: { status: before.status, scanOutTime: before.scanOutTime, minutesAttended: before.minutesAttended },
      newValues: { status, scanOutTime: null, minutesAttended: minutes, undoneCheckOut: true },
      at: now,
    });
    return meetingRow(tx, before.scheduleId, before.sessionDate, before.studentId);
  });
}

/**
 * A record for a rostered student who has none yet (no scan), written as a manual override. The date
 * must be a meeting of the schedule (its course dates, its day of the week, not a holiday; make-up
 * dates count; never a day the school or the program is closed), not in the future, and not before the student's enrolment date: an instructor cannot
 * credit a day the class did not meet. Refusals are 400s naming sessionDate.
 */
export async function createManualRecord(db: Db, user: User, body: z.output<typeof manualRecordSchema>, ctx: Ctx): Promise<AttendanceRow> {
  const settings = await getSettings(db);
  const now = ctx.clock.now();
  const today = localDate(now, settings.attendance.timeZone);
  const sessionDate = body.sessionDate ?? today;
  const schedule = await assertMayOverride(db, user, body.scheduleId);
  const refuseDate = (message: string) => badRequest(message, [{ field: 'sessionDate', message }]);
  if (sessionDate > today) throw refuseDate('Attendance cannot be recorded for a future date');
  const [calendar, enrolment] = await Promise.all([getMeetingCalendar(db, body.scheduleId), rosterEnrolment(db, body.scheduleId, body.studentId)]);
  if (!calendar) throw notFound('Schedule');
  if (!enrolment) throw badRequest('The student is not on this class roster', [{ field: 'studentId', message: 'Not on the roster' }]);
  const notAMeeting = whyNotAMeeting(sessionDate, calendar);
  if (notAMeeting) throw refuseDate(notAMeeting);
  // A closed day has no scheduled minutes in the ledger, so nothing may be credited on it.
  const closure = await closureOn(db, calendar.programId, sessionDate);
  if (closure) throw refuseDate(`The school is closed on ${sessionDate} (${closure.name}): the class does not meet that day`);
  if (enrolment.enrollmentDate && sessionDate < enrolment.enrollmentDate) {
    throw refuseDate(`The student enrolled on ${enrolment.enrollmentDate}; ${sessionDate} is before that`);
  }
  await assertWithdrawalAllows(db, user, body.studentId, sessionDate);
  await assertNotLocked(db, user, body.studentId, sessionDate, ctx.clock);
  const window = classWindow(sessionDate, schedule.startTime, schedule.endTime, settings.attendance.timeZone, schedule.breaks);
  const scheduled = scheduledMinutes(window, await endedMeetingBreaksOf(db, { scheduleId: body.scheduleId, sessionDate }));
  const punch = correctedPunch(body, { scanInTime: null, scanOutTime: null }, window);
  return db.transaction(async (tx) => {
    const id = await insertManualRecord(tx, {
      studentId: body.studentId,
      scheduleId: body.scheduleId,
      sessionDate,
      status: body.status,
      scanInTime: punch?.scanInTime ?? null,
      scanOutTime: punch?.scanOutTime ?? null,
      minutesAttended: punch ? minutesAttended(punch.scanInTime!, punch.scanOutTime, window) : overrideMinutes(body.status, null, scheduled),
      scheduledMinutes: scheduled,
      overrideReason: body.overrideReason,
      overriddenBy: user.id,
      now,
    });
    if (id == null) throw conflict('This student already has a record for that class meeting; override it instead');
    await recordAudit(tx, {
      userId: user.id,
      action: 'Create',
      tableName: 'attendance',
      recordId: id,
      ipAddress: ctx.ip,
      newValues: {
        studentId: body.studentId,
        scheduleId: body.scheduleId,
        sessionDate,
        status: body.status,
        overrideReason: body.overrideReason,
        source: 'manual',
        ...(punch ?? {}),
      },
      at: now,
    });
    return meetingRow(tx, body.scheduleId, sessionDate, body.studentId);
  });
}
