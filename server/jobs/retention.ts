import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import type { Clock } from '../lib/clock.ts';
import { deleteRecordsOfStudentsExitedBefore } from '../modules/attendance/service.ts';
import { purgeAuditEntriesBefore, recordAudit } from '../modules/audit-logs/service.ts';
import { freezeHoursOfExitedStudents } from '../modules/hours/service.ts';
import { deleteUploadsBefore } from '../modules/imports/service.ts';
import { deleteSessionsBefore } from '../modules/qr-sessions/service.ts';
import { getSettings } from '../modules/settings/service.ts';
import { deleteLoginSessionsCreatedBefore } from '../plugins/login-sessions.ts';
import { SINGLE_LOCKS } from '../db/advisory-locks.ts';

type RetentionResult = { cutoff: string; removed: Record<string, number>; hoursTranscriptsFrozen: number };

/**
 * Remove records older than the dataRetentionYears setting and say what was removed in the audit
 * log. Attendance detail goes only for students who left (graduated or withdrew) longer ago than
 * that, counted from their exit, never from each record's own date (COMPLIANCE.md), and only once
 * their hours are frozen in a transcript kept for good. QR sessions no record points at, sign-in
 * sessions, upload records and audit entries go by their own dates; people (students, users) and
 * the catalogue stay, because other records point at them.
 * One instance does the work (advisory lock); running it twice removes nothing the second time.
 */
export async function purgeExpiredData(db: Db, clock: Clock): Promise<RetentionResult | null> {
  const now = clock.now();
  const { system } = await getSettings(db);
  const cutoff = new Date(now);
  cutoff.setUTCFullYear(cutoff.getUTCFullYear() - system.dataRetentionYears);
  const cutoffDate = cutoff.toISOString().slice(0, 10);
  // Hours first, outside the purge's transaction: a ledger reads in parallel, which one transaction's
  // connection cannot. Two instances freezing at once write each transcript once (on conflict).
  const transcripts = await freezeHoursOfExitedStudents(db, cutoffDate, now);
  return db.transaction(async (tx) => {
    const { rows: lock } = await tx.execute<{ locked: boolean }>(sql`select pg_try_advisory_xact_lock(${SINGLE_LOCKS.retention}) as locked`);
    if (!lock[0]?.locked) return null;
    // Each table through its owner (decision 010): the jobs decide when, the modules what goes.
    const removed: Record<string, number> = {
      attendance_records: await deleteRecordsOfStudentsExitedBefore(tx, cutoffDate),
      qr_sessions: await deleteSessionsBefore(tx, cutoffDate),
      login_sessions: await deleteLoginSessionsCreatedBefore(tx, cutoff),
      file_uploads: await deleteUploadsBefore(tx, cutoff),
    };
    removed.audit_logs = await purgeAuditEntriesBefore(tx, cutoff);
    if (transcripts > 0 || Object.values(removed).some((n) => n > 0)) {
      await recordAudit(tx, {
        userId: null,
        action: 'Purge',
        tableName: 'retention',
        newValues: { retentionYears: system.dataRetentionYears, cutoff: cutoff.toISOString(), removed, hoursTranscriptsFrozen: transcripts },
        always: true,
        at: now,
      });
    }
    return { cutoff: cutoff.toISOString(), removed, hoursTranscriptsFrozen: transcripts };
  });
}
