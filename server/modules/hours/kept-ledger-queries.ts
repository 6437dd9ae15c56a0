// The kept ledgers' reads and writes (ledger_state, ledger_days; docs/decisions/056-kept-ledger-totals.md).
import { sql } from 'drizzle-orm';
import type { LedgerCarry } from '../../../common/hours.ts';
import { anyOf, dateArrayLiteral, intArrayText } from '../../db/bulk-upsert.ts';
import type { DbOrTx } from '../../db/client.ts';

export type KeptState = { studentId: number; version: number; validThrough: string | null; staleFrom: string | null; carry: LedgerCarry | null };

/** Running figures of a ledger's days through one day: a row of ledger_days. */
export type DaySums = {
  scheduledMinutes: number;
  attendedMinutes: number;
  excusedMinutes: number;
  makeUpMinutes: number;
  creditedMinutes: number;
  rawMinutes: number;
  roundedMinutes: number;
  deductedMinutes: number;
  cappedMinutes: number;
  pendingExceptionMinutes: number;
  autoCheckOutMinutes: number;
  gapMinutes: number;
  lastAttended: string | null;
};

const SUM_COLUMNS = {
  scheduledMinutes: 'scheduled',
  attendedMinutes: 'attended',
  excusedMinutes: 'excused',
  makeUpMinutes: 'make_up',
  creditedMinutes: 'credited',
  rawMinutes: 'raw',
  roundedMinutes: 'rounded',
  deductedMinutes: 'deducted',
  cappedMinutes: 'capped',
  pendingExceptionMinutes: 'pending_exception',
  autoCheckOutMinutes: 'auto_check_out',
  gapMinutes: 'gap',
} as const satisfies Record<Exclude<keyof DaySums, 'lastAttended'>, string>;
export const SUM_KEYS = Object.keys(SUM_COLUMNS) as (keyof typeof SUM_COLUMNS)[];

/** The states of these students, creating the missing ones (never computed: nothing kept yet). */
export async function selectKeptStates(db: DbOrTx, studentIds: number[]): Promise<KeptState[]> {
  if (studentIds.length === 0) return [];
  const select = async (ids: number[]) =>
    (
      await db.execute<KeptState>(sql`
        select student_id as "studentId", version::float8 as version, valid_through as "validThrough", stale_from::text as "staleFrom", carry
          from ledger_state where student_id = ${anyOf(ids, 'int')}`)
    ).rows;
  const states = await select(studentIds);
  if (states.length === studentIds.length) return states;
  const known = new Set(states.map((s) => s.studentId));
  const missing = studentIds.filter((id) => !known.has(id));
  await db.execute(sql`insert into ledger_state (student_id) select unnest(${sql.param(missing)}::int[]) order by 1 on conflict do nothing`);
  return states.concat(await select(missing));
}

const WRITE_ROWS_PER_STATEMENT = 5000;

export type KeptWrite = {
  studentId: number;
  version: number;
  /** Rows of days from this one on are replaced. */
  replaceFrom: string;
  through: string;
  carry: LedgerCarry;
  days: (DaySums & { day: string })[];
};

/**
 * Keep what was computed, for each student whose version is still the one read (a write since
 * then marked it again: it stays stale). Answers the students written and how many day rows.
 */
export async function writeKept(db: DbOrTx, writes: KeptWrite[], now: Date): Promise<{ written: Set<number>; dayRows: number }> {
  if (writes.length === 0) return { written: new Set(), dayRows: 0 };
  // One transaction: a state never says more than its days hold. Rows locked in id order, as the
  // triggers lock them: a read and the refresher keeping the same students never deadlock.
  return db.transaction(async (tx) => {
    const { rows } = await tx.execute<{ studentId: number }>(sql`
    with w as (select * from unnest(${sql.param(writes.map((w) => w.studentId))}::int[], ${sql.param(writes.map((w) => w.version))}::bigint[],
                                    ${sql.param(writes.map((w) => w.through))}::date[], ${sql.param(writes.map((w) => JSON.stringify(w.carry)))}::jsonb[])
                            as w(student_id, version, through, carry)),
         locked as (select s.student_id from ledger_state s join w on w.student_id = s.student_id order by s.student_id for update of s)
    update ledger_state s set valid_through = w.through, stale_from = null, carry = w.carry, refreshed_at = ${now.toISOString()}::timestamptz
      from w join locked l on l.student_id = w.student_id
     where s.student_id = w.student_id and s.version = w.version
     returning s.student_id as "studentId"`);
    const written = new Set(rows.map((r) => r.studentId));
    const kept = writes.filter((w) => written.has(w.studentId));
    if (kept.length === 0) return { written, dayRows: 0 };
    await tx.execute(sql`
    delete from ledger_days d using unnest(${sql.param(kept.map((w) => w.studentId))}::int[], ${sql.param(kept.map((w) => w.replaceFrom))}::date[]) as u(student_id, day)
     where d.student_id = u.student_id and d.day >= u.day`);
    const days = kept.flatMap((w) => w.days.map((d) => ({ ...d, studentId: w.studentId })));
    // In slices: a thousand students' whole histories are a quarter of a million rows, and turning them
    // into parameters at once would hold the event loop for a tenth of a second.
    for (let i = 0; i < days.length; i += WRITE_ROWS_PER_STATEMENT) {
      const slice = days.slice(i, i + WRITE_ROWS_PER_STATEMENT);
      const column = (k: (typeof SUM_KEYS)[number]) => sql`${sql.param(slice.map((d) => d[k]))}::int[]`;
      await tx.execute(sql`
      insert into ledger_days (student_id, day, ${sql.raw(SUM_KEYS.map((k) => SUM_COLUMNS[k]).join(', '))}, last_attended)
      select * from unnest(${sql.param(slice.map((d) => d.studentId))}::int[], ${sql.param(slice.map((d) => d.day))}::date[],
                           ${sql.join(SUM_KEYS.map(column), sql`, `)}, ${sql.param(slice.map((d) => d.lastAttended))}::date[])`);
    }
    return { written, dayRows: days.length };
  });
}

/** A figure of DaySums: a read may ask for only the ones it uses (fewer columns to send and parse). */
export type SumKey = keyof DaySums;
const ALL_SUM_KEYS: readonly SumKey[] = [...SUM_KEYS, 'lastAttended'];
const columnOf = (k: SumKey) => (k === 'lastAttended' ? 'last_attended' : SUM_COLUMNS[k]);

/**
 * The running figures at each (student, date): the last kept row at or before the date (none: nothing
 * yet); `keys`: the figures wanted, the only ones the answers hold.
 */
export async function selectSumsAt<K extends SumKey>(
  db: DbOrTx,
  at: { studentId: number; date: string }[],
  keys: readonly K[] = ALL_SUM_KEYS as readonly K[],
): Promise<Map<string, Pick<DaySums, K>>> {
  const out = new Map<string, Pick<DaySums, K>>();
  if (at.length === 0) return out;
  const { rows } = await db.execute<Pick<DaySums, K> & { studentId: number; at: string }>(sql`
    select q.student_id as "studentId", q.at::text as at, ${sql.raw(keys.map((k) => `d.${columnOf(k)} as "${k}"`).join(', '))}
      from unnest(${intArrayText(at.map((a) => a.studentId))}::int[], ${dateArrayLiteral(at.map((a) => a.date))}::date[]) as q(student_id, at)
      cross join lateral (select * from ledger_days d where d.student_id = q.student_id and d.day <= q.at order by d.day desc limit 1) d`);
  for (const r of rows) {
    const { studentId, at: date, ...sums } = r;
    out.set(`${studentId}|${date}`, sums as unknown as Pick<DaySums, K>);
  }
  return out;
}

/**
 * Up to `limit` students whose kept ledger is stale, missing or behind `horizon` (the refresher's
 * queue), the stale ones first; students whose hours are frozen in a transcript are never kept.
 */
export async function selectStudentsToKeep(db: DbOrTx, horizon: string, limit: number): Promise<number[]> {
  const { rows } = await db.execute<{ id: number }>(sql`
    select s.id from students s left join ledger_state l on l.student_id = s.id
     where (l.student_id is null or l.stale_from is not null or l.valid_through is null or l.valid_through < ${horizon}::date)
       and not exists (select 1 from student_hours_transcripts t where t.student_id = s.id)
     order by l.stale_from nulls last, s.id
     limit ${limit}`);
  return rows.map((r) => r.id);
}

/** How many students' kept ledgers are stale or not built yet (what "Recomputing hours" counts). */
export async function countStudentsToRecompute(db: DbOrTx): Promise<number> {
  const { rows } = await db.execute<{ n: number }>(sql`
    select count(*)::int as n from students s left join ledger_state l on l.student_id = s.id
     where (l.student_id is null or l.stale_from is not null or l.carry is null)
       and not exists (select 1 from student_hours_transcripts t where t.student_id = s.id)`);
  return rows[0]?.n ?? 0;
}
