import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { SINGLE_LOCKS } from '../db/advisory-locks.ts';

/**
 * Ended or idle-expired login sessions are kept 90 days for the dashboard's user-activity figures,
 * then removed. Safe to run from several instances at once.
 */
export async function purgeExpiredLoginSessions(db: Db): Promise<number> {
  return db.transaction(async (tx) => {
    const { rows } = await tx.execute<{ locked: boolean }>(sql`select pg_try_advisory_xact_lock(${SINGLE_LOCKS.loginSessionCleanup}) as locked`);
    if (!rows[0]?.locked) return 0;
    const result = await tx.execute(sql`delete from login_sessions where last_seen_at < now() - interval '90 days'`);
    return result.rowCount ?? 0;
  });
}
