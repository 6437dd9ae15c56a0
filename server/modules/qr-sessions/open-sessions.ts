// Open sessions as staff run them: listed, read with their break, ended, extended, and their rotating QR.
import QRCode from 'qrcode';
import {
  EXTEND_LIMIT,
  SESSION_HAS_EXPIRED,
  SESSION_MAX_HOURS,
  SESSION_WAS_ENDED,
  type QrSessionAnswer,
  type QrSessionDetail,
  type SessionClosing,
} from '../../../common/qr-sessions.ts';
import type { Role } from '../../../common/roles.ts';
import type { Db, DbOrTx } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import { AppError } from '../../lib/errors.ts';
import { isLoopbackHost, networkBaseUrls } from '../../lib/network-addresses.ts';
import { viewerScope, type ViewerScope } from '../access/service.ts';
import { recordAudit } from '../audit-logs/service.ts';
import { toMeetingBreak } from './breaks.ts';
import { endSessionNow, latestMeetingBreak, lockSession, openSessions, sessionById, setSessionExpiry } from './queries.ts';
import { runnableSession, sessionClosing, toQrSession } from './sessions.ts';
import { shortCodeAt, tokenAt } from './tokens.ts';

type User = { id: number; role: Role };

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
    await recordAudit(tx, {
      userId: user.id,
      action: 'Update',
      tableName: 'qr_sessions',
      recordId: s.id,
      ipAddress: ctx.ip,
      oldValues: { isActive: s.isActive },
      newValues: { isActive: false },
      at: now,
    });
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
  return {
    qrCode,
    attendanceUrl,
    rotatesAt: rotatesAt.toISOString(),
    shortCode: shortCodeAt(s.tokenSecret, s.sessionId, now),
    ...reachabilityOf(attendanceUrl),
  };
}

/** Whether phones can reach the scan URL; when it is loopback, the addresses they could use instead. */
function reachabilityOf(attendanceUrl: string): { loopback: boolean; networkUrls: string[] } {
  const url = new URL(attendanceUrl);
  const loopback = isLoopbackHost(url.hostname);
  return { loopback, networkUrls: loopback ? networkBaseUrls(url.protocol, url.port) : [] };
}
