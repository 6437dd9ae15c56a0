import { createHash, randomInt, timingSafeEqual } from 'node:crypto';
import { INVALID_CREDENTIALS, LOCAL_SIGN_IN_OFF, SETUP_CODE_WRONG, type LoginPendingStep, type LoginSessionInfo } from '../../../common/auth.ts';
import type { Role } from '../../../common/roles.ts';
import type { Db, DbOrTx } from '../../db/client.ts';
import type { Config } from '../../config.ts';
import type { Clock } from '../../lib/clock.ts';
import { pgError } from '../../lib/db-errors.ts';
import { AppError, conflict, notFound } from '../../lib/errors.ts';
import { assertPasswordAllowed } from '../../lib/password-rules.ts';
import { dummyPasswordHash, hashPassword, verifyPassword } from '../../lib/passwords.ts';
import { countHit } from '../../lib/shared-counters.ts';
import { serverTimeZone } from '../../lib/school-time.ts';
import { keepsPasswordSignIn } from '../access/service.ts';
import { recordAudit } from '../audit-logs/service.ts';
import { getSettings, setSchoolName, setSchoolTimeZone } from '../settings/service.ts';
import { stepOwed } from './two-factor-rules.ts';
import { findKnownDevice, rememberDevice } from './known-devices.ts';
import {
  countUsers,
  deleteSetupCodes,
  findSignInAccount,
  insertSetupCode,
  insertUserReturningId,
  lockUsersTable,
  selectSetupCodeHashes,
  setLastLogin,
} from './queries.ts';
import { createLoginSession, endOtherUserSessions, endUserSession, listUserSessions } from '../../plugins/login-sessions.ts';
import { SignInThrottled, recordSignInFailure, recordSignInSuccess, reserveSignInAttempt, unknownAccountKey, type SignInSubject } from './sign-in-throttle.ts';

// The known-browser cookie's name and lifetime, for the routes that set it.
export { DEVICE_COOKIE, DEVICE_COOKIE_MAX_AGE_SECONDS } from './known-devices.ts';
export { changeOwnPassword, confirmTotpEnrolment, resetTwoFactor, startTotpEnrolment, verifySecondFactor } from './two-factor.ts';

type Meta = { ip: string | null; userAgent: string | null };

/**
 * Check e-mail and password; on success open a login session and return its cookie token and the
 * browser's device cookie. Throttled per account and address (sign-in-throttle.ts): the attempt is
 * reserved before the password is verified. A failure is audited with the account's id when the
 * e-mail matches one, and with no identifier at all when it does not: what was typed is never stored.
 */
export async function signIn(
  db: Db,
  email: string,
  password: string,
  meta: Meta & { deviceCookie: string | undefined },
  clock: Clock,
  sso: { configured: boolean; buttonLabel: string | null } = { configured: false, buttonLabel: null },
): Promise<{ token: string; userId: number; deviceCookie: string; pendingStep: LoginPendingStep | null }> {
  const now = clock.now();
  const user = await findSignInAccount(db, email.trim());
  const subject: SignInSubject = {
    account: user ? `u${user.id}` : unknownAccountKey(email),
    address: meta.ip ?? 'unknown',
    device: user ? await findKnownDevice(db, user.id, meta.deviceCookie) : null,
  };
  await reserveSignInAttempt(db, subject, now);

  // Always run one argon2 verification so the answer takes as long whether or not the e-mail exists.
  const ok = await verifyPassword(user?.passwordHash ?? (await dummyPasswordHash()), password);
  if (!user || !ok || !user.isActive) {
    await recordSignInFailure(db, subject, now);
    await recordAudit(db, {
      userId: user?.id ?? null,
      action: 'Login',
      tableName: 'users',
      recordId: user?.id ?? null,
      ipAddress: meta.ip,
      newValues: { outcome: 'failed', reason: !user ? 'unknown account' : !ok ? 'wrong password' : 'inactive account' },
      always: true,
      at: now,
    });
    throw new AppError(401, 'INVALID_CREDENTIALS', INVALID_CREDENTIALS);
  }
  // What this sign-in still owes (a new password, two-factor): until then it reaches only that step.
  const { security } = await getSettings(db);
  // With single sign-on working and local sign-in off, only the Super Administrator keeps a password
  // (the way back in if the identity provider fails). Said only to whoever knows the password.
  if (security.localSignInDisabled && sso.configured && !keepsPasswordSignIn(user)) {
    await recordSignInSuccess(db, subject);
    throw new AppError(
      403,
      LOCAL_SIGN_IN_OFF,
      `Use “${sso.buttonLabel ?? 'Sign in with your school account'}” instead: this school signs staff in through its own accounts.`,
    );
  }
  const pendingStep = stepOwed(security, user, now);
  const result = await db.transaction(async (tx) => {
    const token = await createLoginSession(tx, user.id, meta, now, { pendingStep });
    const deviceCookie = await rememberDevice(tx, user.id, subject.device, meta.deviceCookie, now);
    await setLastLogin(tx, user.id, now);
    await recordAudit(tx, {
      userId: user.id,
      action: 'Login',
      tableName: 'users',
      recordId: user.id,
      ipAddress: meta.ip,
      newValues: {
        outcome: pendingStep ? 'password accepted' : 'success',
        knownBrowser: subject.device !== null,
        ...(pendingStep ? { stepOwed: pendingStep } : {}),
      },
      always: true,
      at: now,
    });
    return { token, userId: user.id, deviceCookie, pendingStep };
  });
  await recordSignInSuccess(db, subject);
  return result;
}

/** "Sign in with …": the configured display name, else the school's name, else the provider's host. */
export async function ssoButtonLabel(db: DbOrTx, config: Config): Promise<string | null> {
  if (!config.oidc) return null;
  const name = config.oidc.displayName?.trim() || (await getSettings(db)).system.schoolName.trim() || new URL(config.oidc.issuer).hostname;
  return `Sign in with ${name}`;
}

/**
 * A sign-in through the school's identity provider (sso module) for an account it matched: a
 * session that owes no step (the provider owns passwords and second factors), audited like any.
 */
export async function startSsoSession(db: Db, userId: number, meta: Meta, clock: Clock, details: { issuer: string; firstLink: boolean }): Promise<string> {
  const now = clock.now();
  return db.transaction(async (tx) => {
    const token = await createLoginSession(tx, userId, meta, now, { authMethod: 'sso' });
    await setLastLogin(tx, userId, now);
    await recordAudit(tx, {
      userId,
      action: 'Login',
      tableName: 'users',
      recordId: userId,
      ipAddress: meta.ip,
      newValues: { outcome: 'success', method: 'single sign-on', issuer: details.issuer, ...(details.firstLink ? { linked: true } : {}) },
      always: true,
      at: now,
    });
    return token;
  });
}

/** A refused single sign-on, audited with the account when one was found (never the e-mail typed). */
export async function recordSsoRefusal(db: Db, userId: number | null, reason: string, meta: Meta, clock: Clock): Promise<void> {
  await recordAudit(db, {
    userId,
    action: 'Login',
    tableName: 'users',
    recordId: userId,
    ipAddress: meta.ip,
    newValues: { outcome: 'failed', method: 'single sign-on', reason },
    always: true,
    at: clock.now(),
  });
}

export async function userCount(db: DbOrTx): Promise<number> {
  return countUsers(db);
}

type NewUser = {
  email: string;
  password: string | null;
  firstName: string;
  lastName: string;
  role: Role;
  username?: string | null;
};

/**
 * Insert a user with an argon2id hash; a taken e-mail or username is a 409 naming the field.
 * Callers that take a password from a person check it with assertPasswordAllowed first.
 */
export async function insertUser(tx: DbOrTx, u: NewUser): Promise<number> {
  const passwordHash = u.password ? await hashPassword(u.password) : null;
  try {
    return await insertUserReturningId(tx, {
      email: u.email.trim(),
      username: u.username ?? null,
      firstName: u.firstName,
      lastName: u.lastName,
      role: u.role,
      passwordHash,
    });
  } catch (err) {
    const c = pgError(err).constraint;
    if (c === 'users_email_unique') throw conflict('A user with this e-mail already exists', 'email');
    if (c === 'users_username_unique') throw conflict('A user with this username already exists', 'username');
    throw err;
  }
}

/**
 * `npm run user:create`: a user with a password of their own, checked against the password rule,
 * created and audited in one transaction (no acting user: the command line has none).
 */
export async function createUserFromCommandLine(db: Db, u: NewUser & { password: string }): Promise<number> {
  await assertPasswordAllowed(u.password, u);
  return db.transaction(async (tx) => {
    const userId = await insertUser(tx, u);
    await recordAudit(tx, {
      userId: null,
      action: 'Create',
      tableName: 'users',
      recordId: userId,
      newValues: { email: u.email, firstName: u.firstName, lastName: u.lastName, role: u.role, via: 'cli' },
      always: true,
    });
    return userId;
  });
}

// --- First-run setup code -------------------------------------------------------------------

// Unambiguous letters and digits (no 0/O, 1/I/L): read off a console and typed by a person.
const CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
const CODE_GROUPS = 4;
const CODE_GROUP_LENGTH = 4;
// Setup attempts per address in 15 minutes. The code has ~79 bits, so this is belt and braces.
const SETUP_ATTEMPTS_PER_ADDRESS = 10;
const SETUP_WINDOW_MS = 15 * 60_000;

/** Codes are compared without case, spaces or dashes, as a person may type them. */
function normaliseSetupCode(code: string): string {
  return code.toUpperCase().replace(/[\s-]+/g, '');
}
const hashSetupCode = (code: string) =>
  createHash('sha256')
    .update(`muster-setup:${normaliseSetupCode(code)}`)
    .digest();

function newSetupCode(): string {
  const groups = Array.from({ length: CODE_GROUPS }, () =>
    Array.from({ length: CODE_GROUP_LENGTH }, () => CODE_ALPHABET[randomInt(CODE_ALPHABET.length)]).join(''),
  );
  return groups.join('-');
}

/**
 * On start: while no user exists, make a one-time setup code, store only its SHA-256, and return
 * it for the console (main.ts prints it); once a user exists, forget any codes and return null.
 * Several instances starting at once each add their own code, and any of them works.
 */
export async function createSetupCodeIfNeeded(db: Db): Promise<string | null> {
  if ((await userCount(db)) > 0) {
    // Users came another way (user:create, the demo seed): no code may linger.
    await deleteSetupCodes(db);
    return null;
  }
  const code = newSetupCode();
  await insertSetupCode(db, hashSetupCode(code).toString('hex'));
  return code;
}

/** Whether `code` matches a stored setup code; every stored hash is compared in constant time. */
async function setupCodeMatches(tx: DbOrTx, code: string): Promise<boolean> {
  const typed = hashSetupCode(code);
  const stored = await selectSetupCodeHashes(tx);
  let match = false;
  for (const hash of stored) {
    const candidate = Buffer.from(hash, 'hex');
    if (candidate.length === typed.length && timingSafeEqual(candidate, typed)) match = true;
  }
  return match;
}

/**
 * First run: create the first super_admin while no user exists, given a setup code printed on the
 * server's console. The table lock makes two simultaneous setups impossible: the second sees a
 * user and is refused. Attempts are counted per address before the code is compared; a success
 * deletes every stored code.
 */
export async function setupFirstAdmin(
  db: Db,
  input: { setupCode: string; email: string; password: string; firstName: string; lastName: string; timeZone?: string; schoolName?: string },
  meta: Meta,
  clock: Clock,
): Promise<{ token: string; userId: number }> {
  const now = clock.now();
  const attempts = await countHit(db, `setup:addr:${meta.ip ?? 'unknown'}`, SETUP_WINDOW_MS, now);
  if (attempts.hits > SETUP_ATTEMPTS_PER_ADDRESS) {
    throw new SignInThrottled(Math.max(1, Math.ceil((attempts.resetAt.getTime() - now.getTime()) / 1000)), 'setup');
  }
  const { setupCode, timeZone, schoolName, ...person } = input;
  return db.transaction(async (tx) => {
    await lockUsersTable(tx);
    if ((await userCount(tx)) > 0) throw conflict('Setup is already complete: a user exists. Sign in instead.');
    if (!(await setupCodeMatches(tx, setupCode))) {
      throw new AppError(403, 'SETUP_CODE_WRONG', SETUP_CODE_WRONG, { errors: [{ field: 'setupCode', message: SETUP_CODE_WRONG }] });
    }
    await assertPasswordAllowed(person.password, person);
    const userId = await insertUser(tx, { ...person, role: 'super_admin' });
    await deleteSetupCodes(tx);
    // The school's zone dates every class meeting: the one chosen at setup, else the server's own.
    await setSchoolTimeZone(tx, timeZone ?? serverTimeZone(), userId, now);
    // Printed on time cards and reports; left for Getting started when a script sets up without it.
    if (schoolName) await setSchoolName(tx, schoolName, userId, now, meta.ip);
    await recordAudit(tx, {
      userId,
      action: 'Create',
      tableName: 'users',
      recordId: userId,
      ipAddress: meta.ip,
      newValues: { email: person.email, firstName: person.firstName, lastName: person.lastName, role: 'super_admin', via: 'first-run setup' },
      always: true,
      at: now,
    });
    const token = await createLoginSession(tx, userId, meta, now);
    return { token, userId };
  });
}

// --- Your sessions --------------------------------------------------------------------------

export async function listOwnSessions(db: DbOrTx, userId: number, currentSessionId: string | null, clock: Clock): Promise<LoginSessionInfo[]> {
  return listUserSessions(db, userId, currentSessionId, clock.now());
}

/**
 * End one of the signed-in user's own sessions (404 for any other reference, including another
 * user's). Returns whether it was the session making the request.
 */
export async function endOwnSession(
  db: Db,
  userId: number,
  currentSessionId: string | null,
  ref: string,
  meta: Meta,
  clock: Clock,
): Promise<{ wasCurrent: boolean }> {
  const now = clock.now();
  return db.transaction(async (tx) => {
    const ended = await endUserSession(tx, userId, ref, now);
    if (!ended) throw notFound('Session');
    await recordAudit(tx, {
      userId,
      action: 'Logout',
      tableName: 'login_sessions',
      recordId: ref,
      ipAddress: meta.ip,
      newValues: { ended: 1, via: 'Your sessions' },
      always: true,
      at: now,
    });
    return { wasCurrent: ended === currentSessionId };
  });
}

/** End every other session of the signed-in user; the one making the request stays. */
export async function endOtherOwnSessions(db: Db, userId: number, currentSessionId: string, meta: Meta, clock: Clock): Promise<{ ended: number }> {
  const now = clock.now();
  return db.transaction(async (tx) => {
    const ended = await endOtherUserSessions(tx, userId, currentSessionId, now);
    if (ended > 0) {
      await recordAudit(tx, {
        userId,
        action: 'Logout',
        tableName: 'login_sessions',
        recordId: null,
        ipAddress: meta.ip,
        newValues: { ended, via: 'Your sessions: end all others' },
        always: true,
        at: now,
      });
    }
    return { ended };
  });
}
