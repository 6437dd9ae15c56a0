// Meetings as a whole: absences marked after them, ones cancelled or restored, ones held, ones to review.
import { MEETING_REVIEW_DAYS, type MeetingToReview } from '../../../common/attendance.ts';
import type { Role } from '../../../common/roles.ts';
import type { Db, DbOrTx } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import { badRequest, conflict, notFound } from '../../lib/errors.ts';
import { addDays, localDate } from '../../lib/school-time.ts';
import { assertMayUseSchedule, WHOLE_SCHOOL } from '../access/service.ts';
import { recordAudit } from '../audit-logs/service.ts';
import { closedDates } from '../calendar/service.ts';
import { closeExpiredSessions, listActiveSessionsIn, listRecentSessionMeetings } from '../qr-sessions/service.ts';
import { cancelMeetingOn, getMeetingCalendar, listVisibleSchedules, restoreMeetingOn } from '../schedules/service.ts';
import { getSettings } from '../settings/service.ts';
import { countKeptMeetingRecords, deleteAutoAbsences, insertAbsences, selectHeldMeetings, tryAutoAbsentLock } from './absence-queries.ts';
import { classWindow, scheduledMinutes, whyNotAMeeting } from './rules.ts';

type User = { id: number; role: Role };
type Ctx = { clock: Clock; ip: string | null };

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
      marked += await insertAbsences(tx, {
        scheduleId: m.scheduleId,
        sessionDate: m.sessionDate,
        scheduledMinutes: scheduledMinutes(window, m.instructorBreaks),
        now,
      });
    }
    return marked;
  });
}

// ---- Meetings that did not take place (decision 043) ----

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
    if (kept > 0)
      throw conflict(`Attendance was taken at this meeting (${kept} record${kept === 1 ? '' : 's'}): correct those records instead of cancelling it`, 'date');
    const removed = await deleteAutoAbsences(tx, scheduleId, date);
    await cancelMeetingOn(tx, scheduleId, date);
    await recordAudit(tx, {
      userId: user.id,
      action: 'Update',
      tableName: 'schedules',
      recordId: scheduleId,
      ipAddress: ctx.ip,
      newValues: { cancelledMeeting: date, reason, automaticAbsencesRemoved: removed },
      at: ctx.clock.now(),
    });
  });
}

/** DELETE /api/schedules/{id}/meetings/{date}/cancel: the meeting took place after all. */
export async function restoreMeeting(db: Db, user: User, scheduleId: number, date: string, reason: string, ctx: Ctx): Promise<void> {
  await assertMayUseSchedule(db, user, scheduleId);
  await db.transaction(async (tx) => {
    if (!(await restoreMeetingOn(tx, scheduleId, date))) throw notFound('Cancelled meeting');
    await recordAudit(tx, {
      userId: user.id,
      action: 'Update',
      tableName: 'schedules',
      recordId: scheduleId,
      ipAddress: ctx.ip,
      newValues: { restoredMeeting: date, reason },
      at: ctx.clock.now(),
    });
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
  const held = await heldMeetings(
    db,
    visible.map((s) => s.id),
    from,
    today,
  );
  const out: MeetingToReview[] = [];
  const closedByProgram = new Map<number | null, Set<string>>();
  for (const s of visible) {
    const calendar = await getMeetingCalendar(db, s.id);
    if (!calendar) continue;
    if (!closedByProgram.has(calendar.programId))
      closedByProgram.set(calendar.programId, await closedDates(db, { from, to: today, programId: calendar.programId }));
    const closed = closedByProgram.get(calendar.programId)!;
    for (let d = from; d <= today; d = addDays(d, 1)) {
      if (closed.has(d) || whyNotAMeeting(d, calendar) !== null || held.has(`${s.id}|${d}`)) continue;
      if (classWindow(d, s.startTime, s.endTime, timeZone).end.getTime() > now.getTime()) continue;
      out.push({
        scheduleId: s.id,
        courseCode: s.courseCode,
        courseName: s.courseName,
        date: d,
        startTime: s.startTime.slice(0, 5),
        endTime: s.endTime.slice(0, 5),
        rosterCount: s.rosterCount,
      });
    }
  }
  return out.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : a.startTime < b.startTime ? -1 : 1));
}
