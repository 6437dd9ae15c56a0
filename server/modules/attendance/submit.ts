import {
  BREAK_INTENTS,
  isBreakIntent,
  SCAN_ALREADY_ON_BREAK,
  SCAN_BREAK_AFTER_CHECK_OUT,
  SCAN_BREAK_NOT_CHECKED_IN,
  SCAN_CHECK_OUT_ON_BREAK,
  SCAN_NOT_ON_BREAK,
  SCAN_CODE_OR_DETAILS,
  SCAN_CONFIRM_CHECK_OUT,
  SCAN_DEVICE_USED,
  SCAN_EXPIRED,
  SCAN_NO_MATCH,
  SCAN_NOT_CHECKED_IN,
  SCAN_NOT_FOUND,
  type AttendanceSubmit,
  type AttendanceSubmitResult,
} from '../../../common/attendance.ts';
import { isAttendedStatus } from '../../../common/constants.ts';
import { SCAN_SESSION_ENDED_TEXT } from '../../../common/qr-sessions.ts';
import type { Db, Tx } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import { AppError } from '../../lib/errors.ts';
import { localTimeOfDay } from '../../lib/school-time.ts';
import { recordAudit } from '../audit-logs/service.ts';
import { admitToCheckIn, isSessionUuid, sessionClosing } from '../qr-sessions/service.ts';
import { endOpenBreak, startBreak } from './break-punch.ts';
import { batchersOf } from './check-in-batch.ts';
import {
  insertCheckIns,
  lockAndReadDeviceCheckIns,
  lockMeetingRecord,
  recordCheckOut,
  type CheckInMeeting,
  type InsertedCheckIn,
  type NewCheckIn,
} from './check-in-queries.ts';
import { droppedCookie, flagPossibleProxy, flagScanAfterOverride } from './proxy-flags.ts';
import { answer } from './punch-answer.ts';
import { breakPunch, minutesWithBreaks } from './punches.ts';
import { checkInStatus, leftEarly, minutesAttended, scheduledMinutes, statusAfterCheckOut } from './rules.ts';

// A check-in again this soon after the first is the same tap retried: answered as the check-in itself.
const RETRY_WINDOW_MS = 2 * 60_000;

/** Case-, accent- and spacing-insensitive comparison of names and e-mails. */
function normalizeName(s: string | null | undefined): string {
  return (s ?? '')
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim();
}

// A refusal of a punch that the code and the student passed: the typed code was no guess.
const PUNCH_REFUSALS = new Set(['CONFIRM_CHECK_OUT', 'NOT_CHECKED_IN', 'ALREADY_CHECKED_OUT', 'ON_BREAK', 'NOT_ON_BREAK']);

type CheckInContext = {
  deviceId: string;
  /** The browser sent its device cookie (false: this request was given a new one). */
  devicePresented: boolean;
  ip: string | null;
  /** SHA-256 of the browser's user agent, languages and client hints (proxy-flags.ts). */
  browserSignature: string;
  clock: Clock;
  /** Told when the proxy check after a check-in fails (the check-in is kept). */
  onProxyCheckFailed: (err: unknown) => void;
};

/**
 * A student's scan. The server decides everything with its own clock: the session (by its public
 * UUID) must be open; the device must hold a pass from opening a fresh QR code, or the form must carry
 * the code on the screen now; the student must be on this class's roster with a matching name or
 * e-mail; and one device checks in one student per meeting. The first scan checks in. A later
 * check-in changes nothing (`already_checked_in`; within two minutes, the same tap retried, it is
 * answered as the check-in itself); only `intent: 'check-out'` checks out, and before
 * end − earlyLeaveThreshold only with `confirm` (else 409 CONFIRM_CHECK_OUT, nothing written). A
 * check-out stands: a later scan of any intent changes nothing.
 *
 * Breaks (docs/decisions/051) go one by one too: `break-start` / `lunch-out` open a break of a
 * checked-in student (409 NOT_CHECKED_IN, ALREADY_CHECKED_OUT, ON_BREAK otherwise); `break-end` /
 * `lunch-in` end the open one (409 NOT_ON_BREAK), and so does a plain check-in (a student back from
 * an instructor's break scans the QR again). A check-out during a break is refused (409 ON_BREAK):
 * the break is ended first, or, not coming back, left open (the student left at its start).
 *
 * What the answers cannot reveal: whether a typed code was right (a wrong code and a right code with
 * details that match nobody get one answer, and every typed code is counted), whether an ID is on the
 * roster (an unknown ID and a wrong name get one answer), and, to a device that has checked someone in
 * already, whether other details would match (it is refused before its details are matched).
 */
export async function submitAttendance(db: Db, input: AttendanceSubmit, ctx: CheckInContext): Promise<AttendanceSubmitResult> {
  const now = ctx.clock.now();
  // Public routes name a session by its UUID only: sequential ids cannot be walked.
  if (!isSessionUuid(input.sessionId)) throw new AppError(404, 'SESSION_NOT_FOUND', SCAN_NOT_FOUND);
  const batchers = batchersOf(db);
  const look = await batchers.reads.add(input.sessionId, { studentId: input.studentId, deviceId: ctx.deviceId });
  const { session, settings, window } = look;
  if (!session || !window) throw new AppError(404, 'SESSION_NOT_FOUND', SCAN_NOT_FOUND);
  const closing = sessionClosing(session, now);
  if (closing === 'ended') throw new AppError(410, 'SESSION_ENDED', SCAN_SESSION_ENDED_TEXT);
  if (closing === 'expired') throw new AppError(410, 'SESSION_EXPIRED', SCAN_EXPIRED);

  // A valid pass, or else the code: refused (or counted, when typed) before anything is written.
  const { pass, passOk, codeOk, attempt } = await admitToCheckIn(db, session, {
    pass: input.pass,
    token: input.token,
    deviceId: ctx.deviceId,
    ip: ctx.ip,
    now,
  });

  const student = look.candidates.find(
    (c) =>
      (normalizeName(c.firstName) === normalizeName(input.firstName) && normalizeName(c.lastName) === normalizeName(input.lastName)) ||
      (c.email != null && normalizeName(c.email) === normalizeName(input.email)),
  );
  const admit = (deviceStudents: number[]) => {
    // Before the details are matched: a used device gets this answer whoever it names.
    if (deviceStudents.some((id) => id !== student?.id)) throw new AppError(409, 'DEVICE_USED', SCAN_DEVICE_USED);
    // One answer for a wrong typed code and for a right one with details that match nobody.
    if (!passOk && (!codeOk || !student)) throw new AppError(403, 'CODE_OR_DETAILS', SCAN_CODE_OR_DETAILS);
    // Same answer for an unknown ID and a wrong name: the page must not reveal which IDs exist.
    if (!student) throw new AppError(400, 'NO_MATCH', SCAN_NO_MATCH);
    return student;
  };
  const matched = admit(look.deviceStudents);

  const meeting: CheckInMeeting = {
    scheduleId: session.scheduleId,
    qrSessionId: session.id,
    sessionDate: session.sessionDate,
    scheduledMinutes: scheduledMinutes(window, session.instructorBreaks),
  };
  const scanStatus = checkInStatus(now, window, settings.attendance.lateThresholdMinutes);
  const newCheckIn: NewCheckIn = {
    studentId: matched.id,
    status: scanStatus,
    now,
    clientTime: input.scanInTime ? new Date(input.scanInTime) : null,
    minutesAttended: minutesAttended(now, null, window),
    deviceId: ctx.deviceId,
    ip: ctx.ip,
    browserSignature: ctx.browserSignature,
  };
  const checkingOut = input.intent === 'check-out';
  const breakIntent = isBreakIntent(input.intent) ? input.intent : null;
  const checkingIn = !checkingOut && !breakIntent;
  // A check-out or a break never inserts: it goes one by one, to the record it changes.
  const insertedNow = checkingIn ? await batchers.inserts.add(input.sessionId, { meeting, row: newCheckIn }) : null;

  const oneByOne = () =>
    db.transaction(async (tx: Tx): Promise<{ answer: AttendanceSubmitResult; checkedIn?: InsertedCheckIn }> => {
      // One by one: serialise this device's check-ins and look again, now under the lock.
      admit(await lockAndReadDeviceCheckIns(tx, { ...meeting, deviceId: ctx.deviceId }));
      if (checkingIn) {
        const [inserted] = await insertCheckIns(tx, meeting, [newCheckIn]);
        if (inserted) return { answer: answer('checked_in', inserted, session.courseName), checkedIn: inserted };
      }

      const record = await lockMeetingRecord(tx, { ...meeting, studentId: matched.id });
      if (!record) {
        if (checkingOut) throw new AppError(409, 'NOT_CHECKED_IN', SCAN_NOT_CHECKED_IN);
        if (breakIntent) throw new AppError(409, 'NOT_CHECKED_IN', SCAN_BREAK_NOT_CHECKED_IN);
        // No record of the student's, so the device's: another instance checked someone in with it just now.
        throw new AppError(409, 'DEVICE_USED', SCAN_DEVICE_USED);
      }
      const scanIn = record.scanInTime;
      if (record.isManualOverride || !scanIn) {
        // Marked absent or excused (by the instructor or the auto-absent job) and now here: the record
        // stands, and the instructor is shown the scan on the roster to correct it with one click.
        if (!isAttendedStatus(record.status)) {
          await flagScanAfterOverride(tx, {
            recordId: record.id,
            qrSessionId: session.id,
            standingStatus: record.status,
            scanStatus,
            localTime: localTimeOfDay(now, settings.attendance.timeZone),
            now,
            origin: { ip: ctx.ip, browserSignature: ctx.browserSignature, deviceId: ctx.deviceId },
          });
        }
        return { answer: answer('already_recorded', record, session.courseName, record.breaks) };
      }
      const { breaks } = record;
      // What the scan page needs to show the student where they stand beside a refusal.
      const standing = { scanInTime: scanIn.toISOString(), breaks: breaks.map(breakPunch) };
      // A check-out stands: another scan, even a check-out (pressed twice, a form sent again later),
      // changes nothing; one made by mistake is the instructor's to undo (undoCheckOut).
      if (record.scanOutTime) {
        if (breakIntent) throw new AppError(409, 'ALREADY_CHECKED_OUT', SCAN_BREAK_AFTER_CHECK_OUT, standing);
        return { answer: answer('checked_out', record, session.courseName, breaks) };
      }
      const open = breaks.find((b) => b.endedAt == null) ?? null;
      const punch = { tx, record: { ...record, scanInTime: scanIn }, window, now, deviceId: ctx.deviceId, ip: ctx.ip, courseName: session.courseName };
      if (breakIntent) {
        const startKind = BREAK_INTENTS[breakIntent];
        if (startKind) {
          if (open) throw new AppError(409, 'ON_BREAK', SCAN_ALREADY_ON_BREAK, standing);
          return { answer: await startBreak(punch, startKind) };
        }
        if (!open) throw new AppError(409, 'NOT_ON_BREAK', SCAN_NOT_ON_BREAK, standing);
        return { answer: await endOpenBreak(punch, open) };
      }
      if (!checkingOut) {
        // A check-in on a break is the student back from it (how everyone returns from an instructor's break).
        if (open) return { answer: await endOpenBreak(punch, open) };
        // A check-in again never checks out (decision 039: a student opening the QR "to make sure" was
        // checked out 11 minutes into class). Within the retry window it is the same tap retried:
        // the check-in's own answer.
        const retried = now.getTime() - scanIn.getTime() < RETRY_WINDOW_MS;
        return { answer: answer(retried ? 'checked_in' : 'already_checked_in', record, session.courseName, breaks) };
      }
      if (open) throw new AppError(409, 'ON_BREAK', SCAN_CHECK_OUT_ON_BREAK, standing);
      const checkInStatusNow = record.status === 'incomplete' ? checkInStatus(scanIn, window, settings.attendance.lateThresholdMinutes) : record.status;
      const newStatus = statusAfterCheckOut(checkInStatusNow, now, window, settings.attendance.earlyLeaveThresholdMinutes);
      const minutes = minutesWithBreaks(scanIn, now, breaks, window);
      // Leaving early is asked twice: the first check-out says what it will record and writes nothing.
      if (leftEarly(now, window, settings.attendance.earlyLeaveThresholdMinutes) && input.confirm !== true) {
        throw new AppError(409, 'CONFIRM_CHECK_OUT', SCAN_CONFIRM_CHECK_OUT, {
          ...standing,
          minutesAttended: minutes,
          scheduledMinutes: meeting.scheduledMinutes,
          classEndsAt: window.end.toISOString(),
        });
      }
      const updated = await recordCheckOut(tx, record.id, { now, status: newStatus, minutes });
      await recordAudit(tx, {
        userId: null,
        action: 'Update',
        tableName: 'attendance',
        recordId: record.id,
        ipAddress: ctx.ip,
        oldValues: { status: record.status, scanOutTime: record.scanOutTime, minutesAttended: record.minutesAttended },
        newValues: { status: newStatus, scanOutTime: now, minutesAttended: minutes },
        at: now,
      });
      return { answer: answer('checked_out', updated, session.courseName, breaks) };
    });
  let outcome: { answer: AttendanceSubmitResult; checkedIn?: InsertedCheckIn };
  try {
    outcome = insertedNow ? { answer: answer('checked_in', insertedNow, session.courseName), checkedIn: insertedNow } : await oneByOne();
  } catch (err) {
    // The code was right and the student matched: a check-out waiting for its confirmation is no guess.
    if (err instanceof AppError && PUNCH_REFUSALS.has(err.code)) await attempt?.succeeded();
    throw err;
  }
  // The typed code checked a student in (or out, or punched a break): it was not a guess.
  await attempt?.succeeded();
  if (outcome.checkedIn) {
    const checkedIn = outcome.checkedIn;
    const origin = { ip: ctx.ip, browserSignature: ctx.browserSignature, deviceId: ctx.deviceId, devicePresented: ctx.devicePresented, pass };
    // The check-in stands whatever happens here; a failed check is reported, never the student's problem.
    try {
      // Most check-ins share their origin with nobody: one look for the batch, and no more for them.
      const shared =
        droppedCookie(origin) != null ||
        (await batchers.origins.add(String(session.id), {
          recordId: checkedIn.id,
          studentId: checkedIn.studentId,
          ip: ctx.ip,
          browserSignature: ctx.browserSignature,
          now,
        }));
      if (shared) await flagPossibleProxy(db, { recordId: checkedIn.id, studentId: checkedIn.studentId, qrSessionId: session.id, now, origin });
    } catch (err) {
      ctx.onProxyCheckFailed(err);
    }
  }
  return outcome.answer;
}
