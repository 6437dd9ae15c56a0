import { lt, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { attendanceRecords, fileUploads, loginSessions, qrSessions } from '../db/schema/index.ts';
import type { Clock } from '../lib/clock.ts';
import { purgeAuditEntriesBefore, recordAudit } from '../modules/audit-logs/service.ts';
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
    const count = async (q: Promise<{ rowCount: number | null }>) => (await q).rowCount ?? 0;
    const removed: Record<string, number> = {
      attendance_records: await count(tx.delete(attendanceRecords).where(lt(attendanceRecords.sessionDate, cutoffDate))),
      qr_sessions: await count(tx.delete(qrSessions).where(lt(qrSessions.sessionDate, cutoffDate))),
      login_sessions: await count(tx.delete(loginSessions).where(lt(loginSessions.createdAt, cutoff))),
      file_uploads: await count(tx.delete(fileUploads).where(lt(fileUploads.createdAt, cutoff))),
    };
    removed.audit_logs = await purgeAuditEntriesBefore(tx, cutoff);
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
