import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Rotating QR tokens. The QR on the classroom screen encodes the scan URL plus a token derived
 * from the session's secret and the server's clock step (15 s). The current and previous step are
 * accepted, so a code scanned just before it rotates still works; a URL copied a minute ago does not.
 *
 * Opening the scan page with a fresh token earns that device a pass (5 minutes) to finish the form,
 * bound to the device id, so a slow typist is not refused because the code on the screen moved on.
 * Only the QR token opens the page with a pass; the guessable six digits are checked where they are
 * typed, and every wrong one is counted (code-attempts.ts).
 */
export const ROTATE_MS = 15_000;
const PASS_MS = 5 * 60_000;

const mac = (secret: Buffer, message: string, bytes: number) => createHmac('sha256', secret).update(message).digest().subarray(0, bytes).toString('base64url');

// Lengths compared in bytes: a non-ASCII string of the same length in characters would make
// timingSafeEqual throw (a 500) instead of answering false.
const safeEqual = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

export function tokenAt(secret: Buffer, sessionId: string, now: Date): { token: string; rotatesAt: Date } {
  const step = Math.floor(now.getTime() / ROTATE_MS);
  return { token: mac(secret, `qr:${sessionId}:${step}`, 9), rotatesAt: new Date((step + 1) * ROTATE_MS) };
}

/** Six digits a student can type when the QR cannot be scanned from the back row; rotates with the QR. */
export function shortCodeAt(secret: Buffer, sessionId: string, now: Date): string {
  return codeForStep(secret, sessionId, Math.floor(now.getTime() / ROTATE_MS));
}

function codeForStep(secret: Buffer, sessionId: string, step: number): string {
  const n = createHmac('sha256', secret).update(`code:${sessionId}:${step}`).digest().readUInt32BE(0) % 1_000_000;
  return String(n).padStart(6, '0');
}

/** The QR token (from the scan URL's `t`) of the current or the previous step: 72 bits, not guessable. */
// The QR token of a session's step, worked out once: a class of sixty checks in with the same two.
const qrTokens = new Map<string, { secret: Buffer; token: string }>();
function qrTokenOf(secret: Buffer, sessionId: string, step: number): string {
  const key = `${sessionId}:${step}`;
  const hit = qrTokens.get(key);
  if (hit && hit.secret.equals(secret)) return hit.token;
  const token = mac(secret, `qr:${sessionId}:${step}`, 9);
  if (qrTokens.size >= 1000) qrTokens.clear();
  qrTokens.set(key, { secret, token });
  return token;
}

export function isFreshQrToken(secret: Buffer, sessionId: string, token: string, now: Date): boolean {
  const step = Math.floor(now.getTime() / ROTATE_MS);
  return [step, step - 1].some((s) => safeEqual(qrTokenOf(secret, sessionId, s), token));
}

/** Six digits (spaces aside): the guessable kind of code, which is counted wherever it is tried. */
export const isTypedCode = (token: string): boolean => /^\d{6}$/.test(token.replace(/\s+/g, ''));

/** The six digits typed from the screen (a space allowed) of the current or the previous step. */
export function isFreshCode(secret: Buffer, sessionId: string, code: string, now: Date): boolean {
  const typed = code.replace(/\s+/g, '');
  if (!isTypedCode(typed)) return false;
  const step = Math.floor(now.getTime() / ROTATE_MS);
  return [step, step - 1].some((s) => safeEqual(codeForStep(secret, sessionId, s), typed));
}

/** The QR token or the typed short code of the current or the previous step. */
export function isFreshToken(secret: Buffer, sessionId: string, token: string, now: Date): boolean {
  return isFreshQrToken(secret, sessionId, token, now) || isFreshCode(secret, sessionId, token, now);
}

// A pass is `expiry.deviceTag.signature`. The tag is a keyed hash of the device id it was issued to,
// so a pass shown by a browser holding another device cookie (or none) proves that this browser was
// given a cookie and came back without it, without revealing the httpOnly cookie to the page.
const deviceTag = (secret: Buffer, sessionId: string, deviceId: string) => mac(secret, `device:${sessionId}:${deviceId}`, 6);
const passSignature = (secret: Buffer, sessionId: string, tag: string, exp: string) => mac(secret, `pass:${sessionId}:${tag}:${exp}`, 16);

export function issuePass(secret: Buffer, sessionId: string, deviceId: string, now: Date): { pass: string; expiresAt: Date } {
  const expiresAt = new Date(now.getTime() + PASS_MS);
  const exp = expiresAt.getTime().toString(36);
  const tag = deviceTag(secret, sessionId, deviceId);
  return { pass: `${exp}.${tag}.${passSignature(secret, sessionId, tag, exp)}`, expiresAt };
}

export type PassFacts = { issuedAt: Date; expiresAt: Date; forThisDevice: boolean };

/** What a pass this server issued for this session says (expired or not); null when it is not one. */
export function readPass(secret: Buffer, sessionId: string, deviceId: string, pass: string): PassFacts | null {
  const [exp, tag, sig, ...rest] = pass.split('.');
  if (!exp || !tag || !sig || rest.length > 0) return null;
  const expiresAt = parseInt(exp, 36);
  if (!Number.isFinite(expiresAt) || !safeEqual(passSignature(secret, sessionId, tag, exp), sig)) return null;
  return { issuedAt: new Date(expiresAt - PASS_MS), expiresAt: new Date(expiresAt), forThisDevice: safeEqual(deviceTag(secret, sessionId, deviceId), tag) };
}

export function isValidPass(secret: Buffer, sessionId: string, deviceId: string, pass: string, now: Date): boolean {
  const facts = readPass(secret, sessionId, deviceId, pass);
  return facts != null && facts.forThisDevice && facts.expiresAt.getTime() > now.getTime();
}
