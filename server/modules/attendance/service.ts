import type { z } from 'zod';
import {
  MEETING_REVIEW_DAYS,
  NO_CHECK_OUT_TO_UNDO,
  offersLunchPunches,
  type AttendanceRow,
  type BreakPunch,
  type MeetingToReview,
  type CheckInFlag,
  type FlagDecision,
  type manualRecordSchema,
  type overrideSchema,
} from '../../../common/attendance.ts';
import { isAttendedStatus, type AttendanceStatus } from '../../../common/constants.ts';
import type { AttendanceHistory, RecordValues } from '../../../common/hours.ts';
import type { Role } from '../../../common/roles.ts';
import type { ScheduleBreak } from '../../../common/schedules.ts';
import type { Settings } from '../../../common/settings.ts';
import type { Db, DbOrTx } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import { badRequest, conflict, notFound } from '../../lib/errors.ts';
import { addDays, localDate } from '../../lib/school-time.ts';
import { assertMayUseSchedule, viewerScope, WHOLE_SCHOOL } from '../access/service.ts';
import { recordAudit } from '../audit-logs/service.ts';
import { closeExpiredSessions, endedMeetingBreaksOf, isSessionUuid, listActiveSessionsIn, listRecentSessionMeetings } from '../qr-sessions/service.ts';
import { cancelMeetingOn, closureOn, getMeetingCalendar, listVisibleSchedules, restoreMeetingOn } from '../schedules/service.ts';
import { closedDates } from '../calendar/service.ts';
import { getSettings } from '../settings/service.ts';
import { timeClockVersions } from '../programs/service.ts';
import { flagView, flagsOfMeeting, judgeFlag, recordFlagReview, storedScanEvidence } from './proxy-flags.ts';
import { assertMayOverride, assertNotLocked, assertWithdrawalAllows, recordValues } from './punch-corrections.ts';
import { breakPunch, minutesWithBreaks } from './punches.ts';
import {
  breaksOfMeeting,
  clearCheckOut,
  clockHoursTotals,
  recordBreaks,
  setRecordMinutes,
  sessionMeetingProgram,
  deviceMeetingRecord,
  flagById,
  insertAbsences,
  insertCorrection,
  selectCorrections,
  selectHistoryRecord,
  insertManualRecord,
  lockFlag,
  lockRecordForOverride,
  rosterEnrolment,
  rosterWithRecords,
  setAcceptedScan,
  setOverride,
  tryAutoAbsentLock,
  type ClockHoursFilter,
  type DeviceRecord,
  countKeptMeetingRecords,
  deleteAutoAbsences,
  selectHeldMeetings,
} from './queries.ts';
import { checkInStatus, classWindow, leftEarly, minutesAttended, scheduledMinutes, whyNotAMeeting, type ClassWindow } from './rules.ts';

// The module's door for its routes and the scan pages: the public check-in (submit.ts, taken from a
// browser by browser-check-in.ts) and the proxy flags (proxy-flags.ts) live in their own files; the
// device and pass cookies come from the qr-sessions module.
export { submitAttendance } from './submit.ts';
export { checkInFromBrowser } from './browser-check-in.ts';
// The meeting rules the hours ledger shares (one definition of when a class meets and for how long).
export { classWindow, scheduledBreakIntervals, scheduledMinutes, whyNotAMeeting, type ClassWindow, type MeetingCalendar } from './rules.ts';
export { PUBLIC_RATE_LIMIT } from '../qr-sessions/service.ts';
// An approved missed-punch request written into the record (the missed-punches module decides, this writes).
export { correctMissedPunch, type CorrectedPunch } from './punch-corrections.ts';

type User = { id: number; role: Role };
type Ctx = { clock: Clock; ip: string | null };

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
async function meetingRow(db: DbOrTx, scheduleId: number, sessionDate: string, studentId: number): Promise<AttendanceRow> {
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
  if (body.status !== 'present' && body.status !== 'late') throw badRequest('Times can be corrected only for a present or late record', [{ field, message: 'Only for present or late' }]);
  const punch = { scanInTime: body.scanInTime ? new Date(body.scanInTime) : current.scanInTime, scanOutTime: body.scanOutTime ? new Date(body.scanOutTime) : current.scanOutTime };
  if (!punch.scanInTime) throw badRequest('A check-out time needs a check-in time', [{ field: 'scanInTime', message: 'scanInTime is required with scanOutTime' }]);
  const slack = 12 * 3_600_000;
  for (const [name, at] of [['scanInTime', punch.scanInTime], ['scanOutTime', punch.scanOutTime]] as const) {
    if (at && (at.getTime() < window.start.getTime() - slack || at.getTime() > window.end.getTime() + slack)) {
      throw badRequest(`${name} must be on the day of the class meeting`, [{ field: name, message: 'Not on the day of the class meeting' }]);
    }
  }
  if (punch.scanOutTime && punch.scanOutTime < punch.scanInTime) throw badRequest('scanOutTime must not be before scanInTime', [{ field: 'scanOutTime', message: 'Before scanInTime' }]);
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
    await setOverride(tx, recordId, { status: body.status, overrideReason: body.overrideReason, overriddenBy: user.id, minutes, now, times: punch ?? undefined });
    const after = { ...before, ...(punch ?? {}), status: body.status, minutesAttended: minutes, overrideReason: body.overrideReason };
    await insertCorrection(tx, { attendanceRecordId: recordId, changedBy: user.id, changedAt: now, reason: body.overrideReason, before: recordValues(before), after: recordValues(after) });
    await recordAudit(tx, {
      userId: user.id,
      action: 'Update',
      tableName: 'attendance',
      recordId,
      ipAddress: ctx.ip,
      oldValues: { status: before.status, isManualOverride: before.isManualOverride, overrideReason: before.overrideReason, ...(punch ? { scanInTime: before.scanInTime, scanOutTime: before.scanOutTime } : {}) },
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
 * Undo a check-out in one action (issue 28): the record is the check-in again (no scan-out, the status
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
    await insertCorrection(tx, { attendanceRecordId: recordId, changedBy: user.id, changedAt: now, reason: 'Undid the check-out', before: recordValues(before), after: recordValues(after) });
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

/** A scanned check-in of this device's student at a session's meeting, for the scan page to say what a Check out will do. */
export type DeviceStanding = Pick<DeviceRecord, 'student' | 'status' | 'minutesAttended'> & { scanInTime: Date; scanOutTime: Date | null; breaks: BreakPunch[] };

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
    for (const v of await timeClockVersions(db, meeting.programId)) if (v.effectiveFrom == null || v.effectiveFrom <= meeting.sessionDate) mealDeduction = v.mealDeduction;
  }
  // The class from start to end, its scheduled breaks included: a meal is due that long after arriving.
  return offersLunchPunches(scheduledMinutes(classWindow(meeting.sessionDate, meeting.startTime, meeting.endTime, timeZone)), mealDeduction);
}

export type CheckOutPreview = {
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
      newValues: { studentId: body.studentId, scheduleId: body.scheduleId, sessionDate, status: body.status, overrideReason: body.overrideReason, source: 'manual', ...(punch ?? {}) },
      at: now,
    });
    return meetingRow(tx, body.scheduleId, sessionDate, body.studentId);
  });
}

/**
 * The instructor's decision on a flag of a check-in: a proxy flag confirmed or cleared, a scan made
 * while marked absent accepted (the record becomes what the scan would have given) or dismissed.
 */
export async function reviewFlag(db: Db, user: User, flagId: number, decision: FlagDecision, ctx: Ctx): Promise<CheckInFlag> {
  return decision === 'accept_scan' ? acceptScan(db, user, flagId, ctx) : judgeFlag(db, user, flagId, decision, ctx);
}

/**
 * Accept a scan made while the record said absent or excused: the record becomes the check-in the
 * scan would have been (present or late as the school's threshold gave it then, scan-in at the
 * scan's time, minutes from then to the end of class), the override marker is cleared and the flag
 * is marked accepted; both audited. An override by another name: the same per-record rules apply
 * (instructors on their own schedules, and only while instructor overrides are allowed).
 */
async function acceptScan(db: Db, user: User, flagId: number, ctx: Ctx): Promise<CheckInFlag> {
  const found = await flagById(db, flagId);
  if (!found) throw notFound('Flag');
  const schedule = await assertMayOverride(db, user, found.scheduleId);
  const evidence = found.reason === 'scanned_after_override' ? storedScanEvidence(found.evidence) : null;
  if (!evidence) throw badRequest('Only a scan made while marked absent can be accepted');
  const { attendance } = await getSettings(db);
  const now = ctx.clock.now();
  await db.transaction(async (tx) => {
    const flag = await lockFlag(tx, flagId);
    if (!flag) throw notFound('Flag');
    if (flag.status === 'accepted') return; // pressed twice: the record already shows the scan
    const before = await lockRecordForOverride(tx, found.attendanceRecordId);
    if (!before) throw notFound('Attendance record');
    const scanAt = new Date(evidence.checkedInAt);
    const window = classWindow(before.sessionDate, schedule.startTime, schedule.endTime, attendance.timeZone, schedule.breaks);
    const status = evidence.scanStatus ?? checkInStatus(scanAt, window, attendance.lateThresholdMinutes);
    const minutes = minutesAttended(scanAt, null, window);
    await setAcceptedScan(tx, found.attendanceRecordId, {
      status,
      scanInTime: scanAt,
      minutes,
      scheduledMinutes: before.scheduledMinutes ?? scheduledMinutes(window),
      qrSessionId: evidence.qrSessionId,
      deviceId: evidence.deviceId,
      now,
    });
    await recordAudit(tx, {
      userId: user.id,
      action: 'Update',
      tableName: 'attendance',
      recordId: found.attendanceRecordId,
      ipAddress: ctx.ip,
      oldValues: {
        status: before.status,
        isManualOverride: before.isManualOverride,
        overrideReason: before.overrideReason,
        source: before.source,
        scanInTime: before.scanInTime,
        scanOutTime: before.scanOutTime,
      },
      newValues: { status, isManualOverride: false, source: 'qr', scanInTime: scanAt, scanOutTime: null, minutesAttended: minutes, acceptedScanFlagId: flagId },
      at: now,
    });
    await insertCorrection(tx, {
      attendanceRecordId: found.attendanceRecordId,
      changedBy: user.id,
      changedAt: now,
      reason: 'Accepted the scan made while marked absent',
      before: recordValues(before),
      after: recordValues({ status, scanInTime: scanAt, scanOutTime: null, minutesAttended: minutes, source: 'qr', overrideReason: null }),
    });
    await recordFlagReview(tx, { flagId, from: flag.status, to: 'accepted', about: found, userId: user.id, ip: ctx.ip, at: now });
  });
  return flagView(db, flagId);
}

export type ClockHours = {
  studentId: number;
  scheduleId: number;
  firstName: string;
  lastName: string;
  courseCode: string;
  meetings: number;
  scheduledMinutes: number;
  attendedMinutes: number;
  excusedMinutes: number;
  attendanceRate: number;
};

/**
 * Clock hours per student and schedule: minutes scheduled for the meetings that took place
 * (those with records) against minutes attended. Instructors see their own schedules' only.
 */
export async function clockHours(db: DbOrTx, user: User, filter: Omit<ClockHoursFilter, 'instructorId'>): Promise<ClockHours[]> {
  const rows = await clockHoursTotals(db, { ...filter, instructorId: viewerScope(user).instructorId ?? undefined });
  return rows.map((r) => ({
    studentId: r.studentId,
    scheduleId: r.scheduleId,
    firstName: r.firstName,
    lastName: r.lastName,
    courseCode: r.courseCode,
    meetings: r.meetings,
    scheduledMinutes: r.scheduled,
    attendedMinutes: r.attended,
    excusedMinutes: r.excused,
    attendanceRate: r.scheduled > 0 ? Math.round((r.attended / r.scheduled) * 1000) / 10 : 0,
  }));
}

/**
 * After a class meeting that ran a QR session, students on the roster with no record are marked
 * absent (source 'auto') once autoMarkAbsentHours have passed since the class ended, and not while
 * a QR session of that meeting is still open (a student may yet scan it; the next run marks them).
 * Idempotent and safe with several instances: inserts skip existing records (never touching a
 * manual override), and a transaction-scoped advisory lock lets one instance do the work.
 */
export async function markAbsentees(db: Db, clock: Clock): Promise<number> {
  const now = clock.now();
  const { attendance } = await getSettings(db);
  return db.transaction(async (tx) => {
    if (!(await tryAutoAbsentLock(tx))) return 0;
    await closeExpiredSessions(tx, now);
    const open = new Set((await listActiveSessionsIn(tx, WHOLE_SCHOOL, now)).map((q) => `${q.scheduleId}:${q.sessionDate}`));
    let marked = 0;
    for (const m of await listRecentSessionMeetings(tx, now)) {
      if (open.has(`${m.scheduleId}:${m.sessionDate}`)) continue;
      const window = classWindow(m.sessionDate, m.startTime, m.endTime, attendance.timeZone, m.breaks);
      if (now.getTime() < window.end.getTime() + attendance.autoMarkAbsentHours * 3_600_000) continue;
      marked += await insertAbsences(tx, { scheduleId: m.scheduleId, sessionDate: m.sessionDate, scheduledMinutes: scheduledMinutes(window, m.instructorBreaks), now });
    }
    return marked;
  });
}

/**
 * GET /api/attendance/{id}/history: the record as first captured and every staff change after it.
 * Unchecked: who may read is decided by the caller (the access module's need-to-know) before this runs.
 */
export async function recordHistoryUnchecked(db: DbOrTx, recordId: number): Promise<AttendanceHistory> {
  const [record, changes] = await Promise.all([selectHistoryRecord(db, recordId), selectCorrections(db, recordId)]);
  if (!record) throw notFound('Attendance record');
  const current = recordValues(record);
  const first = changes[0]?.before as RecordValues | undefined;
  return {
    recordId,
    studentId: record.studentId,
    scheduleId: record.scheduleId,
    sessionDate: record.sessionDate,
    original: { ...(first ?? current), capturedAt: record.createdAt.toISOString(), capturedBy: record.createdByName },
    changes: changes.map((c) => ({ at: c.at.toISOString(), by: c.by ?? c.email, reason: c.reason, before: c.before as RecordValues, after: c.after as RecordValues })),
    current,
  };
}

// ---- Meetings that did not take place (issue 28) ----

/**
 * POST /api/schedules/{id}/meetings/{date}/cancel: the class did not meet that day (an instructor
 * is sick). It becomes a holiday of the schedule (the one meeting rule), never scheduled nor an
 * absence; the job's automatic absences of it go; audited with the reason. Refused when it was not
 * a meeting, or when attendance was taken at it (change those records instead).
 */
export async function cancelMeeting(db: Db, user: User, scheduleId: number, date: string, reason: string, ctx: Ctx): Promise<void> {
  await assertMayUseSchedule(db, user, scheduleId);
  const calendar = await getMeetingCalendar(db, scheduleId);
  if (!calendar) throw notFound('Schedule');
  const why = whyNotAMeeting(date, calendar);
  if (why) throw badRequest(why, [{ field: 'date', message: why }]);
  await db.transaction(async (tx) => {
    const kept = await countKeptMeetingRecords(tx, scheduleId, date);
    if (kept > 0) throw conflict(`Attendance was taken at this meeting (${kept} record${kept === 1 ? '' : 's'}): correct those records instead of cancelling it`, 'date');
    const removed = await deleteAutoAbsences(tx, scheduleId, date);
    await cancelMeetingOn(tx, scheduleId, date);
    await recordAudit(tx, { userId: user.id, action: 'Update', tableName: 'schedules', recordId: scheduleId, ipAddress: ctx.ip, newValues: { cancelledMeeting: date, reason, automaticAbsencesRemoved: removed }, at: ctx.clock.now() });
  });
}

/** DELETE /api/schedules/{id}/meetings/{date}/cancel: the meeting took place after all. */
export async function restoreMeeting(db: Db, user: User, scheduleId: number, date: string, reason: string, ctx: Ctx): Promise<void> {
  await assertMayUseSchedule(db, user, scheduleId);
  await db.transaction(async (tx) => {
    if (!(await restoreMeetingOn(tx, scheduleId, date))) throw notFound('Cancelled meeting');
    await recordAudit(tx, { userId: user.id, action: 'Update', tableName: 'schedules', recordId: scheduleId, ipAddress: ctx.ip, newValues: { restoredMeeting: date, reason }, at: ctx.clock.now() });
  });
}

/**
 * Meetings at which anything happened (a record of anyone, or a QR session), as `scheduleId|date`:
 * the ledger counts a meeting nobody took attendance at as unrecorded, for review, not as absences.
 */
export async function heldMeetings(db: DbOrTx, scheduleIds: number[], from: string, to: string): Promise<Set<string>> {
  return new Set((await selectHeldMeetings(db, scheduleIds, from, to)).map((m) => `${m.scheduleId}|${m.sessionDate}`));
}

/**
 * GET /api/attendance/meetings-to-review: the viewer's meetings of the last MEETING_REVIEW_DAYS that
 * have ended with no QR session and no record for anyone, oldest first: take attendance, or cancel.
 */
export async function meetingsToReview(db: DbOrTx, user: User, clock: Clock): Promise<MeetingToReview[]> {
  const { timeZone } = (await getSettings(db)).attendance;
  const now = clock.now();
  const today = localDate(now, timeZone);
  const from = addDays(today, -MEETING_REVIEW_DAYS);
  const visible = (await listVisibleSchedules(db, user)).filter((s) => s.isActive);
  if (visible.length === 0) return [];
  const held = await heldMeetings(db, visible.map((s) => s.id), from, today);
  const out: MeetingToReview[] = [];
  const closedByProgram = new Map<number | null, Set<string>>();
  for (const s of visible) {
    const calendar = await getMeetingCalendar(db, s.id);
    if (!calendar) continue;
    if (!closedByProgram.has(calendar.programId)) closedByProgram.set(calendar.programId, await closedDates(db, { from, to: today, programId: calendar.programId }));
    const closed = closedByProgram.get(calendar.programId)!;
    for (let d = from; d <= today; d = addDays(d, 1)) {
      if (closed.has(d) || whyNotAMeeting(d, calendar) !== null || held.has(`${s.id}|${d}`)) continue;
      if (classWindow(d, s.startTime, s.endTime, timeZone).end.getTime() > now.getTime()) continue;
      out.push({ scheduleId: s.id, courseCode: s.courseCode, courseName: s.courseName, date: d, startTime: s.startTime.slice(0, 5), endTime: s.endTime.slice(0, 5), rosterCount: s.rosterCount });
    }
  }
  return out.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : a.startTime < b.startTime ? -1 : 1));
}
