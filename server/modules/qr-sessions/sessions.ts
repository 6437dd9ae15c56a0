// A session's state (open, closing, how it closed) and how one is found, by id, public UUID, or for a user who may run it.
import { CLOSING_WARNING_MINUTES, type QrSessionAnswer, type SessionClosing } from '../../../common/qr-sessions.ts';
import type { Role } from '../../../common/roles.ts';
import type { DbOrTx } from '../../db/client.ts';
import { notFound } from '../../lib/errors.ts';
import { assertMayRunSession } from '../access/service.ts';
import { closeExpired, recentSessionMeetings, sessionById, sessionByUuid, type RecentMeeting, type SessionRow } from './queries.ts';

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

export function toQrSession(r: SessionRow, now: Date): QrSessionAnswer {
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

/** The session `ref` (numeric id or UUID) when the user may run it (its class's instructor, staff who take attendance); 404, 403. */
export async function runnableSession(db: DbOrTx, user: User, ref: string): Promise<SessionRow> {
  const s = await findSession(db, ref);
  if (!s) throw notFound('Session');
  assertMayRunSession(user, s);
  return s;
}
