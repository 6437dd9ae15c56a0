import { and, desc, eq, ilike, inArray, isNull, lt, or, sql, type SQL } from 'drizzle-orm';
import type { AUDIT_ACTIONS, AuditQuery } from '../../../common/audit-logs.ts';
import type { DbOrTx } from '../../db/client.ts';
import { userFullName } from '../../db/user-name.ts';
import { auditLogs, schoolSettings, users } from '../../db/schema/index.ts';
import { likePattern } from '../../lib/paging.ts';

type AuditAction = (typeof AUDIT_ACTIONS)[number];
/** The actions that change data, counted as "data modifications". */
const DATA_CHANGES: AuditAction[] = ['Create', 'Update', 'Delete'];
const LOGIN: AuditAction = 'Login';

/**
 * One audit row as it is written (the id and, by default, the timestamp come from the database).
 * Values left undefined are stored as SQL null; anything else (null included) as JSON.
 */
type AuditInsert = Pick<typeof auditLogs.$inferInsert, 'userId' | 'tableName' | 'recordId' | 'ipAddress' | 'oldValues' | 'newValues'> & {
  action: AuditAction;
  at: Date | null;
  always: boolean;
};

/** Whether an entry is written: security events always; others while audit logging is on in the settings. */
function auditSwitch(always: boolean): SQL {
  return sql`${always} or coalesce((select ${schoolSettings.enableAuditLogging} from ${schoolSettings}), true)`;
}

/** A value of an audit column: a bound value, or an SQL expression (e.g. over the rows of a CTE). */
type AuditValue = SQL | string | number | Date | null;

/**
 * The one audit insert, as a statement fragment: `insert into audit_logs … select … [from <from>]
 * where <audit switch>`. With `from` (a CTE of rows just written, say) it writes one entry per row,
 * so a statement can write rows and their audit entries together; `oldValues`/`newValues` are
 * jsonb expressions.
 */
export function auditInsertSql(a: {
  at: AuditValue;
  userId: AuditValue;
  action: AuditAction;
  tableName: string;
  recordId: AuditValue;
  ipAddress?: AuditValue;
  oldValues?: SQL | null;
  newValues?: SQL | null;
  from?: SQL;
  always?: boolean;
}): SQL {
  return sql`insert into ${auditLogs} (timestamp, user_id, action, table_name, record_id, ip_address, old_values, new_values)
    select ${a.at}, ${a.userId}, ${a.action}, ${a.tableName}, ${a.recordId}, ${a.ipAddress ?? null}, ${a.oldValues ?? null}, ${a.newValues ?? null}
    ${a.from ? sql`from ${a.from}` : sql``}
    where ${auditSwitch(a.always ?? false)}`;
}

/**
 * One statement: the entry is written only when it is a security event (`always`) or audit logging
 * is on in the school's settings, so the check cannot race a settings change.
 */
export async function insertAuditEntry(tx: DbOrTx, e: AuditInsert): Promise<void> {
  const oldJson = e.oldValues === undefined ? null : JSON.stringify(e.oldValues);
  const newJson = e.newValues === undefined ? null : JSON.stringify(e.newValues);
  await tx.execute(
    auditInsertSql({
      at: sql`coalesce(${e.at}::timestamptz, now())`,
      userId: e.userId ?? null,
      action: e.action,
      tableName: e.tableName,
      recordId: e.recordId ?? null,
      ipAddress: e.ipAddress ?? null,
      oldValues: sql`${oldJson}::jsonb`,
      newValues: sql`${newJson}::jsonb`,
      always: e.always,
    }),
  );
}

/** Condition for the audit filters; dates compare with the entry's calendar date in the school's zone. */
function auditWhere(q: AuditQuery, timeZone: string): SQL | undefined {
  const localDate = sql`(${auditLogs.timestamp} at time zone ${timeZone})::date`;
  const term = q.search ? likePattern(q.search) : null;
  return and(
    q.action && q.action !== 'all' ? sql`lower(${auditLogs.action}) = lower(${q.action})` : undefined,
    q.table && q.table !== 'all' ? eq(auditLogs.tableName, q.table) : undefined,
    q.startDate ? sql`${localDate} >= ${q.startDate}::date` : undefined,
    q.endDate ? sql`${localDate} <= ${q.endDate}::date` : undefined,
    term == null
      ? undefined
      : or(
          ilike(auditLogs.action, term),
          ilike(auditLogs.tableName, term),
          ilike(users.email, term),
          sql`(${users.firstName} || ' ' || ${users.lastName}) ilike ${term}`,
          and(isNull(auditLogs.userId), sql`'system' ilike ${term}`),
        ),
  );
}

function selectEntries(db: DbOrTx, where: SQL | undefined) {
  return db
    .select({
      id: auditLogs.id,
      timestamp: auditLogs.timestamp,
      userId: auditLogs.userId,
      userName: userFullName,
      action: auditLogs.action,
      tableName: auditLogs.tableName,
      recordId: auditLogs.recordId,
      ipAddress: auditLogs.ipAddress,
      oldValues: auditLogs.oldValues,
      newValues: auditLogs.newValues,
    })
    .from(auditLogs)
    .leftJoin(users, eq(users.id, auditLogs.userId))
    .where(where);
}

export type AuditEntryRow = Awaited<ReturnType<typeof selectEntries>>[number];

/** One page of the filtered entries, newest first, and the filtered total. */
export async function selectAuditPage(db: DbOrTx, q: AuditQuery, timeZone: string): Promise<{ rows: AuditEntryRow[]; total: number }> {
  const where = auditWhere(q, timeZone);
  const pageSize = q.pageSize ?? 50;
  const page = q.page ?? 1;
  const [rows, [count]] = await Promise.all([
    selectEntries(db, where)
      .orderBy(desc(auditLogs.timestamp), desc(auditLogs.id))
      .limit(pageSize)
      .offset((page - 1) * pageSize),
    db
      .select({ n: sql<number>`count(*)::int` })
      .from(auditLogs)
      .leftJoin(users, eq(users.id, auditLogs.userId))
      .where(where),
  ]);
  return { rows, total: count!.n };
}

/** Entries in batches by id (newest first), for a streamed export that never holds the whole log. */
export async function* selectAuditBatches(db: DbOrTx, q: AuditQuery, timeZone: string, batch = 2000): AsyncGenerator<AuditEntryRow[]> {
  const where = auditWhere(q, timeZone);
  let before: number | null = null;
  for (;;) {
    const rows: AuditEntryRow[] = await selectEntries(db, and(where, before == null ? undefined : lt(auditLogs.id, before)))
      .orderBy(desc(auditLogs.id))
      .limit(batch);
    if (rows.length === 0) return;
    yield rows;
    before = rows.at(-1)!.id;
    if (rows.length < batch) return;
  }
}

/** Aggregate: activity and failed sign-ins of the last 24 hours, and the filter's data changes and total. */
export async function selectAuditSummary(db: DbOrTx, q: AuditQuery, timeZone: string, now: Date) {
  const where = auditWhere(q, timeZone) ?? sql`true`;
  const since = sql`${now}::timestamptz - interval '24 hours'`;
  const filtered = sql`${auditLogs} left join ${users} on ${users.id} = ${auditLogs.userId}`;
  const { rows } = await db.execute<{ recent: number; failed: number; mods: number; total: number }>(sql`
    select (select count(*) from ${auditLogs} where ${auditLogs.timestamp} > ${since})::int as recent,
           (select count(*) from ${auditLogs} where ${auditLogs.action} = ${LOGIN} and ${auditLogs.newValues}->>'outcome' = 'failed'
             and ${auditLogs.timestamp} > ${since})::int as failed,
           (select count(*) from ${filtered} where ${where} and ${inArray(auditLogs.action, DATA_CHANGES)})::int as mods,
           (select count(*) from ${filtered} where ${where})::int as total`);
  return rows[0]!;
}

/** The newest entry of an action on a table (e.g. the last retention run). */
export async function selectLatestEntry(db: DbOrTx, action: AuditAction, tableName: string) {
  const [row] = await db
    .select({ timestamp: auditLogs.timestamp, newValues: auditLogs.newValues })
    .from(auditLogs)
    .where(and(eq(auditLogs.action, action), eq(auditLogs.tableName, tableName)))
    .orderBy(desc(auditLogs.id))
    .limit(1);
  return row;
}

/**
 * The school's time zone, read here rather than through the settings service: settings audits its
 * own changes, so audit-logs stands below it and must not import it (as the insert above reads
 * the audit switch in SQL).
 */
export async function selectSchoolTimeZone(db: DbOrTx): Promise<string> {
  const [row] = await db.select({ timeZone: schoolSettings.timeZone }).from(schoolSettings).where(eq(schoolSettings.id, true));
  if (!row) throw new Error('school_settings row is missing; migrations not applied?');
  return row.timeZone;
}

/**
 * Deletes the entries older than `cutoff`; the number removed. The log refuses deletes (migration
 * 0001's trigger) unless the transaction says it is the retention job, so say so just around it.
 */
export async function deleteAuditEntriesBefore(tx: DbOrTx, cutoff: Date): Promise<number> {
  await tx.execute(sql`select set_config('muster.audit_purge', 'on', true)`);
  const result = await tx.delete(auditLogs).where(lt(auditLogs.timestamp, cutoff));
  await tx.execute(sql`select set_config('muster.audit_purge', 'off', true)`);
  return result.rowCount ?? 0;
}

/**
 * What an entry's record id points at, by the table it names: the person, course, program, class
 * or closure whose name the Audit Logs page shows beside the id, not a bare number. Tables not listed
 * (settings, sign-ins, reports) have no one record to name.
 */
const NAMED_BY: Record<string, (ids: ReturnType<typeof sql.param>) => SQL> = {
  students: (ids) => sql`select st.id, st.first_name || ' ' || st.last_name as name from students st where st.id = any(${ids}::int[])`,
  users: (ids) =>
    sql`select u.id, coalesce(nullif(trim(coalesce(u.first_name, '') || ' ' || coalesce(u.last_name, '')), ''), u.email) as name from users u where u.id = any(${ids}::int[])`,
  courses: (ids) => sql`select c.id, c.course_code || ' — ' || c.course_name as name from courses c where c.id = any(${ids}::int[])`,
  programs: (ids) => sql`select p.id, p.program_name as name from programs p where p.id = any(${ids}::int[])`,
  schedules: (ids) =>
    sql`select s.id, c.course_code || ' · ' || coalesce(s.cohort_name, 'cohort ' || s.cohort_number) as name from schedules s join courses c on c.id = s.course_id where s.id = any(${ids}::int[])`,
  attendance: (ids) =>
    sql`select a.id, st.first_name || ' ' || st.last_name || ' · ' || c.course_code || ' · ' || a.session_date::text as name
          from attendance_records a join students st on st.id = a.student_id join schedules s on s.id = a.schedule_id join courses c on c.id = s.course_id
         where a.id = any(${ids}::int[])`,
  qr_sessions: (ids) =>
    sql`select q.id, c.course_code || ' · ' || q.session_date::text as name from qr_sessions q join schedules s on s.id = q.schedule_id join courses c on c.id = s.course_id where q.id = any(${ids}::int[])`,
  make_up_sessions: (ids) =>
    sql`select m.id, st.first_name || ' ' || st.last_name || ' · ' || m.session_date::text as name from make_up_sessions m join students st on st.id = m.student_id where m.id = any(${ids}::int[])`,
  student_leaves: (ids) =>
    sql`select l.id, st.first_name || ' ' || st.last_name as name from student_leaves l join students st on st.id = l.student_id where l.id = any(${ids}::int[])`,
  calendar_closures: (ids) => sql`select k.id, k.name from calendar_closures k where k.id = any(${ids}::int[])`,
};
// Tables whose record id is another table's: a student's withdrawal, opening balance; a program's policy; a class's roster.
const SAME_ID_AS: Record<string, string> = {
  student_withdrawals: 'students',
  student_opening_balances: 'students',
  program_policies: 'programs',
  schedule_rosters: 'schedules',
  user_notification_settings: 'users',
};

/**
 * The names of the records a page of entries points at, keyed `table:id`: one statement per kind of
 * record on the page (at most a dozen, each by primary key), never one per entry. A record since
 * deleted has no name.
 */
export async function selectRecordNames(db: DbOrTx, refs: { tableName: string; recordId: string | null }[]): Promise<Map<string, string>> {
  const idsByKind = new Map<string, Set<number>>();
  for (const r of refs) {
    const kind = SAME_ID_AS[r.tableName] ?? r.tableName;
    if (!NAMED_BY[kind] || r.recordId == null || !/^\d{1,9}$/.test(r.recordId)) continue;
    if (!idsByKind.has(kind)) idsByKind.set(kind, new Set());
    idsByKind.get(kind)!.add(Number(r.recordId));
  }
  const names = new Map<string, string>();
  await Promise.all(
    [...idsByKind].map(async ([kind, ids]) => {
      const { rows } = await db.execute<{ id: number; name: string | null }>(NAMED_BY[kind]!(sql.param([...ids])));
      for (const row of rows) if (row.name) names.set(`${kind}:${row.id}`, row.name);
    }),
  );
  return new Map(
    refs.flatMap((r) => {
      const name = names.get(`${SAME_ID_AS[r.tableName] ?? r.tableName}:${r.recordId}`);
      return name ? [[`${r.tableName}:${r.recordId}`, name] as const] : [];
    }),
  );
}
