import { createHash, randomInt } from 'node:crypto';
import { generateSecret, generateURI, verify } from 'otplib';
import QRCode from 'qrcode';
import { RECOVERY_CODE_COUNT, type LoginPendingStep } from '../../../common/auth.ts';
import type { Settings } from '../../../common/settings.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

type Account = { mustChangePassword: boolean; passwordChangedAt: Date; totpEnrolledAt: Date | null };

/**
 * What a password sign-in still owes, first to last: a new password (the policy is on and an
 * administrator set this one, or it is older than the policy age), then two-factor enrolment (the
 * policy is on and the account has none), then a code. An account that enrolled is always asked for
 * a code, even after the school turns the policy off: its owner chose that protection.
 */
export function stepOwed(security: Settings['security'], account: Account, now: Date, done: LoginPendingStep[] = []): LoginPendingStep | null {
  const passwordTooOld = now.getTime() - account.passwordChangedAt.getTime() > security.passwordMaxAgeDays * DAY_MS;
  if (!done.includes('password_change') && security.requirePasswordChange && (account.mustChangePassword || passwordTooOld)) return 'password_change';
  if (account.totpEnrolledAt) return done.includes('totp') || done.includes('totp_enrol') ? null : 'totp';
  if (security.twoFactorAuthentication && !done.includes('totp_enrol')) return 'totp_enrol';
  return null;
}

/** A new authenticator secret with its otpauth:// address and that address as a QR code image. */
export async function newAuthenticator(accountEmail: string, issuer: string) {
  const secret = generateSecret();
  const otpauthUri = generateURI({ issuer, label: accountEmail, secret });
  const qrCodeDataUrl = await QRCode.toDataURL(otpauthUri, { errorCorrectionLevel: 'M', margin: 2, width: 240 });
  return { secret, otpauthUri, qrCodeDataUrl };
}

/**
 * The time step a six-digit code belongs to, or null when it is not right now. One step either
 * side is accepted (a phone clock a little off, a code typed as it changed).
 */
export async function totpTimeStep(secret: string, code: string, now: Date): Promise<number | null> {
  if (!/^\d{6}$/.test(code)) return null;
  const result = await verify({ secret, token: code, epoch: Math.floor(now.getTime() / 1000), epochTolerance: 30 });
  return result.valid ? (result as { timeStep: number }).timeStep : null;
}

// Recovery codes: 10 letters and digits, shown as xxxxx-xxxxx; no 0/o, 1/l/i to misread.
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const chars = Array.from({ length: 10 }, () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)]).join('');
    return `${chars.slice(0, 5)}-${chars.slice(5)}`;
  });
}

/** Recovery codes are stored as SHA-256 of their normalised form (no case, no dash). */
export function hashRecoveryCode(code: string): string {
  return createHash('sha256')
    .update(`muster-recovery:${code.toLowerCase().replace(/[^a-z0-9]/g, '')}`)
    .digest('hex');
}

export const looksLikeRecoveryCode = (code: string) => /^[a-z0-9]{5}-?[a-z0-9]{5}$/i.test(code);
