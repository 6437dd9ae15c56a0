import { and, eq, lt, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.ts';
import { rateLimitCounters } from '../db/schema/index.ts';

/**
 * Fixed-window counters kept in PostgreSQL, so every app instance sees the same counts (a limit
 * per process doubles with two instances). Counting and reading are one atomic statement: twenty
 * concurrent attempts against a limit of five get exactly five through.
 */
export type WindowCount = { hits: number; windowStart: Date; resetAt: Date };

function windowOf(windowMs: number, now: Date): { windowStart: Date; resetAt: Date } {
  const start = Math.floor(now.getTime() / windowMs) * windowMs;
  return { windowStart: new Date(start), resetAt: new Date(start + windowMs) };
}

/** Add `by` hits to `key` in the window containing `now`; returns the count including them. */
export async function countHit(db: DbOrTx, key: string, windowMs: number, now: Date, by = 1): Promise<WindowCount> {
  const { windowStart, resetAt } = windowOf(windowMs, now);
  const [row] = await db
    .insert(rateLimitCounters)
    .values({ key, windowStart, hits: by, expiresAt: resetAt })
    .onConflictDoUpdate({
      target: [rateLimitCounters.key, rateLimitCounters.windowStart],
      set: { hits: sql`${rateLimitCounters.hits} + ${by}` },
    })
    .returning({ hits: rateLimitCounters.hits });
  return { hits: row!.hits, windowStart, resetAt };
}

/** The count of `key` in the window containing `now`, without adding to it. */
export async function readHits(db: DbOrTx, key: string, windowMs: number, now: Date): Promise<WindowCount> {
  const { windowStart, resetAt } = windowOf(windowMs, now);
  const [row] = await db
    .select({ hits: rateLimitCounters.hits })
    .from(rateLimitCounters)
    .where(and(eq(rateLimitCounters.key, key), eq(rateLimitCounters.windowStart, windowStart)));
  return { hits: row?.hits ?? 0, windowStart, resetAt };
}

/** Forget every window of `key` (a successful sign-in clears its failures). */
export async function clearHits(db: DbOrTx, key: string): Promise<void> {
  await db.delete(rateLimitCounters).where(eq(rateLimitCounters.key, key));
}

/** Drop windows that have ended; run by the jobs scheduler. */
export async function purgeExpiredCounters(db: DbOrTx, now: Date): Promise<number> {
  const gone = await db.delete(rateLimitCounters).where(lt(rateLimitCounters.expiresAt, now)).returning({ key: rateLimitCounters.key });
  return gone.length;
}
