import { sql, type SQL } from 'drizzle-orm';
import type { AuditEntry, AuditQuery } from '../../../common/audit-logs.ts';
import type { DbOrTx } from '../../db/client.ts';
import { likePattern } from '../../lib/paging.ts';
import { isoOrNull } from '../../lib/sql-values.ts';

/** WHERE for the audit filters; dates compare with the entry's calendar date in the school's zone. */
export function auditWhere(q: AuditQuery, timeZone: string): SQL {
  const parts: SQL[] = [sql`true`];
  if (q.action && q.action !== 'all') parts.push(sql`lower(l.action) = lower(${q.action})`);
  if (q.table && q.table !== 'all') parts.push(sql`l.table_name = ${q.table}`);
  if (q.startDate) parts.push(sql`(l.timestamp at time zone ${timeZone})::date >= ${q.startDate}::date`);
  if (q.endDate) parts.push(sql`(l.timestamp at time zone ${timeZone})::date <= ${q.endDate}::date`);
  if (q.search) {
    const term = likePattern(q.search);
    parts.push(sql`(l.action ilike ${term} or l.table_name ilike ${term} or u.email ilike ${term}
                    or (u.first_name || ' ' || u.last_name) ilike ${term} or (l.user_id is null and 'system' ilike ${term}))`);
  }
  return sql.join(parts, sql` and `);
}

type Row = { id: number; timestamp: string; user_id: number | null; user_name: string | null; action: string; table_name: string; record_id: string | null; ip_address: string | null; old_values: unknown; new_values: unknown };

const toEntry = (r: Row): AuditEntry => ({
  id: Number(r.id),
  timestamp: isoOrNull(r.timestamp)!,
  userId: r.user_id,
  userName: r.user_name,
  action: r.action,
  tableName: r.table_name,
  recordId: r.record_id,
  ipAddress: r.ip_address,
  oldValues: r.old_values ?? null,
  newValues: r.new_values ?? null,
});

const SELECT = sql`
  select l.id, l.timestamp, l.user_id, nullif(trim(coalesce(u.first_name, '') || ' ' || coalesce(u.last_name, '')), '') as user_name,
         l.action, l.table_name, l.record_id, l.ip_address, l.old_values, l.new_values
    from audit_logs l left join users u on u.id = l.user_id`;

export async function listAuditEntries(db: DbOrTx, q: AuditQuery, timeZone: string): Promise<{ items: AuditEntry[]; total: number }> {
  const where = auditWhere(q, timeZone);
  const pageSize = q.pageSize ?? 50;
  const page = q.page ?? 1;
  const [{ rows }, { rows: count }] = await Promise.all([
    db.execute<Row>(sql`${SELECT} where ${where} order by l.timestamp desc, l.id desc limit ${pageSize} offset ${(page - 1) * pageSize}`),
    db.execute<{ n: number }>(sql`select count(*)::int as n from audit_logs l left join users u on u.id = l.user_id where ${where}`),
  ]);
  return { items: rows.map(toEntry), total: count[0]!.n };
}

/** Entries in batches by id (newest first), for a streamed export that never holds the whole log. */
export async function* auditEntriesInBatches(db: DbOrTx, q: AuditQuery, timeZone: string, batch = 2000): AsyncGenerator<AuditEntry[]> {
  const where = auditWhere(q, timeZone);
  let before: number | null = null;
  for (;;) {
    const { rows }: { rows: Row[] } = await db.execute<Row>(
      sql`${SELECT} where ${where} ${before == null ? sql`` : sql`and l.id < ${before}`} order by l.id desc limit ${batch}`,
    );
    if (rows.length === 0) return;
    yield rows.map(toEntry);
    before = Number(rows.at(-1)!.id);
    if (rows.length < batch) return;
  }
}

export async function auditSummary(db: DbOrTx, q: AuditQuery, timeZone: string, now: Date) {
  const { rows } = await db.execute<{ recent: number; failed: number; mods: number; total: number }>(sql`
    select (select count(*) from audit_logs where timestamp > ${now}::timestamptz - interval '24 hours')::int as recent,
           (select count(*) from audit_logs where action = 'Login' and new_values->>'outcome' = 'failed'
             and timestamp > ${now}::timestamptz - interval '24 hours')::int as failed,
           (select count(*) from audit_logs l left join users u on u.id = l.user_id
             where ${auditWhere(q, timeZone)} and l.action in ('Create', 'Update', 'Delete'))::int as mods,
           (select count(*) from audit_logs l left join users u on u.id = l.user_id where ${auditWhere(q, timeZone)})::int as total`);
  const r = rows[0]!;
  return { recentActivity24h: r.recent, failedLoginAttempts24h: r.failed, dataModifications: r.mods, total: r.total };
}
