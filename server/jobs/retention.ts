import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import type { Clock } from '../lib/clock.ts';
import { recordAudit } from '../modules/audit-logs/service.ts';
import { getSettings } from '../modules/settings/service.ts';

export type RetentionResult = { cutoff: string; removed: Record<string, number> };

/**
 * Remove records older than the dataRetentionYears setting and say what was removed in the audit
 * log. Attendance, QR sessions, sign-in sessions, upload records and audit entries are purged;
 * people (students, users) and the catalogue stay, because other records point at them.
 * One instance does the work (advisory lock); running it twice removes nothing the second time.
 */
export async function purgeExpiredData(db: Db, clock: Clock): Promise<RetentionResult | null> {
  const now = clock.now();
  const { system } = await getSettings(db);
  const cutoff = new Date(now);
  cutoff.setUTCFullYear(cutoff.getUTCFullYear() - system.dataRetentionYears);
  const cutoffDate = cutoff.toISOString().slice(0, 10);
  return db.transaction(async (tx) => {
    const { rows: lock } = await tx.execute<{ locked: boolean }>(sql`select pg_try_advisory_xact_lock(727004) as locked`);
    if (!lock[0]?.locked) return null;
    const count = async (q: ReturnType<typeof sql>) => (await tx.execute(q)).rowCount ?? 0;
    const removed: Record<string, number> = {
      attendance_records: await count(sql`delete from attendance_records where session_date < ${cutoffDate}`),
      qr_sessions: await count(sql`delete from qr_sessions where session_date < ${cutoffDate}`),
      login_sessions: await count(sql`delete from login_sessions where created_at < ${cutoff}`),
      file_uploads: await count(sql`delete from file_uploads where created_at < ${cutoff}`),
    };
    // The audit log refuses deletes unless the transaction says it is the retention job.
    await tx.execute(sql`select set_config('muster.audit_purge', 'on', true)`);
    removed.audit_logs = await count(sql`delete from audit_logs where timestamp < ${cutoff}`);
    await tx.execute(sql`select set_config('muster.audit_purge', 'off', true)`);
    if (Object.values(removed).some((n) => n > 0)) {
      await recordAudit(tx, {
        userId: null,
        action: 'Purge',
        tableName: 'retention',
        newValues: { retentionYears: system.dataRetentionYears, cutoff: cutoff.toISOString(), removed },
        always: true,
        at: now,
      });
    }
    return { cutoff: cutoff.toISOString(), removed };
  });
}
