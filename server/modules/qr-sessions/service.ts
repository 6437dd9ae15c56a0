import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import QRCode from 'qrcode';
import { SESSION_ALREADY_OPEN, type PublicSession, type QrSession } from '../../../common/attendance.ts';
import type { Role } from '../../../common/roles.ts';
import type { Db, DbOrTx } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import { pgError } from '../../lib/db-errors.ts';
import { AppError, conflict, forbidden, notFound } from '../../lib/errors.ts';
import { localDate } from '../../lib/school-time.ts';
import { asDate } from '../../lib/sql-values.ts';
import { recordAudit } from '../audit-logs/service.ts';
import { assertCanUseSchedule } from '../schedules/service.ts';
import { getSettings } from '../settings/service.ts';
import { beginCodeAttempt } from './code-attempts.ts';
import { isFreshCode, isFreshQrToken, issuePass, shortCodeAt, tokenAt } from './tokens.ts';

type User = { id: number; role: Role };
const EXPIRING_MS = 5 * 60_000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export type SessionRow = {
  id: number;
  session_id: string;
  schedule_id: number;
  token_secret: Buffer;
  session_date: string;
  created_at: Date;
  expires_at: Date;
  ended_at: Date | null;
  is_active: boolean;
  instructor_id: number | null;
  instructor_name: string | null;
  course_name: string;
  course_code: string;
  room_number: string | null;
  start_time: string;
  end_time: string;
};

const SELECT = sql`
  select q.id, q.session_id::text, q.schedule_id, q.token_secret, q.session_date::text, q.created_at, q.expires_at, q.ended_at, q.is_active,
         s.instructor_id, nullif(trim(coalesce(u.first_name, '') || ' ' || coalesce(u.last_name, '')), '') as instructor_name,
         c.course_name, c.course_code, s.room_number, to_char(s.start_time, 'HH24:MI') as start_time, to_char(s.end_time, 'HH24:MI') as end_time
    from qr_sessions q join schedules s on s.id = q.schedule_id join courses c on c.id = s.course_id left join users u on u.id = s.instructor_id`;

/** When the session stops taking scans: its expiry, or when it was ended. */
export const closesAt = (r: Pick<SessionRow, 'expires_at' | 'ended_at'>) => (r.ended_at && r.ended_at < r.expires_at ? r.ended_at : r.expires_at);

export function sessionStatus(r: Pick<SessionRow, 'expires_at' | 'ended_at' | 'is_active'>, now: Date): 'active' | 'expiring' | 'expired' {
  const left = closesAt(r).getTime() - now.getTime();
  if (!r.is_active || left <= 0) return 'expired';
  return left <= EXPIRING_MS ? 'expiring' : 'active';
}

function toQrSession(r: SessionRow, now: Date): QrSession {
  return {
    id: r.id,
    sessionId: r.session_id,
    scheduleId: r.schedule_id,
    createdAt: r.created_at.toISOString(),
    expiresAt: closesAt(r).toISOString(),
    endedAt: r.ended_at?.toISOString() ?? null,
    sessionDate: r.session_date,
    status: sessionStatus(r, now),
    courseName: r.course_name,
    courseCode: r.course_code,
    roomNumber: r.room_number,
    startTime: r.start_time,
    endTime: r.end_time,
    instructorName: r.instructor_name,
  };
}

type RawSessionRow = Omit<SessionRow, 'created_at' | 'expires_at' | 'ended_at'> & { created_at: string | Date; expires_at: string | Date; ended_at: string | Date | null };
const withDates = (r: RawSessionRow): SessionRow => ({ ...r, created_at: asDate(r.created_at), expires_at: asDate(r.expires_at), ended_at: asDate(r.ended_at) });

/** A session by numeric id or by its public UUID: for staff routes. */
export async function findSession(db: DbOrTx, ref: string): Promise<SessionRow | null> {
  const where = UUID.test(ref) ? sql`q.session_id = ${ref}::uuid` : /^\d{1,9}$/.test(ref) ? sql`q.id = ${Number(ref)}` : null;
  if (!where) return null;
  const { rows } = await db.execute<RawSessionRow>(sql`${SELECT} where ${where}`);
  return rows[0] ? withDates(rows[0]) : null;
}

/** The form of a session's public id; anything else names no session on a public route. */
export const isSessionUuid = (ref: string): boolean => UUID.test(ref);

/** A session by its public UUID only: for the public routes, so sequential ids cannot be walked. */
export async function findPublicSession(db: DbOrTx, sessionId: string): Promise<SessionRow | null> {
  return isSessionUuid(sessionId) ? findSession(db, sessionId) : null;
}

function assertOwnSession(user: User, s: SessionRow) {
  if (user.role === 'instructor' && s.instructor_id !== user.id) throw forbidden('This session belongs to another instructor');
}

/** Close sessions past their expiry so the one-open-session-per-schedule rule lets a new one start. */
export async function closeExpiredSessions(db: DbOrTx, now: Date, scheduleId?: number): Promise<number> {
  const result = await db.execute(sql`
    update qr_sessions set is_active = false, ended_at = coalesce(ended_at, expires_at)
     where is_active and expires_at <= ${now} ${scheduleId == null ? sql`` : sql`and schedule_id = ${scheduleId}`}`);
  return result.rowCount ?? 0;
}

export async function startSession(db: Db, user: User, scheduleId: number, ctx: { clock: Clock; ip: string | null }): Promise<QrSession> {
  await assertCanUseSchedule(db, user, scheduleId);
  const now = ctx.clock.now();
  const { attendance } = await getSettings(db);
  return db.transaction(async (tx) => {
    await closeExpiredSessions(tx, now, scheduleId);
    const expiresAt = new Date(now.getTime() + attendance.qrCodeExpirationMinutes * 60_000);
    let id: number;
    try {
      const { rows } = await tx.execute<{ id: number }>(sql`
        insert into qr_sessions (schedule_id, created_by, token_secret, session_date, created_at, expires_at)
        values (${scheduleId}, ${user.id}, ${randomBytes(32)}, ${localDate(now, attendance.timeZone)}, ${now}, ${expiresAt})
        returning id`);
      id = rows[0]!.id;
    } catch (err) {
      if (pgError(err).constraint === 'qr_sessions_one_open_per_schedule') throw conflict(SESSION_ALREADY_OPEN);
      throw err;
    }
    await recordAudit(tx, { userId: user.id, action: 'Create', tableName: 'qr_sessions', recordId: id, ipAddress: ctx.ip, newValues: { scheduleId, expiresAt }, at: now });
    return toQrSession((await findSession(tx, String(id)))!, now);
  });
}

export async function listActiveSessions(db: DbOrTx, user: User, now: Date): Promise<QrSession[]> {
  const own = user.role === 'instructor' ? sql`and s.instructor_id = ${user.id}` : sql``;
  const { rows } = await db.execute<RawSessionRow>(sql`${SELECT} where q.is_active and q.expires_at > ${now} ${own} order by q.created_at desc`);
  return rows.map((r) => toQrSession(withDates(r), now));
}

export async function endSession(db: Db, user: User, ref: string, ctx: { clock: Clock; ip: string | null }): Promise<QrSession> {
  const s = await findSession(db, ref);
  if (!s) throw notFound('Session');
  assertOwnSession(user, s);
  const now = ctx.clock.now();
  return db.transaction(async (tx) => {
    await tx.execute(sql`update qr_sessions set is_active = false, ended_at = least(coalesce(ended_at, ${now}), expires_at) where id = ${s.id}`);
    await recordAudit(tx, { userId: user.id, action: 'Update', tableName: 'qr_sessions', recordId: s.id, ipAddress: ctx.ip, oldValues: { isActive: s.is_active }, newValues: { isActive: false }, at: now });
    return toQrSession((await findSession(tx, String(s.id)))!, now);
  });
}

/** The current QR (PNG data URL) and scan URL; they change every 15 s. */
export async function currentQrImage(db: DbOrTx, user: User, ref: string, baseUrl: string, now: Date) {
  const s = await findSession(db, ref);
  if (!s) throw notFound('Session');
  assertOwnSession(user, s);
  if (sessionStatus(s, now) === 'expired') throw new AppError(410, 'SESSION_EXPIRED', 'This session has ended or expired');
  const { token, rotatesAt } = tokenAt(s.token_secret, s.session_id, now);
  const attendanceUrl = `${baseUrl.replace(/\/$/, '')}/attendance/scan/${s.session_id}?t=${token}`;
  const qrCode = await QRCode.toDataURL(attendanceUrl, { width: 384, margin: 1, errorCorrectionLevel: 'M' });
  return { qrCode, attendanceUrl, rotatesAt: rotatesAt.toISOString(), shortCode: shortCodeAt(s.token_secret, s.session_id, now) };
}

/**
 * What the public scan page shows; the fresh QR token of the scan URL earns this device a short pass
 * to finish the form. Only the QR token does: six typed digits here would tell a guesser, by the
 * pass, that they were right, without being counted (they are checked where typed).
 */
export async function publicSession(db: DbOrTx, sessionId: string, token: string | undefined, deviceId: string, now: Date): Promise<PublicSession> {
  const s = await findPublicSession(db, sessionId);
  if (!s) throw notFound('Session');
  const status = sessionStatus(s, now);
  const fresh = status !== 'expired' && token != null && isFreshQrToken(s.token_secret, s.session_id, token, now);
  const pass = fresh ? issuePass(s.token_secret, s.session_id, deviceId, now) : null;
  return {
    sessionId: s.session_id,
    courseName: s.course_name,
    courseCode: s.course_code,
    roomNumber: s.room_number,
    sessionDate: s.session_date,
    startTime: s.start_time,
    endTime: s.end_time,
    expiresAt: closesAt(s).toISOString(),
    serverTime: now.toISOString(),
    status,
    pass: pass?.pass ?? null,
    passExpiresAt: pass?.expiresAt.toISOString() ?? null,
  };
}

/**
 * A student who cannot scan types the six-digit code shown in class at /attendance/scan. The code
 * names no session, so every open session is tried; a match gives this device the same short pass
 * as opening a fresh QR code. Every attempt counts against this address's wrong-code limit (a
 * match is given back); over it, right and wrong codes alike get 429.
 */
export async function sessionForTypedCode(
  db: DbOrTx,
  code: string,
  deviceId: string,
  ctx: { ip: string | null; now: Date },
): Promise<{ sessionId: string; courseName: string; pass: string; passExpiresAt: string } | null> {
  const { now } = ctx;
  const attempt = await beginCodeAttempt(db, ctx.ip, null, now);
  const { rows } = await db.execute<RawSessionRow>(sql`${SELECT} where q.is_active and q.expires_at > ${now}`);
  const match = rows.map(withDates).find((s) => isFreshCode(s.token_secret, s.session_id, code, now));
  if (!match) return null;
  await attempt.succeeded();
  const pass = issuePass(match.token_secret, match.session_id, deviceId, now);
  return { sessionId: match.session_id, courseName: match.course_name, pass: pass.pass, passExpiresAt: pass.expiresAt.toISOString() };
}
