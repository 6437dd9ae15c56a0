import { createHash, randomBytes } from 'node:crypto';
import type { DbOrTx } from '../../db/client.ts';
import { findKnownDeviceId, insertKnownDevice, pruneKnownDevices, touchKnownDevice } from './queries.ts';

/**
 * A long-lived httpOnly cookie marking a browser that has signed in before. One browser may be
 * shared by several staff (a front-desk computer), so the cookie holds up to MAX_TOKENS tokens,
 * newest first, each known (by its SHA-256 only) for one account.
 */
// Not muster_device: that is the check-in device cookie (path /api), sent on these paths too.
export const DEVICE_COOKIE = 'muster_known_browser';
export const DEVICE_COOKIE_MAX_AGE_SECONDS = 400 * 24 * 60 * 60; // the longest a browser keeps a cookie
const MAX_TOKENS = 5;
// A person's browsers, newest first; older ones are forgotten (private windows add one each time).
const MAX_DEVICES_PER_USER = 30;
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** The well-formed tokens of a device cookie, newest first. */
function deviceTokens(cookie: string | undefined): string[] {
  if (!cookie) return [];
  return cookie
    .split('.')
    .filter((t) => TOKEN_PATTERN.test(t))
    .slice(0, MAX_TOKENS);
}

/** The known_devices id of this browser for this account, or null when it has not signed in to it here. */
export async function findKnownDevice(db: DbOrTx, userId: number, cookie: string | undefined): Promise<string | null> {
  const ids = deviceTokens(cookie).map(hashToken);
  if (ids.length === 0) return null;
  return findKnownDeviceId(db, userId, ids);
}

/**
 * After a successful sign-in: refresh this browser's entry for the account, or make one. Returns
 * the cookie value to set (the new token first, then the browser's tokens for other accounts).
 */
export async function rememberDevice(db: DbOrTx, userId: number, known: string | null, cookie: string | undefined, now: Date): Promise<string> {
  const tokens = deviceTokens(cookie);
  if (known) {
    await touchKnownDevice(db, known, now);
    return tokens.join('.');
  }
  const token = randomBytes(32).toString('base64url');
  await insertKnownDevice(db, hashToken(token), userId, now);
  await pruneKnownDevices(db, userId, MAX_DEVICES_PER_USER);
  return [token, ...tokens].slice(0, MAX_TOKENS).join('.');
}
