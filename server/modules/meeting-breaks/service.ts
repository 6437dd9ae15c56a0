import { BREAK_ALREADY_OPEN, BREAK_SESSION_CLOSED, NO_BREAK_OPEN, RECHECK_DEFAULT_MINUTES, type MeetingBreakAnswer } from '../../../common/qr-sessions.ts';
import type { Role } from '../../../common/roles.ts';
import type { Db, DbOrTx } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import { pgError } from '../../lib/db-errors.ts';
import { AppError } from '../../lib/errors.ts';
import { classWindow, minutesAfterBreakStarted, scheduledMinutes } from '../attendance/service.ts';
import { recordAudit } from '../audit-logs/service.ts';
import { endedMeetingBreaksOf, meetingBreakOf, runnableSession, sessionClosing, toMeetingBreak, type SessionRow } from '../qr-sessions/service.ts';
import { getSettings } from '../settings/service.ts';
import {
  checkOutForMeetingBreak,
  endMeetingBreakRow,
  insertMeetingBreak,
  lockOpenMeetingBreak,
  reduceScheduledMinutes,
  studentsStillOnBreak,
} from './queries.ts';

// Instructor-led breaks (docs/decisions/052): "Break for everyone" and "End break" on Take
// Attendance. A break belongs to the meeting (schedule and date), whichever of its sessions runs it.

type User = { id: number; role: Role };
type Ctx = { clock: Clock; ip: string | null };

/** The meeting's break as the routes answer it, with how many students it has out now. */
async function answer(db: DbOrTx, s: SessionRow, id: number): Promise<MeetingBreakAnswer> {
  const meetingBreak = await meetingBreakOf(db, s);
  return { meetingBreak: toMeetingBreak(meetingBreak!), studentsOnBreak: await studentsStillOnBreak(db, id) };
}

/**
 * "Break for everyone": in one transaction, the meeting's break starts now and every student checked
 * in and not already out goes on it (an open attendance_breaks row of kind instructor). 409 when the
 * session takes no more scans (nobody could come back through it) or the class is on a break already.
 * Who may: whoever may run the session (its class's instructor, staff who take attendance).
 */
export async function startMeetingBreak(db: Db, user: User, ref: string, ctx: Ctx): Promise<MeetingBreakAnswer> {
  const s = await runnableSession(db, user, ref);
  const now = ctx.clock.now();
  if (sessionClosing(s, now)) throw new AppError(409, 'SESSION_CLOSED', BREAK_SESSION_CLOSED);
  return db.transaction(async (tx) => {
    let id: number;
    try {
      id = await insertMeetingBreak(tx, { scheduleId: s.scheduleId, sessionDate: s.sessionDate, qrSessionId: s.id, startedAt: now, startedBy: user.id });
    } catch (err) {
      if (pgError(err).constraint === 'meeting_breaks_one_open') throw new AppError(409, 'BREAK_OPEN', BREAK_ALREADY_OPEN);
      throw err;
    }
    const recordIds = await checkOutForMeetingBreak(tx, { meetingBreakId: id, scheduleId: s.scheduleId, sessionDate: s.sessionDate, at: now });
    const { timeZone } = (await getSettings(tx)).attendance;
    await minutesAfterBreakStarted(tx, recordIds, classWindow(s.sessionDate, s.startTime, s.endTime, timeZone, s.breaks), now);
    await recordAudit(tx, {
      userId: user.id,
      action: 'Create',
      tableName: 'meeting_breaks',
      recordId: id,
      ipAddress: ctx.ip,
      newValues: { scheduleId: s.scheduleId, sessionDate: s.sessionDate, qrSessionId: s.id, startedAt: now, recordsOnBreak: recordIds },
      at: now,
    });
    return answer(tx, s, id);
  });
}

/**
 * "End break": the meeting's open break ends now and its students may scan again until
 * `recheckMinutes` from now (attendance/submit.ts credits them back from the break's end). The break
 * is not scheduled time, so the meeting's records lose the minutes of the class it covered (a record
 * written later leaves it out by itself: rules.ts scheduledMinutes with the ended breaks). Allowed on
 * a closed session too, so a break is never left open. 409 when the class is not on a break.
 */
export async function endMeetingBreak(db: Db, user: User, ref: string, recheckMinutes: number | undefined, ctx: Ctx): Promise<MeetingBreakAnswer> {
  const s = await runnableSession(db, user, ref);
  const now = ctx.clock.now();
  const window = recheckMinutes ?? RECHECK_DEFAULT_MINUTES;
  const { timeZone } = (await getSettings(db)).attendance;
  return db.transaction(async (tx) => {
    const open = await lockOpenMeetingBreak(tx, s);
    if (!open) throw new AppError(409, 'NO_BREAK_OPEN', NO_BREAK_OPEN);
    const earlier = await endedMeetingBreaksOf(tx, s);
    const endedAt = now < open.startedAt ? open.startedAt : now;
    const recheckUntil = new Date(endedAt.getTime() + window * 60_000);
    await endMeetingBreakRow(tx, open.id, { endedAt, recheckUntil, endedBy: user.id });
    const classTime = classWindow(s.sessionDate, s.startTime, s.endTime, timeZone, s.breaks);
    const lessMinutes = scheduledMinutes(classTime, earlier) - scheduledMinutes(classTime, [...earlier, [open.startedAt.getTime(), endedAt.getTime()]]);
    const recordsChanged = await reduceScheduledMinutes(tx, { scheduleId: s.scheduleId, sessionDate: s.sessionDate, minutes: lessMinutes, now });
    await recordAudit(tx, {
      userId: user.id,
      action: 'Update',
      tableName: 'meeting_breaks',
      recordId: open.id,
      ipAddress: ctx.ip,
      oldValues: { endedAt: null, recheckUntil: null },
      newValues: { endedAt, recheckUntil, recheckMinutes: window, scheduledMinutesLess: lessMinutes, recordsChanged },
      at: now,
    });
    return answer(tx, s, open.id);
  });
}
