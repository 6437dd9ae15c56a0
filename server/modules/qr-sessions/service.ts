import { randomBytes } from 'node:crypto';
import QRCode from 'qrcode';
import {
  SCAN_CODE_NO_MATCH,
  SCAN_OPEN_LINK,
  SCAN_STALE_CODE,
  SESSION_ALREADY_OPEN,
  START_EARLY_MINUTES,
  type StartCheck,
} from '../../../common/attendance.ts';
import {
  CHECK_OUT_GRACE_MINUTES,
  CLOSING_WARNING_MINUTES,
  EXTEND_LIMIT,
  SESSION_HAS_EXPIRED,
  SESSION_MAX_HOURS,
  SESSION_WAS_ENDED,
  type MeetingBreak,
  type PublicSessionAnswer,
  type QrSessionAnswer,
  type QrSessionDetail,
  type SessionClosing,
} from '../../../common/qr-sessions.ts';
import type { Schedule } from '../../../common/schedules.ts';
import type { Role } from '../../../common/roles.ts';
import type { Db, DbOrTx } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import { pgError } from '../../lib/db-errors.ts';
import { AppError, conflict, notFound } from '../../lib/errors.ts';
import { localDate, localTimeOfDay, minutesOfDay, zonedInstant } from '../../lib/school-time.ts';
import { isLoopbackHost, networkBaseUrls } from '../../lib/network-addresses.ts';
import { assertMayRunSession, viewerScope, type ViewerScope } from '../access/service.ts';
import { recordAudit } from '../audit-logs/service.ts';
import { usableSchedule, whyNotMeetingOn } from '../schedules/service.ts';
import { getSettings } from '../settings/service.ts';
import { beginCodeAttempt, type CodeAttempt } from './code-attempts.ts';
import {
  closeExpired,
  endSessionNow,
  endedMeetingBreaks,
  insertSession,
  latestMeetingBreak,
  lockSession,
  openSessions,
  recentSessionMeetings,
  sessionById,
  sessionByUuid,
  setSessionExpiry,
  type MeetingBreakRow,
  type RecentMeeting,
  type SessionRow,
} from './queries.ts';
import { isFreshCode, isFreshQrToken, isFreshToken, isTypedCode, issuePass, readPass, shortCodeAt, tokenAt, type PassFacts } from './tokens.ts';

// The public check-in's cookies, for this module's routes and the attendance submit route.
export { PUBLIC_RATE_LIMIT, SCAN_PAGES_PATH, TYPED_CODE_RATE_LIMIT, checkInDevice, passFromCookie, setPassCookie, type CheckInDevice } from './device-cookies.ts';
export type { PassFacts } from './tokens.ts';
export type { MeetingBreakRow, RecentMeeting, SessionRow } from './queries.ts';

type User = { id: number; role: Role };

const EXPIRING_MS = CLOSING_WARNING_MINUTES * 60_000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** When the session stops taking scans: its expiry, or when it was ended. */
export const closesAt = (r: Pick<SessionRow, 'expiresAt' | 'endedAt'>) => (r.endedAt && r.endedAt < r.expiresAt ? r.endedAt : r.expiresAt);

export function sessionStatus(r: Pick<SessionRow, 'expiresAt' | 'endedAt' | 'isActive'>, now: Date): 'active' | 'expiring' | 'expired' {
  const left = closesAt(r).getTime() - now.getTime();
  if (!r.isActive || left <= 0) return 'expired';
  return left <= EXPIRING_MS ? 'expiring' : 'active';
}

/**
 * How a session closed, for what students are told: `ended` when End Session closed it before its
 * time (its endedAt is before its expiresAt), `expired` when its time ran out (or it was ended after
 * that); null while it takes scans. The check-in path and the scan page say "ended" for `ended`.
 */
export function sessionClosing(r: Pick<SessionRow, 'expiresAt' | 'endedAt' | 'isActive'>, now: Date): SessionClosing | null {
  if (r.endedAt && r.endedAt < r.expiresAt) return 'ended';
  return sessionStatus(r, now) === 'expired' ? 'expired' : null;
}

function toQrSession(r: SessionRow, now: Date): QrSessionAnswer {
  return {
    id: r.id,
    sessionId: r.sessionId,
    scheduleId: r.scheduleId,
    createdAt: r.createdAt.toISOString(),
    expiresAt: closesAt(r).toISOString(),
    endedAt: r.endedAt?.toISOString() ?? null,
    sessionDate: r.sessionDate,
    status: sessionStatus(r, now),
    closed: sessionClosing(r, now),
    courseName: r.courseName,
    courseCode: r.courseCode,
    roomNumber: r.roomNumber,
    startTime: r.startTime,
    endTime: r.endTime,
    instructorName: r.instructorName,
  };
}

/** A session by numeric id or by its public UUID: for staff routes. */
export async function findSession(db: DbOrTx, ref: string): Promise<SessionRow | null> {
  if (UUID.test(ref)) return sessionByUuid(db, ref);
  return /^\d{1,9}$/.test(ref) ? sessionById(db, Number(ref)) : null;
}

/** The form of a session's public id; anything else names no session on a public route. */
export const isSessionUuid = (ref: string): boolean => UUID.test(ref);

/** A session by its public UUID only: for the public routes, so sequential ids cannot be walked. */
export async function findPublicSession(db: DbOrTx, sessionId: string): Promise<SessionRow | null> {
  return isSessionUuid(sessionId) ? sessionByUuid(db, sessionId) : null;
}

/** Close sessions past their expiry so the one-open-session-per-schedule rule lets a new one start. */
export async function closeExpiredSessions(db: DbOrTx, now: Date, scheduleId?: number): Promise<number> {
  return closeExpired(db, now, scheduleId);
}

/** Meetings (schedule + date) that ran a QR session in the last two weeks: the auto-absent job's work list. */
export async function listRecentSessionMeetings(db: DbOrTx, now: Date): Promise<RecentMeeting[]> {
  return recentSessionMeetings(db, now);
}

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
export function sessionClosesAt(
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
export async function startSession(db: Db, user: User, scheduleId: number, ctx: { clock: Clock; ip: string | null }): Promise<QrSessionAnswer & { warning: string | null }> {
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
    await recordAudit(tx, { userId: user.id, action: 'Create', tableName: 'qr_sessions', recordId: id, ipAddress: ip, newValues: { scheduleId, expiresAt, lasts: s.lasts }, at: now });
    return toQrSession((await sessionById(tx, id))!, now);
  });
}

/** Open sessions the user may see: an instructor's own, everyone's for staff. */
export async function listActiveSessions(db: DbOrTx, user: User, now: Date): Promise<QrSessionAnswer[]> {
  return listActiveSessionsIn(db, viewerScope(user), now);
}

/** Open sessions of a scope's schedules, newest first (the dashboard reads them by its scope). */
export async function listActiveSessionsIn(db: DbOrTx, scope: ViewerScope, now: Date): Promise<QrSessionAnswer[]> {
  const rows = await openSessions(db, now, scope.instructorId);
  return rows.map((r) => toQrSession(r, now));
}

/**
 * One session, open or closed (with how it closed), and its meeting's break (open, else the latest):
 * the projector's and Take Attendance's read. Instructors: their own only.
 */
export async function getSession(db: DbOrTx, user: User, ref: string, now: Date): Promise<QrSessionDetail> {
  const s = await runnableSession(db, user, ref);
  const meetingBreak = await latestMeetingBreak(db, s);
  return { ...toQrSession(s, now), meetingBreak: meetingBreak && toMeetingBreak(meetingBreak) };
}

export async function endSession(db: Db, user: User, ref: string, ctx: { clock: Clock; ip: string | null }): Promise<QrSessionAnswer> {
  const s = await runnableSession(db, user, ref);
  const now = ctx.clock.now();
  return db.transaction(async (tx) => {
    await endSessionNow(tx, s.id, now);
    await recordAudit(tx, { userId: user.id, action: 'Update', tableName: 'qr_sessions', recordId: s.id, ipAddress: ctx.ip, oldValues: { isActive: s.isActive }, newValues: { isActive: false }, at: now });
    return toQrSession((await sessionById(tx, s.id))!, now);
  });
}

/** 410 for a session that takes no more scans: ended by the instructor, or its time ran out. */
function closedError(closing: SessionClosing): AppError {
  return closing === 'ended' ? new AppError(410, 'SESSION_ENDED', SESSION_WAS_ENDED) : new AppError(410, 'SESSION_EXPIRED', SESSION_HAS_EXPIRED);
}

/**
 * Keep an open session open `minutes` longer (the projector's Extend, before it closes): the same
 * access as starting one (an instructor, their own classes only). Audited with the old and new
 * close. A closed session is not reopened (410); a session stays open at most SESSION_MAX_HOURS
 * after its start (409 EXTEND_LIMIT).
 */
export async function extendSession(db: Db, user: User, ref: string, minutes: number, ctx: { clock: Clock; ip: string | null }): Promise<QrSessionAnswer> {
  const found = await runnableSession(db, user, ref);
  const now = ctx.clock.now();
  return db.transaction(async (tx) => {
    // Two Extend clicks (the projector and the panel) add up, one after the other.
    await lockSession(tx, found.id);
    const s = (await sessionById(tx, found.id))!;
    const closing = sessionClosing(s, now);
    if (closing) throw closedError(closing);
    const expiresAt = new Date(s.expiresAt.getTime() + minutes * 60_000);
    if (expiresAt.getTime() > s.createdAt.getTime() + SESSION_MAX_HOURS * 3_600_000) throw new AppError(409, 'EXTEND_LIMIT', EXTEND_LIMIT);
    await setSessionExpiry(tx, s.id, expiresAt);
    await recordAudit(tx, {
      userId: user.id,
      action: 'Update',
      tableName: 'qr_sessions',
      recordId: s.id,
      ipAddress: ctx.ip,
      oldValues: { expiresAt: s.expiresAt },
      newValues: { expiresAt, extendedByMinutes: minutes },
      at: now,
    });
    return toQrSession((await sessionById(tx, s.id))!, now);
  });
}

/** The current QR (PNG data URL) and scan URL; they change every 15 s. */
export async function currentQrImage(db: DbOrTx, user: User, ref: string, baseUrl: string, now: Date) {
  const s = await runnableSession(db, user, ref);
  const closing = sessionClosing(s, now);
  if (closing) throw closedError(closing);
  const { token, rotatesAt } = tokenAt(s.tokenSecret, s.sessionId, now);
  const attendanceUrl = `${baseUrl.replace(/\/$/, '')}/attendance/scan/${s.sessionId}?t=${token}`;
  const qrCode = await QRCode.toDataURL(attendanceUrl, { width: 384, margin: 1, errorCorrectionLevel: 'M' });
  return { qrCode, attendanceUrl, rotatesAt: rotatesAt.toISOString(), shortCode: shortCodeAt(s.tokenSecret, s.sessionId, now), ...reachabilityOf(attendanceUrl) };
}

/** Whether phones can reach the scan URL; when it is loopback, the addresses they could use instead. */
export function reachabilityOf(attendanceUrl: string): { loopback: boolean; networkUrls: string[] } {
  const url = new URL(attendanceUrl);
  const loopback = isLoopbackHost(url.hostname);
  return { loopback, networkUrls: loopback ? networkBaseUrls(url.protocol, url.port) : [] };
}

/**
 * What the public scan page shows; the fresh QR token of the scan URL earns this device a short pass
 * to finish the form. Only the QR token does: six typed digits here would tell a guesser, by the
 * pass, that they were right, without being counted (they are checked where typed). Without a fresh
 * token, a pass this device holds already (`kept`, the scan page's pass cookie) is given back while
 * it is valid: a reload, or the page the typed code leads to, needs no second code.
 */
export async function publicSession(db: DbOrTx, sessionId: string, token: string | undefined, deviceId: string, now: Date, kept?: string): Promise<PublicSessionAnswer> {
  const s = await findPublicSession(db, sessionId);
  if (!s) throw notFound('Session');
  const status = sessionStatus(s, now);
  const fresh = status !== 'expired' && token != null && isFreshQrToken(s.tokenSecret, s.sessionId, token, now);
  const held = !fresh && status !== 'expired' && kept ? readPass(s.tokenSecret, s.sessionId, deviceId, kept) : null;
  const pass = fresh
    ? issuePass(s.tokenSecret, s.sessionId, deviceId, now)
    : held?.forThisDevice && held.expiresAt > now
      ? { pass: kept!, expiresAt: held.expiresAt }
      : null;
  return {
    sessionId: s.sessionId,
    courseName: s.courseName,
    courseCode: s.courseCode,
    roomNumber: s.roomNumber,
    sessionDate: s.sessionDate,
    startTime: s.startTime,
    endTime: s.endTime,
    expiresAt: closesAt(s).toISOString(),
    serverTime: now.toISOString(),
    status,
    closed: sessionClosing(s, now),
    pass: pass?.pass ?? null,
    passExpiresAt: pass?.expiresAt.toISOString() ?? null,
  };
}

/**
 * A student who cannot scan types the six-digit code shown in class at /attendance/scan. The code
 * names no session, so every open session is tried; a match gives this device the same short pass
 * as opening a fresh QR code. Every attempt counts against this address's wrong-code limit (a
 * match is given back); over it, right and wrong codes alike get 429. No open session shows the
 * code: 404 CODE_NOT_FOUND.
 */
export async function sessionForTypedCode(
  db: DbOrTx,
  code: string,
  deviceId: string,
  ctx: { ip: string | null; now: Date },
): Promise<{ sessionId: string; courseName: string; pass: string; passExpiresAt: string }> {
  const { now } = ctx;
  const attempt = await beginCodeAttempt(db, ctx.ip, null, now);
  const open = await openSessions(db, now, null);
  const match = open.find((s) => isFreshCode(s.tokenSecret, s.sessionId, code, now));
  if (!match) throw new AppError(404, 'CODE_NOT_FOUND', SCAN_CODE_NO_MATCH);
  await attempt.succeeded();
  const pass = issuePass(match.tokenSecret, match.sessionId, deviceId, now);
  return { sessionId: match.sessionId, courseName: match.courseName, pass: pass.pass, passExpiresAt: pass.expiresAt.toISOString() };
}

export type CheckInAdmission = {
  /** The pass the browser sent, when this server issued it for this session (to any device). */
  pass: PassFacts | null;
  /** A valid pass of this device: the code is not in question. */
  passOk: boolean;
  /** Without a valid pass: the code typed or scanned is a fresh one. */
  codeOk: boolean;
  /** The counted typed-code attempt, to give back when it checks a student in. */
  attempt: CodeAttempt | null;
};

/**
 * What lets a phone check in to a session: a pass from opening a fresh QR code (not guessable: with
 * a valid one the code is not in question), or the code on the screen now. Six typed digits can be
 * guessed and are counted (429 over the limit); the QR's 72-bit token cannot be. Refuses a form sent
 * with neither (403 OPEN_LINK) or with only a stale pass (403 STALE_CODE).
 */
export async function admitToCheckIn(
  db: DbOrTx,
  session: Pick<SessionRow, 'sessionId' | 'tokenSecret'>,
  c: { pass?: string | null; token?: string | null; deviceId: string; ip: string | null; now: Date },
): Promise<CheckInAdmission> {
  const pass = c.pass ? readPass(session.tokenSecret, session.sessionId, c.deviceId, c.pass) : null;
  const passOk = pass != null && pass.forThisDevice && pass.expiresAt.getTime() > c.now.getTime();
  if (passOk) return { pass, passOk, codeOk: false, attempt: null };
  // Nothing at all: a form posted without opening the QR link (or a SPEC client without its cookie).
  if (!c.token && !c.pass) throw new AppError(403, 'OPEN_LINK', SCAN_OPEN_LINK);
  if (!c.token) throw new AppError(403, 'STALE_CODE', SCAN_STALE_CODE);
  const attempt = isTypedCode(c.token) ? await beginCodeAttempt(db, c.ip, session.sessionId, c.now) : null;
  return { pass, passOk, codeOk: isFreshToken(session.tokenSecret, session.sessionId, c.token, c.now), attempt };
}

// ---- Instructor-led breaks (issue 29; docs/decisions/052) ----

/** A meeting break as the routes answer it. */
export const toMeetingBreak = (b: MeetingBreakRow): MeetingBreak => ({
  id: b.id,
  startedAt: b.startedAt.toISOString(),
  endedAt: b.endedAt?.toISOString() ?? null,
  recheckUntil: b.recheckUntil?.toISOString() ?? null,
});

type Meeting = { scheduleId: number; sessionDate: string };

/** A meeting's open break or, when none is open, its latest (a re-check-in reads its window); null when it had none. */
export async function meetingBreakOf(db: DbOrTx, meeting: Meeting): Promise<MeetingBreakRow | null> {
  return latestMeetingBreak(db, meeting);
}

/** A meeting's ended instructor-led breaks as [from, to] epoch ms, in order: not scheduled time (rules.ts scheduledMinutes). */
export async function endedMeetingBreaksOf(db: DbOrTx, meeting: Meeting): Promise<[number, number][]> {
  return endedMeetingBreaks(db, meeting);
}

/** The session `ref` (numeric id or UUID) when the user may run it (its class's instructor, staff who take attendance); 404, 403. */
export async function runnableSession(db: DbOrTx, user: User, ref: string): Promise<SessionRow> {
  const s = await findSession(db, ref);
  if (!s) throw notFound('Session');
  assertMayRunSession(user, s);
  return s;
}
