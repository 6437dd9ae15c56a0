import type { AttendanceStatus } from '../../../common/constants.ts';
import type { RecordValues } from '../../../common/hours.ts';
import type { Role } from '../../../common/roles.ts';
import type { Schedule } from '../../../common/schedules.ts';
import type { DbOrTx } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import { badRequest, conflict, forbidden } from '../../lib/errors.ts';
import { addDays, localDate, localTimeOfDay } from '../../lib/school-time.ts';
import { assertMayChangeRecords, mayChangeLockedRecords, mayChangeRecordsOfWithdrawn } from '../access/service.ts';
import { recordAudit } from '../audit-logs/service.ts';
import { programPolicy } from '../programs/service.ts';
import { endedMeetingBreaksOf } from '../qr-sessions/service.ts';
import { usableSchedule } from '../schedules/service.ts';
import { getSettings } from '../settings/service.ts';
import { lockMeetingRecord } from './check-in-queries.ts';
import { minutesWithBreaks } from './punches.ts';
import { insertManualRecord, lockRecordForOverride, recordBreaks, selectStudentProgramId, selectWithdrawalDate, setOverride } from './queries.ts';
import { insertCorrection } from './history-queries.ts';
import { checkInStatus, classWindow, scheduledMinutes, statusAfterCheckOut } from './rules.ts';

// What every staff change of a record obeys (overrides, undoing a check-out, an accepted scan, a
// missed-punch approval), and the missed-punch correction itself. Kept apart from service.ts so that
// service.ts can offer the correction to other modules without an import cycle.

type User = { id: number; role: Role };
type Ctx = { clock: Clock; ip: string | null };

/**
 * A withdrawn student's records: none after the withdrawal date (409), and only administrators
 * (always with a reason) on or before it.
 */
export async function assertWithdrawalAllows(db: DbOrTx, user: User, studentId: number, sessionDate: string): Promise<void> {
  const withdrawn = await selectWithdrawalDate(db, studentId);
  if (!withdrawn) return;
  if (sessionDate > withdrawn) throw conflict(`The student withdrew on ${withdrawn}; attendance after that date is not recorded`);
  if (!mayChangeRecordsOfWithdrawn(user)) throw forbidden(`The student withdrew on ${withdrawn}; only an administrator can change attendance up to that date`);
}

/**
 * The program's attendanceEditLockDays: a record of a meeting older than that many days may be
 * changed only by super_admin (every change carries a reason already).
 */
export async function assertNotLocked(db: DbOrTx, user: User, studentId: number, sessionDate: string, clock: Clock): Promise<void> {
  if (mayChangeLockedRecords(user)) return;
  const programId = await selectStudentProgramId(db, studentId);
  const lockDays = programId == null ? null : ((await programPolicy(db, programId))?.attendanceEditLockDays ?? null);
  if (lockDays == null) return;
  const today = localDate(clock.now(), (await getSettings(db)).attendance.timeZone);
  if (sessionDate < addDays(today, -lockDays)) {
    throw forbidden(`Attendance older than ${lockDays} days is locked for this program; only a super admin can change it, with a reason`);
  }
}

/** The schedule whose record the user changes, once the access rules allow it (own schedule; instructor overrides on). */
export async function assertMayOverride(db: DbOrTx, user: User, scheduleId: number): Promise<Schedule> {
  const schedule = await usableSchedule(db, user, scheduleId);
  await assertMayChangeRecords(user, async () => (await getSettings(db)).attendance.allowInstructorOverride);
  return schedule;
}

/** A record's values as its history shows them. */
export function recordValues(r: {
  status: AttendanceStatus;
  scanInTime: Date | null;
  scanOutTime: Date | null;
  minutesAttended: number | null;
  source: string;
  overrideReason: string | null;
}): RecordValues {
  return {
    status: r.status,
    scanInTime: r.scanInTime?.toISOString() ?? null,
    scanOutTime: r.scanOutTime?.toISOString() ?? null,
    minutesAttended: r.minutesAttended,
    source: r.source as RecordValues['source'],
    overrideReason: r.overrideReason,
  };
}

type MissedPunchCorrection = {
  studentId: number;
  scheduleId: number;
  sessionDate: string;
  /** The punches approved; null keeps what the record has. */
  checkInAt: Date | null;
  checkOutAt: Date | null;
  reason: string;
  missedPunchRequestId: number;
};

type CorrectedPunch = {
  recordId: number;
  status: AttendanceStatus;
  scanInTime: Date;
  scanOutTime: Date | null;
  minutesAttended: number;
  created: boolean;
};

/**
 * An approved missed-punch request, written into the meeting's record in the caller's transaction:
 * the approved check-in and/or check-out, the status and minutes the attendance rules give those
 * punches (rules.ts), and a correction in the record's history flagged with the request (an
 * exception). A meeting without a record (or with only an automatic absence) gets a present or late
 * one. The same per-record rules as an override: instructors on their own schedules while instructor
 * overrides are allowed, withdrawals, the program's edit lock. A time given must fall within the
 * class, and a check-out after the check-in: a 400 naming checkInAt or checkOutAt.
 */
export async function correctMissedPunch(tx: DbOrTx, user: User, c: MissedPunchCorrection, ctx: Ctx): Promise<CorrectedPunch> {
  const schedule = await assertMayOverride(tx, user, c.scheduleId);
  await assertWithdrawalAllows(tx, user, c.studentId, c.sessionDate);
  await assertNotLocked(tx, user, c.studentId, c.sessionDate, ctx.clock);
  const { attendance } = await getSettings(tx);
  const window = classWindow(c.sessionDate, schedule.startTime, schedule.endTime, attendance.timeZone, schedule.breaks);
  const found = await lockMeetingRecord(tx, c);
  const before = found ? await lockRecordForOverride(tx, found.id) : null;
  // An automatic absence has no punch to keep: the approval replaces it.
  const kept = before && before.status !== 'absent' && before.status !== 'excused' ? before : null;
  const scanIn = c.checkInAt ?? kept?.scanInTime ?? null;
  const scanOut = c.checkOutAt ?? kept?.scanOutTime ?? null;
  if (!scanIn) throw badRequest('The record has no check-in: give checkInAt', [{ field: 'checkInAt', message: 'A check-in time is required' }]);
  const span = `${localTimeOfDay(window.start, attendance.timeZone)}–${localTimeOfDay(window.end, attendance.timeZone)}`;
  for (const [field, at] of [
    ['checkInAt', c.checkInAt],
    ['checkOutAt', c.checkOutAt],
  ] as const) {
    if (at && (at < window.start || at > window.end))
      throw badRequest(`${field} must be during the class (${span})`, [{ field, message: `Not during the class (${span})` }]);
  }
  if (scanOut && scanOut <= scanIn) throw badRequest('checkOutAt must be after the check-in', [{ field: 'checkOutAt', message: 'Not after the check-in' }]);

  const arrived = checkInStatus(scanIn, window, attendance.lateThresholdMinutes);
  const status = scanOut ? statusAfterCheckOut(arrived, scanOut, window, attendance.earlyLeaveThresholdMinutes) : arrived;
  // The student's own breaks at this meeting stay out of the minutes, as at a check-out.
  const minutes = minutesWithBreaks(scanIn, scanOut, kept && found ? await recordBreaks(tx, found.id) : [], window);
  const now = ctx.clock.now();
  const reason = `Missed-punch request approved: ${c.reason}`;
  let recordId: number;
  let created = false;
  if (before && found) {
    recordId = found.id;
    await setOverride(tx, recordId, {
      status,
      overrideReason: reason,
      overriddenBy: user.id,
      minutes,
      now,
      times: { scanInTime: scanIn, scanOutTime: scanOut },
    });
    const after = { ...before, status, scanInTime: scanIn, scanOutTime: scanOut, minutesAttended: minutes, overrideReason: reason };
    await insertCorrection(tx, {
      attendanceRecordId: recordId,
      changedBy: user.id,
      changedAt: now,
      reason,
      before: recordValues(before),
      after: recordValues(after),
      missedPunchRequestId: c.missedPunchRequestId,
    });
    await recordAudit(tx, {
      userId: user.id,
      action: 'Update',
      tableName: 'attendance',
      recordId,
      ipAddress: ctx.ip,
      oldValues: {
        status: before.status,
        scanInTime: before.scanInTime,
        scanOutTime: before.scanOutTime,
        minutesAttended: before.minutesAttended,
        overrideReason: before.overrideReason,
      },
      newValues: {
        status,
        scanInTime: scanIn,
        scanOutTime: scanOut,
        minutesAttended: minutes,
        overrideReason: reason,
        missedPunchRequestId: c.missedPunchRequestId,
      },
      at: now,
    });
  } else {
    const id = await insertManualRecord(tx, {
      studentId: c.studentId,
      scheduleId: c.scheduleId,
      sessionDate: c.sessionDate,
      status,
      scanInTime: scanIn,
      scanOutTime: scanOut,
      minutesAttended: minutes,
      scheduledMinutes: scheduledMinutes(window, await endedMeetingBreaksOf(tx, c)),
      overrideReason: reason,
      overriddenBy: user.id,
      now,
    });
    // The row lock above found none; another one since (a scan, staff) wins and this is asked again.
    if (id == null) throw conflict('The student has a record for this meeting now; open the request again');
    recordId = id;
    created = true;
    // The record is what the approval made: its history starts there, with the request it answered.
    const values = recordValues({ status, scanInTime: scanIn, scanOutTime: scanOut, minutesAttended: minutes, source: 'manual', overrideReason: reason });
    await insertCorrection(tx, {
      attendanceRecordId: recordId,
      changedBy: user.id,
      changedAt: now,
      reason,
      before: values,
      after: values,
      missedPunchRequestId: c.missedPunchRequestId,
    });
    await recordAudit(tx, {
      userId: user.id,
      action: 'Create',
      tableName: 'attendance',
      recordId,
      ipAddress: ctx.ip,
      newValues: {
        studentId: c.studentId,
        scheduleId: c.scheduleId,
        sessionDate: c.sessionDate,
        status,
        scanInTime: scanIn,
        scanOutTime: scanOut,
        source: 'manual',
        overrideReason: reason,
        missedPunchRequestId: c.missedPunchRequestId,
      },
      at: now,
    });
  }
  return { recordId, status, scanInTime: scanIn, scanOutTime: scanOut, minutesAttended: minutes, created };
}
