import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';

export type AuditAction = 'Create' | 'Update' | 'Delete' | 'Upload' | 'Login' | 'Logout' | 'Export' | 'Purge';

export type AuditEntry = {
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
  const oldJson = e.oldValues === undefined ? null : JSON.stringify(e.oldValues);
  const newJson = e.newValues === undefined ? null : JSON.stringify(e.newValues);
  await tx.execute(sql`
    insert into audit_logs (timestamp, user_id, action, table_name, record_id, ip_address, old_values, new_values)
    select coalesce(${e.at ?? null}::timestamptz, now()), ${e.userId}, ${e.action}, ${e.tableName}, ${e.recordId == null ? null : String(e.recordId)},
           ${e.ipAddress ?? null}, ${oldJson}::jsonb, ${newJson}::jsonb
    where ${e.always ?? false} or coalesce((select enable_audit_logging from school_settings), true)`);
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

type SqlFragment = ReturnType<typeof sql>;

/**
 * The audit insert as a fragment of a one-statement write (the check-in, the auto-absent job): one
 * routine entry per row of `source`, a CTE of the same statement; `recordId` and `newValues` are
 * expressions over its rows. Like recordAudit, silent when audit logging is off.
 */
export function auditInsertFrom(
  source: SqlFragment,
  e: { at: Date; action: AuditAction; tableName: string; recordId: SqlFragment; newValues: SqlFragment; userId?: number | null; ipAddress?: string | null },
): SqlFragment {
  return sql`
    insert into audit_logs (timestamp, user_id, action, table_name, record_id, ip_address, new_values)
    select ${e.at}::timestamptz, ${e.userId ?? null}::int, ${e.action}, ${e.tableName}, (${e.recordId})::text, ${e.ipAddress ?? null}, ${e.newValues}
      from ${source} where coalesce((select enable_audit_logging from school_settings), true)`;
}
