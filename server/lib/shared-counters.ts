import { and, eq, lt, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.ts';
import { executePrepared } from '../db/prepared.ts';
import { rateLimitCounters } from '../db/schema/index.ts';

/**
 * Fixed-window counters kept in PostgreSQL, so every app instance sees the same counts (a limit
 * per process doubles with two instances). Counting and reading are one atomic statement: twenty
 * concurrent attempts against a limit of five get exactly five through.
 */
type WindowCount = { hits: number; windowStart: Date; resetAt: Date };

function windowOf(windowMs: number, now: Date): { windowStart: Date; resetAt: Date } {
  const start = Math.floor(now.getTime() / windowMs) * windowMs;
  return { windowStart: new Date(start), resetAt: new Date(start + windowMs) };
}

/**
 * Add `by` hits to `key` in the window containing `now`; returns the count including them.
 *
 * `relaxed` (request rate limits, outside any transaction): the count commits without waiting for
 * its WAL to reach the disk (synchronous_commit off for this one statement's transaction). A crash
 * may forget the last fraction of a second of counts, never a record; a class's morning rush then
 * waits on no disk flush for its counts. Sign-in and code counters keep the default: a replay guard
 * must survive a crash. Prepared: a rush counts thousands of hits with this one text.
 */
export async function countHit(db: DbOrTx, key: string, windowMs: number, now: Date, by = 1, opts: { relaxed?: boolean } = {}): Promise<WindowCount> {
  const { windowStart, resetAt } = windowOf(windowMs, now);
  const relax = opts.relaxed ? sql`, relax as (select set_config('synchronous_commit', 'off', true))` : sql``;
  const { rows } = await executePrepared<{ hits: number }>(
    db,
    sql`
    with v (key, window_start, hits, expires_at) as (values (${key}::text, ${windowStart.toISOString()}::timestamptz, ${by}::int, ${resetAt.toISOString()}::timestamptz))${relax}
    insert into rate_limit_counters (key, window_start, hits, expires_at)
    select v.key, v.window_start, v.hits, v.expires_at from v${opts.relaxed ? sql`, relax` : sql``}
    on conflict (key, window_start) do update set hits = rate_limit_counters.hits + excluded.hits
    returning hits`,
  );
  return { hits: rows[0]!.hits, windowStart, resetAt };
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
