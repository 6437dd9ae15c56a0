import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Rotating QR tokens. The QR on the classroom screen encodes the scan URL plus a token derived
 * from the session's secret and the server's clock step (15 s). The current and previous step are
 * accepted, so a code scanned just before it rotates still works; a URL copied a minute ago does not.
 *
 * Opening the scan page with a fresh token earns that device a pass (5 minutes) to finish the form,
 * bound to the device id, so a slow typist is not refused because the code on the screen moved on.
 */
export const ROTATE_MS = 15_000;
export const PASS_MS = 5 * 60_000;

const mac = (secret: Buffer, message: string, bytes: number) => createHmac('sha256', secret).update(message).digest().subarray(0, bytes).toString('base64url');

const safeEqual = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

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

/** The QR token or the typed short code of the current or the previous step. */
export function isFreshToken(secret: Buffer, sessionId: string, token: string, now: Date): boolean {
  const step = Math.floor(now.getTime() / ROTATE_MS);
  const typed = token.replace(/\s+/g, '');
  return [step, step - 1].some(
    (s) => safeEqual(mac(secret, `qr:${sessionId}:${s}`, 9), token) || (/^\d{6}$/.test(typed) && safeEqual(codeForStep(secret, sessionId, s), typed)),
  );
}

export function issuePass(secret: Buffer, sessionId: string, deviceId: string, now: Date): { pass: string; expiresAt: Date } {
  const expiresAt = new Date(now.getTime() + PASS_MS);
  const exp = expiresAt.getTime().toString(36);
  return { pass: `${exp}.${mac(secret, `pass:${sessionId}:${deviceId}:${exp}`, 16)}`, expiresAt };
}

export function isValidPass(secret: Buffer, sessionId: string, deviceId: string, pass: string, now: Date): boolean {
  const [exp, sig] = pass.split('.');
  if (!exp || !sig) return false;
  const expiresAt = parseInt(exp, 36);
  if (!Number.isFinite(expiresAt) || expiresAt <= now.getTime()) return false;
  return safeEqual(mac(secret, `pass:${sessionId}:${deviceId}:${exp}`, 16), sig);
}
