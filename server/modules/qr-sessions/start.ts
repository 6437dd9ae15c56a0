// Starting a session: whether the class meets now, when the session closes, the session opened and audited.
import { randomBytes } from 'node:crypto';
import { SESSION_ALREADY_OPEN, START_EARLY_MINUTES, type StartCheck } from '../../../common/attendance.ts';
import { CHECK_OUT_GRACE_MINUTES, type QrSessionAnswer } from '../../../common/qr-sessions.ts';
import type { Role } from '../../../common/roles.ts';
import type { Schedule } from '../../../common/schedules.ts';
import type { Db, DbOrTx } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import { pgError } from '../../lib/db-errors.ts';
import { conflict } from '../../lib/errors.ts';
import { localDate, localTimeOfDay, minutesOfDay, zonedInstant } from '../../lib/school-time.ts';
import { recordAudit } from '../audit-logs/service.ts';
import { usableSchedule, whyNotMeetingOn } from '../schedules/service.ts';
import { getSettings } from '../settings/service.ts';
import { insertSession, sessionById } from './queries.ts';
import { closeExpiredSessions, toQrSession } from './sessions.ts';

type User = { id: number; role: Role };

/** Outside the class's hours (from START_EARLY_MINUTES before its start to its end), what to say; else null. */
function offHours(schedule: Pick<Schedule, 'courseName' | 'startTime' | 'endTime'>, time: string): string | null {
  const start = minutesOfDay(schedule.startTime);
  let end = minutesOfDay(schedule.endTime);
  if (end <= start) end += 24 * 60; // the class crosses midnight
  const t = minutesOfDay(time);
  if (t >= start - START_EARLY_MINUTES && t <= end) return null;
  return `${schedule.courseName} meets from ${schedule.startTime} to ${schedule.endTime}; it is ${time} now.`;
}

/** What the start check reads: the schedule, the school's date and zone, and why the class does not meet now (or null). */
async function meetingNow(db: DbOrTx, user: User, scheduleId: number, now: Date) {
  const schedule = await usableSchedule(db, user, scheduleId);
  const { attendance } = await getSettings(db);
  const sessionDate = localDate(now, attendance.timeZone);
  const warning = (await whyNotMeetingOn(db, scheduleId, sessionDate)) ?? offHours(schedule, localTimeOfDay(now, attendance.timeZone));
  return { schedule, sessionDate, warning, attendance };
}

/**
 * Whether the class meets now on the school's clock: null, or why not (another day, a closure, a
 * holiday, outside its hours). Advice only: a session may still be started (a make-up class).
 */
export async function startCheck(db: DbOrTx, user: User, scheduleId: number, now: Date): Promise<StartCheck> {
  const { sessionDate, warning } = await meetingNow(db, user, scheduleId, now);
  return { scheduleId, sessionDate, warning };
}

/**
 * When a session started at `now` closes (docs/decisions/042). During its class (the start check
 * has no warning): at the end of class plus CHECK_OUT_GRACE_MINUTES, so latecomers check in and
 * everyone checks out; never sooner than `qrCodeExpirationMinutes` from now (a session started in
 * the last minutes of class, for check-out). Off schedule (a make-up the calendar does not know, a
 * session started after class): `qrCodeExpirationMinutes` from now.
 */
function sessionClosesAt(
  now: Date,
  meeting: { meetsNow: boolean; sessionDate: string; startTime: string; endTime: string },
  settings: { qrCodeExpirationMinutes: number; timeZone: string },
): Date {
  const unscheduled = new Date(now.getTime() + settings.qrCodeExpirationMinutes * 60_000);
  if (!meeting.meetsNow) return unscheduled;
  let end = minutesOfDay(meeting.endTime);
  if (end <= minutesOfDay(meeting.startTime)) end += 24 * 60; // the class crosses midnight
  const classCloses = zonedInstant(meeting.sessionDate, end + CHECK_OUT_GRACE_MINUTES, settings.timeZone);
  return classCloses > unscheduled ? classCloses : unscheduled;
}

/** Starts a session; its answer carries the start check's warning when the class does not meet now. */
export async function startSession(
  db: Db,
  user: User,
  scheduleId: number,
  ctx: { clock: Clock; ip: string | null },
): Promise<QrSessionAnswer & { warning: string | null }> {
  const now = ctx.clock.now();
  const { schedule, sessionDate, warning, attendance } = await meetingNow(db, user, scheduleId, now);
  const expiresAt = sessionClosesAt(now, { meetsNow: warning == null, sessionDate, startTime: schedule.startTime, endTime: schedule.endTime }, attendance);
  const session = await openSession(db, user, { scheduleId, sessionDate, expiresAt, lasts: warning == null ? 'class' : 'unscheduled' }, now, ctx.ip);
  return { ...session, warning };
}

async function openSession(
  db: Db,
  user: User,
  s: { scheduleId: number; sessionDate: string; expiresAt: Date; lasts: 'class' | 'unscheduled' },
  now: Date,
  ip: string | null,
): Promise<QrSessionAnswer> {
  const { scheduleId, sessionDate, expiresAt } = s;
  return db.transaction(async (tx) => {
    await closeExpiredSessions(tx, now, scheduleId);
    let id: number;
    try {
      id = await insertSession(tx, { scheduleId, createdBy: user.id, tokenSecret: randomBytes(32), sessionDate, createdAt: now, expiresAt });
    } catch (err) {
      if (pgError(err).constraint === 'qr_sessions_one_open_per_schedule') throw conflict(SESSION_ALREADY_OPEN);
      throw err;
    }
    await recordAudit(tx, {
      userId: user.id,
      action: 'Create',
      tableName: 'qr_sessions',
      recordId: id,
      ipAddress: ip,
      newValues: { scheduleId, expiresAt, lasts: s.lasts },
      at: now,
    });
    return toQrSession((await sessionById(tx, id))!, now);
  });
}
