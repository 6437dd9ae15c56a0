import { isIPv4, isIPv6 } from 'node:net';
import { SCAN_TOO_MANY_CODES } from '../../../common/attendance.ts';
import type { DbOrTx } from '../../db/client.ts';
import { AppError } from '../../lib/errors.ts';
import { countHit } from '../../lib/shared-counters.ts';

/**
 * Typed six-digit codes are the one guessable thing on the public check-in routes: two codes are
 * valid at any moment, so each guess has a 2-in-1,000,000 chance. Every attempt is counted before it
 * is checked, per address and per (address, session), in PostgreSQL counters every app instance
 * shares; an attempt that checks a student in is given back. Over either limit, every attempt gets
 * the same refusal, right or wrong, so nothing can be learnt from it.
 *
 * A class of 60 on one school Wi-Fi address with three typos each makes 180 wrong attempts on its
 * session; a guesser gets at most 300 per session per hour from one address (0.06%).
 */
export const WRONG_CODE_WINDOW_MS = 60 * 60_000;
export const WRONG_CODES_PER_ADDRESS_AND_SESSION = 300;
export const WRONG_CODES_PER_ADDRESS = 600;

/**
 * The network an address speaks for: an IPv4 address as it is (IPv4-mapped IPv6 included), an IPv6
 * address by its /64, since one home or phone holds a whole /64 and can change address at will.
 */
export function networkOf(ip: string | null | undefined): string {
  if (!ip) return 'unknown';
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped && isIPv4(mapped[1]!)) return mapped[1]!;
  if (!isIPv6(ip)) return ip;
  const [head = '', tail = ''] = ip.split('%')[0]!.toLowerCase().split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  // An embedded IPv4 tail (::a.b.c.d) sits in the interface half; the /64 never reaches it.
  const missing = Math.max(0, 8 - left.length - right.length);
  const groups = ip.includes('::') ? [...left, ...Array<string>(missing).fill('0'), ...right] : left;
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}

export type CodeAttempt = {
  /** The code checked a student in: give the attempt back. */
  succeeded: () => Promise<void>;
};

/**
 * Count one typed-code attempt from `ip` (and for `sessionId`, when the route names the session)
 * before the code is checked. Throws 429 when a limit is passed, whatever the code.
 */
export async function beginCodeAttempt(db: DbOrTx, ip: string | null, sessionId: string | null, now: Date): Promise<CodeAttempt> {
  const network = networkOf(ip);
  const keys: [string, number][] = [[`wrong-code:addr:${network}`, WRONG_CODES_PER_ADDRESS]];
  if (sessionId) keys.push([`wrong-code:addr-session:${network}:${sessionId}`, WRONG_CODES_PER_ADDRESS_AND_SESSION]);
  const counts = await Promise.all(keys.map(([key]) => countHit(db, key, WRONG_CODE_WINDOW_MS, now)));
  const over = counts.find((c, i) => c.hits > keys[i]![1]);
  if (over) {
    const retryAfterSeconds = Math.max(1, Math.ceil((over.resetAt.getTime() - now.getTime()) / 1000));
    throw new AppError(429, 'TOO_MANY_CODES', SCAN_TOO_MANY_CODES, { retryAfterSeconds });
  }
  return {
    succeeded: async () => {
      await Promise.all(keys.map(([key]) => countHit(db, key, WRONG_CODE_WINDOW_MS, now, -1)));
    },
  };
}
