import type { AUDIT_ACTIONS, AuditEntry as AuditLogEntry, AuditQuery } from '../../../common/audit-logs.ts';
import type { DbOrTx } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import { csvStream, type CsvStream } from '../../lib/csv.ts';
import { zonedIso } from '../../lib/school-time.ts';
import {
  auditInsertSql,
  deleteAuditEntriesBefore,
  insertAuditEntry,
  selectAuditBatches,
  selectAuditPage,
  selectAuditSummary,
  selectLatestEntry,
  selectRecordNames,
  selectSchoolTimeZone,
  type AuditEntryRow,
} from './queries.ts';

/** The action names an audit entry may carry: the list in common/audit-logs.ts. */
type AuditAction = (typeof AUDIT_ACTIONS)[number];

type AuditEntry = {
  userId: number | null;
  action: AuditAction;
  tableName: string;
  recordId?: string | number | null;
  ipAddress?: string | null;
  oldValues?: unknown;
  newValues?: unknown;
  /**
   * Security events (sign-ins, settings, user and permission changes) are written even when the
   * enableAuditLogging setting is off; that switch only silences routine data changes.
   */
  always?: boolean;
  /** When it happened; defaults to the database clock. Services pass their injected clock's time. */
  at?: Date;
};

/**
 * Append one audit entry. Call it with the transaction that makes the change, so the entry and the
 * change commit or roll back together.
 */
export async function recordAudit(tx: DbOrTx, e: AuditEntry): Promise<void> {
  await insertAuditEntry(tx, {
    at: e.at ?? null,
    userId: e.userId,
    action: e.action,
    tableName: e.tableName,
    recordId: e.recordId == null ? null : String(e.recordId),
    ipAddress: e.ipAddress ?? null,
    oldValues: e.oldValues,
    newValues: e.newValues,
    always: e.always ?? false,
  });
}

/** The changed fields only: what an auditor wants to see in a diff. */
export function changedFields<T extends Record<string, unknown>>(before: T, after: Partial<T>): { oldValues: Partial<T>; newValues: Partial<T> } {
  const oldValues: Partial<T> = {};
  const newValues: Partial<T> = {};
  for (const key of Object.keys(after) as (keyof T)[]) {
    if (JSON.stringify(before[key]) !== JSON.stringify(after[key])) {
      oldValues[key] = before[key];
      newValues[key] = after[key] as T[keyof T];
    }
  }
  return { oldValues, newValues };
}

// --- Reading the log (Audit Logs page) ------------------------------------------------------

const toEntry = (r: AuditEntryRow): Omit<AuditLogEntry, 'recordName'> => ({
  ...r,
  timestamp: r.timestamp.toISOString(),
  oldValues: r.oldValues ?? null,
  newValues: r.newValues ?? null,
});

/** One page of the filtered log, newest first, with the filtered total (dates in the school's zone). */
export async function listAuditEntries(db: DbOrTx, q: AuditQuery): Promise<{ items: AuditLogEntry[]; total: number }> {
  const { rows, total } = await selectAuditPage(db, q, await selectSchoolTimeZone(db));
  // The records' names for the page as a whole (bounded by the kinds of record on it, not its rows).
  const names = await selectRecordNames(db, rows);
  return { items: rows.map((r) => ({ ...toEntry(r), recordName: names.get(`${r.tableName}:${r.recordId}`) ?? null })), total };
}

export async function summariseAuditLog(db: DbOrTx, q: AuditQuery, now: Date) {
  const r = await selectAuditSummary(db, q, await selectSchoolTimeZone(db), now);
  return { recentActivity24h: r.recent, failedLoginAttempts24h: r.failed, dataModifications: r.mods, total: r.total };
}

const EXPORT_COLUMNS = ['id', 'timestamp', 'userId', 'user', 'action', 'tableName', 'recordId', 'ipAddress', 'oldValues', 'newValues'] as const;

/**
 * The filtered log as a CSV download: the export itself is audited first, then the entries stream
 * out in batches (never the whole log in memory), honouring the stream's backpressure.
 */
export async function exportAuditLog(
  db: DbOrTx,
  q: AuditQuery,
  ctx: { userId: number; ip: string | null; clock: Clock },
): Promise<{ fileName: string; csv: CsvStream }> {
  const timeZone = await selectSchoolTimeZone(db);
  await recordAudit(db, { userId: ctx.userId, action: 'Export', tableName: 'audit_logs', ipAddress: ctx.ip, newValues: { filters: q }, always: true });
  const csv = csvStream(EXPORT_COLUMNS);
  void (async () => {
    try {
      for await (const batch of selectAuditBatches(db, q, timeZone)) {
        for (const e of batch.map(toEntry)) {
          const ok = csv.write({
            ...e,
            // The school's time with its offset, as every export writes times.
            timestamp: zonedIso(new Date(e.timestamp), timeZone),
            user: e.userName ?? (e.userId == null ? 'System' : ''),
            oldValues: e.oldValues == null ? '' : JSON.stringify(e.oldValues),
            newValues: e.newValues == null ? '' : JSON.stringify(e.newValues),
          });
          if (!ok) await new Promise((r) => csv.once('drain', r));
        }
      }
      csv.end();
    } catch (err) {
      csv.destroy(err as Error);
    }
  })();
  return { fileName: `audit-logs-${ctx.clock.now().toISOString().slice(0, 10)}.csv`, csv };
}

/** The last retention run as its Purge entry recorded it (Settings › System). */
export async function lastRetentionRun(db: DbOrTx): Promise<{ at: string; removed: Record<string, number> } | null> {
  const entry = await selectLatestEntry(db, 'Purge', 'retention');
  if (!entry) return null;
  return { at: entry.timestamp.toISOString(), removed: (entry.newValues as { removed?: Record<string, number> } | null)?.removed ?? {} };
}

/** Retention: removes the entries older than `cutoff` (call inside the purge's transaction); the number removed. */
export async function purgeAuditEntriesBefore(tx: DbOrTx, cutoff: Date): Promise<number> {
  return deleteAuditEntriesBefore(tx, cutoff);
}

/**
 * The audit insert as a fragment, for a statement that writes rows and their audit entries
 * together (the check-in, the auto-absent job): use it instead of restating the insert.
 */
export function auditInsertFragment(a: Parameters<typeof auditInsertSql>[0]) {
  return auditInsertSql(a);
}
