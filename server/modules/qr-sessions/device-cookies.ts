import { randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';

// The cookies the public check-in routes share (qr-sessions opens the link, attendance takes the
// submit, scan serves the pages); they reach the other modules through this module's service.

const DEVICE_COOKIE = 'muster_device';
// A campus behind one school Wi-Fi address: a class of 60, even a morning rush of 1,000, must get
// through. Guessing six-digit codes is stopped by counting every typed code per address and per
// (address, session) (code-attempts.ts), not by this limit.
export const PUBLIC_RATE_LIMIT = { max: 3000, timeWindow: '1 minute' };
// A typed code is tried against every open session: a class's worth of requests a minute.
export const TYPED_CODE_RATE_LIMIT = { max: 300, timeWindow: '1 minute' };

/**
 * The public pages (server/modules/scan) live under this path, the JSON routes under /api: the
 * device and pass cookies are set on both, with one value, so the page that issues a pass and the
 * form or script that spends it name the same device (docs/decisions/028).
 */
export const SCAN_PAGES_PATH = '/attendance/scan';

export type CheckInDevice = {
  id: string;
  /** The browser sent its device cookie; false when this request was given a new one. */
  presented: boolean;
};

// One device per request, however many steps of it ask (a scan page's form checks in, then shows the form again).
const devicesOfRequests = new WeakMap<FastifyRequest, CheckInDevice>();

/** A random id per phone, kept in an httpOnly cookie, so one device cannot check in several students. */
export function checkInDevice(req: FastifyRequest, reply: FastifyReply, secure: boolean): CheckInDevice {
  const known = devicesOfRequests.get(req);
  if (known) return known;
  const existing = req.cookies[DEVICE_COOKIE];
  let device: CheckInDevice;
  if (existing && /^[A-Za-z0-9_-]{16,64}$/.test(existing)) device = { id: existing, presented: true };
  else {
    device = { id: randomBytes(16).toString('base64url'), presented: false };
    for (const path of ['/api', SCAN_PAGES_PATH])
      reply.setCookie(DEVICE_COOKIE, device.id, { path, httpOnly: true, sameSite: 'lax', secure, maxAge: 60 * 60 * 24 * 365 });
  }
  devicesOfRequests.set(req, device);
  return device;
}

/**
 * The pass that opening the QR link (or typing the code) gives also travels as an httpOnly cookie
 * named after its session, sent only to the submit route and the scan pages: a SPEC client that
 * posts the six fields without `pass` or `token` still checks in from the phone that opened the
 * link, and so does the scan page's form, which has no script to hold the pass.
 */
const passCookieName = (sessionUuid: string) => `muster_pass_${sessionUuid.replace(/-/g, '').toLowerCase()}`;
const PASS_COOKIE_PATH = '/api/attendance/submit';

export function setPassCookie(reply: FastifyReply, secure: boolean, sessionUuid: string, pass: string | null, expiresAt: string | null): void {
  if (!pass || !expiresAt) return;
  const maxAge = Math.max(1, Math.floor((Date.parse(expiresAt) - Date.now()) / 1000));
  for (const path of [PASS_COOKIE_PATH, SCAN_PAGES_PATH])
    reply.setCookie(passCookieName(sessionUuid), pass, { path, httpOnly: true, sameSite: 'lax', secure, maxAge });
}

/** The pass cookie of the session a submit names, when the body carries neither pass nor token. */
export function passFromCookie(req: FastifyRequest, sessionUuid: string): string | undefined {
  return /^[0-9a-f-]{36}$/i.test(sessionUuid) ? req.cookies[passCookieName(sessionUuid)] : undefined;
}
