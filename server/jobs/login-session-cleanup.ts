import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { SINGLE_LOCKS } from '../db/advisory-locks.ts';
import { deleteLoginSessionsIdleFor90Days } from '../plugins/login-sessions.ts';

/**
 * Ended or idle-expired login sessions are kept 90 days for the dashboard's user-activity figures,
 * then removed (by their owner, plugins/login-sessions.ts). Safe to run from several instances at once.
 */
export async function purgeExpiredLoginSessions(db: Db): Promise<number> {
  return db.transaction(async (tx) => {
    const { rows } = await tx.execute<{ locked: boolean }>(sql`select pg_try_advisory_xact_lock(${SINGLE_LOCKS.loginSessionCleanup}) as locked`);
    if (!rows[0]?.locked) return 0;
    return deleteLoginSessionsIdleFor90Days(tx);
  });
}
