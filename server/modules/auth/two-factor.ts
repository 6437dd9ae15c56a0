import { CURRENT_PASSWORD_WRONG, PASSWORD_SAME, TOTP_ALREADY_ENROLLED, TOTP_CODE_USED, TOTP_CODE_WRONG, type LoginPendingStep } from '../../../common/auth.ts';
import type { Db } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import { AppError, badRequest, conflict, notFound } from '../../lib/errors.ts';
import type { FieldCipher } from '../../lib/field-cipher.ts';
import { passwordProblem } from '../../lib/password-rules.ts';
import { hashPassword, verifyPassword } from '../../lib/passwords.ts';
import { countHit } from '../../lib/shared-counters.ts';
import { endOtherUserSessions, setSessionPendingStep } from '../../plugins/login-sessions.ts';
import { recordAudit } from '../audit-logs/service.ts';
import { getSettings } from '../settings/service.ts';
import {
  countUnusedRecoveryCodes,
  replaceRecoveryCodes,
  selectAccountSecurity,
  selectUserForReset,
  spendRecoveryCode,
  updateOwnPassword,
  updateTotp,
} from './queries.ts';
import { hashRecoveryCode, looksLikeRecoveryCode, newAuthenticator, newRecoveryCodes, stepOwed, totpTimeStep } from './two-factor-rules.ts';

type Meta = { ip: string | null };
type SignedIn = { userId: number; sessionId: string; pendingStep: LoginPendingStep | null };

// Wrong codes (or current passwords) per account: five in 15 minutes, then wait. Shared by every
// instance (rate_limit_counters), so a guesser cannot spread attempts across them.
const WRONG_CODE_LIMIT = 5;
const WRONG_CODE_WINDOW_MS = 15 * 60_000;

/**
 * Reserve one attempt at a code (or a current password) BEFORE checking it, as the sign-in throttle
 * does (sign-in-throttle.ts): one atomic `insert … on conflict do update … returning hits` in
 * rate_limit_counters, so thirty concurrent wrong codes, on one instance or several, get at most
 * WRONG_CODE_LIMIT checks; the others are refused (429) without being checked. Reading the count
 * first and counting a failure after the check let every request in flight pass the read.
 *
 * `check` says whether the attempt was a wrong guess. A wrong guess keeps its place in the count;
 * any other outcome (the right code, a replayed right code, an account without two-factor) gives its
 * place back, so only wrong guesses use up the five.
 */
async function withReservedAttempt<T>(db: Db, key: string, now: Date, check: (wrongGuess: () => void) => Promise<T>): Promise<T> {
  const taken = await countHit(db, key, WRONG_CODE_WINDOW_MS, now);
  if (taken.hits > WRONG_CODE_LIMIT) {
    // Not given back: the window ends at a fixed time whatever its count, and a refusal checks nothing.
    const retryAfterSeconds = Math.max(1, Math.ceil((taken.resetAt.getTime() - now.getTime()) / 1000));
    throw new AppError(429, 'RATE_LIMITED', `Too many wrong codes. Please wait ${Math.ceil(retryAfterSeconds / 60)} minutes and try again.`, {
      retryAfterSeconds,
    });
  }
  let wrong = false;
  try {
    return await check(() => {
      wrong = true;
    });
  } finally {
    if (!wrong) await countHit(db, key, WRONG_CODE_WINDOW_MS, now, -1);
  }
}

async function account(db: Db, userId: number) {
  const found = await selectAccountSecurity(db, userId);
  if (!found) throw notFound('User not found');
  return found;
}

/**
 * Choose a new password: the sign-in step when the policy asks for one, or any time. The current
 * password is checked; the new one meets the same rules as everywhere; the user's other sessions end.
 */
export async function changeOwnPassword(
  db: Db,
  who: SignedIn,
  input: { currentPassword: string; newPassword: string },
  meta: Meta,
  clock: Clock,
): Promise<{ pendingStep: LoginPendingStep | null }> {
  const now = clock.now();
  const user = await withReservedAttempt(db, `password-change:u${who.userId}`, now, async (wrongGuess) => {
    const found = await account(db, who.userId);
    if (!found.passwordHash || !(await verifyPassword(found.passwordHash, input.currentPassword))) {
      wrongGuess();
      throw badRequest(CURRENT_PASSWORD_WRONG, [{ field: 'currentPassword', message: CURRENT_PASSWORD_WRONG }]);
    }
    return found;
  });
  if (input.newPassword === input.currentPassword) throw badRequest(PASSWORD_SAME, [{ field: 'newPassword', message: PASSWORD_SAME }]);
  const problem = await passwordProblem(input.newPassword, user);
  if (problem) throw badRequest(`Validation failed: newPassword: ${problem}`, [{ field: 'newPassword', message: problem }]);
  const passwordHash = await hashPassword(input.newPassword);
  const { security } = await getSettings(db);
  return db.transaction(async (tx) => {
    await updateOwnPassword(tx, who.userId, passwordHash, now);
    await endOtherUserSessions(tx, who.userId, who.sessionId, now);
    const next =
      who.pendingStep === 'password_change'
        ? stepOwed(security, { mustChangePassword: false, passwordChangedAt: now, totpEnrolledAt: user.totpEnrolledAt }, now, ['password_change'])
        : who.pendingStep;
    await setSessionPendingStep(tx, who.sessionId, next);
    await recordAudit(tx, {
      userId: who.userId,
      action: 'Update',
      tableName: 'users',
      recordId: who.userId,
      ipAddress: meta.ip,
      newValues: { passwordChanged: true },
      always: true,
      at: now,
    });
    return { pendingStep: next };
  });
}

/** Start (or restart) setting up an authenticator: a new secret, kept encrypted until a code confirms it. */
export async function startTotpEnrolment(db: Db, cipher: FieldCipher, who: SignedIn, clock: Clock) {
  const user = await account(db, who.userId);
  if (user.totpEnrolledAt) throw conflict(TOTP_ALREADY_ENROLLED);
  const { system } = await getSettings(db);
  const authenticator = await newAuthenticator(user.email, system.schoolName.trim() || 'Muster');
  await updateTotp(db, who.userId, { totpSecretEncrypted: cipher.for('totp').encrypt(authenticator.secret), totpEnrolledAt: null }, clock.now());
  return authenticator;
}

/** A code accepted once: the same code (its time step) cannot sign in twice. */
async function acceptTimeStep(db: Db, userId: number, timeStep: number, now: Date): Promise<boolean> {
  const used = await countHit(db, `totp-used:u${userId}:${timeStep}`, 5 * 60_000, now);
  return used.hits === 1;
}

/** Confirm the authenticator with its first code; answers the ten recovery codes, shown this once. */
export async function confirmTotpEnrolment(
  db: Db,
  cipher: FieldCipher,
  who: SignedIn,
  code: string,
  meta: Meta,
  clock: Clock,
): Promise<{ recoveryCodes: string[] }> {
  const now = clock.now();
  const user = await withReservedAttempt(db, `totp-fail:u${who.userId}`, now, async (wrongGuess) => {
    const found = await account(db, who.userId);
    if (found.totpEnrolledAt) throw conflict(TOTP_ALREADY_ENROLLED);
    if (!found.totpSecretEncrypted)
      throw badRequest('Start setting up two-factor authentication first', [{ field: 'code', message: 'Start the set-up first' }]);
    const timeStep = await totpTimeStep(cipher.for('totp').decrypt(found.totpSecretEncrypted), code, now);
    if (timeStep == null) {
      wrongGuess();
      throw badRequest(TOTP_CODE_WRONG, [{ field: 'code', message: TOTP_CODE_WRONG }]);
    }
    await acceptTimeStep(db, who.userId, timeStep, now);
    return found;
  });
  const recoveryCodes = newRecoveryCodes();
  await db.transaction(async (tx) => {
    await updateTotp(tx, who.userId, { totpSecretEncrypted: user.totpSecretEncrypted, totpEnrolledAt: now }, now);
    await replaceRecoveryCodes(tx, who.userId, recoveryCodes.map(hashRecoveryCode), now);
    if (who.pendingStep === 'totp_enrol') await setSessionPendingStep(tx, who.sessionId, null);
    await recordAudit(tx, {
      userId: who.userId,
      action: 'Update',
      tableName: 'users',
      recordId: who.userId,
      ipAddress: meta.ip,
      newValues: { twoFactor: 'enrolled' },
      always: true,
      at: now,
    });
  });
  return { recoveryCodes };
}

/** The sign-in's second step: a current six-digit code, or one unused recovery code (spent). */
export async function verifySecondFactor(db: Db, cipher: FieldCipher, who: SignedIn, code: string, meta: Meta, clock: Clock): Promise<{ pendingStep: null }> {
  const now = clock.now();
  const method = await withReservedAttempt(db, `totp-fail:u${who.userId}`, now, async (wrongGuess) => {
    const user = await account(db, who.userId);
    if (!user.totpEnrolledAt || !user.totpSecretEncrypted) throw conflict('Two-factor authentication is not set up for this account');
    const timeStep = await totpTimeStep(cipher.for('totp').decrypt(user.totpSecretEncrypted), code, now);
    if (timeStep != null) {
      if (!(await acceptTimeStep(db, who.userId, timeStep, now))) throw badRequest(TOTP_CODE_USED, [{ field: 'code', message: TOTP_CODE_USED }]);
      return 'authenticator' as const;
    }
    if (looksLikeRecoveryCode(code) && (await spendRecoveryCode(db, who.userId, hashRecoveryCode(code), now))) return 'recovery code' as const;
    wrongGuess();
    await recordAudit(db, {
      userId: who.userId,
      action: 'Login',
      tableName: 'users',
      recordId: who.userId,
      ipAddress: meta.ip,
      newValues: { outcome: 'failed', reason: 'wrong second factor' },
      always: true,
      at: now,
    });
    throw badRequest(TOTP_CODE_WRONG, [{ field: 'code', message: TOTP_CODE_WRONG }]);
  });
  const left = method === 'recovery code' ? await countUnusedRecoveryCodes(db, who.userId) : undefined;
  await db.transaction(async (tx) => {
    await setSessionPendingStep(tx, who.sessionId, null);
    await recordAudit(tx, {
      userId: who.userId,
      action: 'Login',
      tableName: 'users',
      recordId: who.userId,
      ipAddress: meta.ip,
      newValues: { outcome: 'success', secondFactor: method, ...(left !== undefined ? { recoveryCodesLeft: left } : {}) },
      always: true,
      at: now,
    });
  });
  return { pendingStep: null };
}

/** super_admin: forget a user's authenticator and recovery codes; their sessions end; they enrol again. */
export async function resetTwoFactor(db: Db, actor: { id: number }, userId: number, meta: Meta, clock: Clock): Promise<void> {
  const now = clock.now();
  const user = await selectUserForReset(db, userId);
  if (!user) throw notFound('User not found');
  await db.transaction(async (tx) => {
    await updateTotp(tx, userId, { totpSecretEncrypted: null, totpEnrolledAt: null }, now);
    await replaceRecoveryCodes(tx, userId, [], now);
    // '' is no session's key: every session of the user ends.
    await endOtherUserSessions(tx, userId, '', now);
    await recordAudit(tx, {
      userId: actor.id,
      action: 'Update',
      tableName: 'users',
      recordId: userId,
      ipAddress: meta.ip,
      oldValues: { twoFactor: user.totpEnrolledAt ? 'enrolled' : 'not enrolled' },
      newValues: { twoFactor: 'reset' },
      always: true,
      at: now,
    });
  });
}
