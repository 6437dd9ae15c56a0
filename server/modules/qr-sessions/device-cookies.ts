import { randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';

// The cookies the public check-in routes of two modules share (qr-sessions opens the link, attendance
// takes the submit); they reach attendance through this module's service.

export const DEVICE_COOKIE = 'muster_device';
// A campus behind one school Wi-Fi address: a class of 60, even a morning rush of 1,000, must get
// through. Guessing six-digit codes is stopped by counting every typed code per address and per
// (address, session) (code-attempts.ts), not by this limit.
export const PUBLIC_RATE_LIMIT = { max: 3000, timeWindow: '1 minute' };

export type CheckInDevice = {
  id: string;
  /** The browser sent its device cookie; false when this request was given a new one. */
  presented: boolean;
};

/** A random id per phone, kept in an httpOnly cookie, so one device cannot check in several students. */
export function checkInDevice(req: FastifyRequest, reply: FastifyReply, secure: boolean): CheckInDevice {
  const existing = req.cookies[DEVICE_COOKIE];
  if (existing && /^[A-Za-z0-9_-]{16,64}$/.test(existing)) return { id: existing, presented: true };
  const id = randomBytes(16).toString('base64url');
  reply.setCookie(DEVICE_COOKIE, id, { path: '/api', httpOnly: true, sameSite: 'lax', secure, maxAge: 60 * 60 * 24 * 365 });
  return { id, presented: false };
}

/**
 * The pass that opening the QR link (or typing the code) gives also travels as an httpOnly cookie
 * named after its session, sent only to the submit route: a SPEC client that posts the six fields
 * without `pass` or `token` still checks in from the phone that opened the link.
 */
export const passCookieName = (sessionUuid: string) => `muster_pass_${sessionUuid.replace(/-/g, '').toLowerCase()}`;
export const PASS_COOKIE_PATH = '/api/attendance/submit';

export function setPassCookie(reply: FastifyReply, secure: boolean, sessionUuid: string, pass: string | null, expiresAt: string | null): void {
  if (!pass || !expiresAt) return;
  const maxAge = Math.max(1, Math.floor((Date.parse(expiresAt) - Date.now()) / 1000));
  reply.setCookie(passCookieName(sessionUuid), pass, { path: PASS_COOKIE_PATH, httpOnly: true, sameSite: 'lax', secure, maxAge });
}

/** The pass cookie of the session a submit names, when the body carries neither pass nor token. */
export function passFromCookie(req: FastifyRequest, sessionUuid: string): string | undefined {
  return /^[0-9a-f-]{36}$/i.test(sessionUuid) ? req.cookies[passCookieName(sessionUuid)] : undefined;
}
