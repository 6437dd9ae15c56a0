// The public check-in's way in: the scan page's session and pass, the typed code, and what admits a phone to check in.
import { SCAN_CODE_NO_MATCH, SCAN_OPEN_LINK, SCAN_STALE_CODE } from '../../../common/attendance.ts';
import type { PublicSessionAnswer } from '../../../common/qr-sessions.ts';
import type { DbOrTx } from '../../db/client.ts';
import { AppError, notFound } from '../../lib/errors.ts';
import { beginCodeAttempt, type CodeAttempt } from './code-attempts.ts';
import { openSessions, type SessionRow } from './queries.ts';
import { closesAt, findPublicSession, sessionClosing, sessionStatus } from './sessions.ts';
import { isFreshCode, isFreshQrToken, isFreshToken, isTypedCode, issuePass, readPass, type PassFacts } from './tokens.ts';

/**
 * What the public scan page shows; the fresh QR token of the scan URL earns this device a short pass
 * to finish the form. Only the QR token does: six typed digits here would tell a guesser, by the
 * pass, that they were right, without being counted (they are checked where typed). Without a fresh
 * token, a pass this device holds already (`kept`, the scan page's pass cookie) is given back while
 * it is valid: a reload, or the page the typed code leads to, needs no second code.
 */
export async function publicSession(
  db: DbOrTx,
  sessionId: string,
  token: string | undefined,
  deviceId: string,
  now: Date,
  kept?: string,
): Promise<PublicSessionAnswer> {
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

type CheckInAdmission = {
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
