import { and, desc, eq, isNotNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { outboxMessages } from '../../db/schema/index.ts';

type OutboxInsert = typeof outboxMessages.$inferInsert;
export type OutboxRow = typeof outboxMessages.$inferSelect;

/** The channel the outbox worker listens on; PostgreSQL delivers the notice only if the transaction commits. */
export const OUTBOX_CHANNEL = 'muster_outbox';

export async function insertOutboxMessages(db: DbOrTx, rows: OutboxInsert[]): Promise<number[]> {
  if (rows.length === 0) return [];
  const inserted = await db.insert(outboxMessages).values(rows).returning({ id: outboxMessages.id });
  await db.execute(sql`select pg_notify(${OUTBOX_CHANNEL}, '')`);
  return inserted.map((r) => r.id);
}

/** Counts by status and the most recent failure's text. */
export async function selectOutboxCounts(db: DbOrTx) {
  const counts = await db
    .select({ status: outboxMessages.status, n: sql<number>`count(*)::int` })
    .from(outboxMessages)
    .groupBy(outboxMessages.status);
  const [last] = await db
    .select({ lastError: outboxMessages.lastError, at: sql<string>`coalesce(${outboxMessages.sentAt}, ${outboxMessages.nextAttemptAt})` })
    .from(outboxMessages)
    .where(isNotNull(outboxMessages.lastError))
    .orderBy(desc(outboxMessages.id))
    .limit(1);
  return { counts, last };
}

/**
 * Claim up to `limit` due messages of one channel for `leaseMs`: `for update skip locked` lets
 * several workers (instances) share the queue without taking the same row.
 */
export async function claimDueMessages(db: DbOrTx, channel: 'email' | 'sms', now: Date, leaseMs: number, limit: number): Promise<OutboxRow[]> {
  const until = new Date(now.getTime() + leaseMs);
  const { rows } = await db.execute<{ id: number }>(sql`
    update ${outboxMessages} set claimed_until = ${until.toISOString()}
    where id in (
      select id from ${outboxMessages}
      where status = 'queued' and channel = ${channel} and next_attempt_at <= ${now.toISOString()}
        and (claimed_until is null or claimed_until <= ${now.toISOString()})
      order by next_attempt_at, id
      limit ${limit}
      for update skip locked)
    returning id`);
  if (rows.length === 0) return [];
  return db
    .select()
    .from(outboxMessages)
    .where(
      sql`${outboxMessages.id} in (${sql.join(
        rows.map((r) => sql`${r.id}`),
        sql`, `,
      )})`,
    )
    .orderBy(outboxMessages.id);
}

export async function markOutboxSent(db: DbOrTx, id: number, at: Date): Promise<void> {
  await db
    .update(outboxMessages)
    .set({ status: 'sent', sentAt: at, claimedUntil: null, attempts: sql`${outboxMessages.attempts} + 1` })
    .where(and(eq(outboxMessages.id, id), eq(outboxMessages.status, 'queued')));
}

export async function markOutboxAttemptFailed(db: DbOrTx, id: number, error: string, nextAttemptAt: Date | null): Promise<void> {
  await db
    .update(outboxMessages)
    .set({
      status: nextAttemptAt ? 'queued' : 'failed',
      nextAttemptAt: nextAttemptAt ?? sql`${outboxMessages.nextAttemptAt}`,
      claimedUntil: null,
      lastError: error.slice(0, 500),
      attempts: sql`${outboxMessages.attempts} + 1`,
    })
    .where(and(eq(outboxMessages.id, id), eq(outboxMessages.status, 'queued')));
}
