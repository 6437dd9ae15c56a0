import { createHash } from 'node:crypto';
import { tooManyAttempts } from '../../../common/auth.ts';
import type { DbOrTx } from '../../db/client.ts';
import { AppError } from '../../lib/errors.ts';
import { clearHits, countHit, readHits } from '../../lib/shared-counters.ts';

/**
 * Sign-in throttling (decision record 009). Counters live in PostgreSQL (lib/shared-counters.ts),
 * so every limit holds across app instances, and each attempt is reserved with one atomic
 * `insert … on conflict do update … returning hits` before the password is verified: twenty
 * concurrent guesses against a limit of five get exactly five verifications.
 *
 * - Per account and address (or, for a browser that has signed in to the account before, per
 *   account and browser): PAIR_ATTEMPTS attempts in 15 minutes, cleared by a success. Only that
 *   pair is refused.
 * - Per account across all addresses, and per address across all accounts: failures from unknown
 *   browsers are counted; above ACCOUNT_FAILURES or ADDRESS_FAILURES, unknown browsers are slowed
 *   to a few attempts a minute (a 429 with a Retry-After under a minute), never locked out.
 * - A known browser is never slowed or refused because of failures made elsewhere.
 */
export const SIGN_IN_LIMITS = {
  windowMs: 15 * 60_000,
  pairAttempts: 5,
  accountFailures: 20,
  addressFailures: 50,
  slowWindowMs: 60_000,
  slowAccountAttempts: 2,
  slowAddressAttempts: 20,
} as const;

export type SignInSubject = {
  /** `u<id>` for an account that exists, else a hash of the typed e-mail (never stored as typed). */
  account: string;
  address: string;
  /** The known_devices id of this browser for this account, when it has signed in here before. */
  device: string | null;
};

/** The throttle key of a typed e-mail that matches no account: a hash, so counters hold no e-mail. */
export function unknownAccountKey(email: string): string {
  return `e${createHash('sha256').update(`muster-sign-in:${email.trim().toLowerCase()}`).digest('hex').slice(0, 32)}`;
}

export class SignInThrottled extends AppError {
  constructor(
    readonly retryAfterSeconds: number,
    what: 'sign-in' | 'setup' = 'sign-in',
  ) {
    super(429, 'RATE_LIMITED', tooManyAttempts(retryAfterSeconds, what), { retryAfterSeconds });
  }
}

const L = SIGN_IN_LIMITS;
const pairKey = (s: SignInSubject) => (s.device ? `sign-in:pair:${s.account}:device:${s.device}` : `sign-in:pair:${s.account}:addr:${s.address}`);
const accountFailuresKey = (s: SignInSubject) => `sign-in:fail:account:${s.account}`;
const addressFailuresKey = (s: SignInSubject) => `sign-in:fail:addr:${s.address}`;
const secondsUntil = (at: Date, now: Date) => Math.max(1, Math.ceil((at.getTime() - now.getTime()) / 1000));

/**
 * Reserve one sign-in attempt before verifying the password, or throw SignInThrottled (429) with
 * the seconds to wait. A refusal by a later gate gives back what the earlier ones took, so waiting
 * in the slow lane does not use up the pair's own attempts.
 */
export async function reserveSignInAttempt(db: DbOrTx, s: SignInSubject, now: Date): Promise<void> {
  const pair = await countHit(db, pairKey(s), L.windowMs, now);
  if (pair.hits > L.pairAttempts) throw new SignInThrottled(secondsUntil(pair.resetAt, now));
  if (s.device) return;

  const taken: { key: string; windowMs: number }[] = [{ key: pairKey(s), windowMs: L.windowMs }];
  const refuse = async (resetAt: Date): Promise<never> => {
    await Promise.all(taken.map((t) => countHit(db, t.key, t.windowMs, now, -1)));
    throw new SignInThrottled(secondsUntil(resetAt, now));
  };
  const [account, address] = await Promise.all([readHits(db, accountFailuresKey(s), L.windowMs, now), readHits(db, addressFailuresKey(s), L.windowMs, now)]);
  // The slow lane: one attempt counted in its window; past `limit`, it is given back and refused.
  const takeSlow = async (key: string, limit: number) => {
    const slow = await countHit(db, key, L.slowWindowMs, now);
    if (slow.hits > limit) {
      await countHit(db, key, L.slowWindowMs, now, -1);
      await refuse(slow.resetAt);
    }
    taken.push({ key, windowMs: L.slowWindowMs });
  };
  if (account.hits >= L.accountFailures) await takeSlow(`sign-in:slow:account:${s.account}`, L.slowAccountAttempts);
  if (address.hits >= L.addressFailures) await takeSlow(`sign-in:slow:addr:${s.address}`, L.slowAddressAttempts);
}

/** A verified wrong password (or unknown or inactive account): count it where it slows others. */
export async function recordSignInFailure(db: DbOrTx, s: SignInSubject, now: Date): Promise<void> {
  // A known browser's typos are its own business: they count only against that browser (the pair).
  if (s.device) return;
  await Promise.all([countHit(db, accountFailuresKey(s), L.windowMs, now), countHit(db, addressFailuresKey(s), L.windowMs, now)]);
}

/** A success clears the pair's attempts; the account and address counts run out on their own. */
export async function recordSignInSuccess(db: DbOrTx, s: SignInSubject): Promise<void> {
  await clearHits(db, pairKey(s));
}
