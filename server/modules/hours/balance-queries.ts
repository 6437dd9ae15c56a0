// Opening balances and the frozen hours transcripts; re-exported by queries.ts.
import { eq, getTableColumns, sql } from 'drizzle-orm';
import { anyInt } from '../../db/bulk-upsert.ts';

import type { DbOrTx } from '../../db/client.ts';
import { attendanceRecords, studentHoursTranscripts, studentOpeningBalances, studentWithdrawals, students, users } from '../../db/schema/index.ts';

import { userFullName } from '../../db/user-name.ts';

// ---- Opening balances ----

export type OpeningBalanceRow = typeof studentOpeningBalances.$inferSelect & { enteredByName: string | null };

/** The opening balances of these students (those that have one). */
export async function selectLedgerOpenings(db: DbOrTx, studentIds: number[]): Promise<(typeof studentOpeningBalances.$inferSelect)[]> {
  if (studentIds.length === 0) return [];
  return db.select().from(studentOpeningBalances).where(anyInt(studentOpeningBalances.studentId, studentIds));
}

export async function selectOpeningBalance(db: DbOrTx, studentId: number): Promise<OpeningBalanceRow | undefined> {
  const [row] = await db
    .select({ ...getTableColumns(studentOpeningBalances), enteredByName: userFullName })
    .from(studentOpeningBalances)
    .leftJoin(users, eq(users.id, studentOpeningBalances.enteredBy))
    .where(eq(studentOpeningBalances.studentId, studentId));
  return row;
}

/** Write a student's opening balance (one per student), locking the row for the caller's transaction. */
export async function upsertOpeningBalance(tx: DbOrTx, values: typeof studentOpeningBalances.$inferInsert): Promise<void> {
  const { studentId: _id, ...rest } = values;
  await tx.insert(studentOpeningBalances).values(values).onConflictDoUpdate({ target: studentOpeningBalances.studentId, set: rest });
}

export async function deleteOpeningBalanceRow(tx: DbOrTx, studentId: number): Promise<void> {
  await tx.delete(studentOpeningBalances).where(eq(studentOpeningBalances.studentId, studentId));
}

/**
 * Students who left before `before` (graduated on their graduation date, or withdrew on their
 * recorded withdrawal date) and have no frozen hours yet, with the date of their last record.
 * A student marked graduated or withdrawn without such a date has no exit Muster can count from.
 */
export async function selectExitedWithoutTranscript(
  db: DbOrTx,
  before: string,
  limit: number,
): Promise<{ studentId: number; exitDate: string; lastRecordDate: string | null }[]> {
  const { rows } = await db.execute<{ studentId: number; exitDate: string; lastRecordDate: string | null }>(sql`
    select x.student_id as "studentId", x.exit_date::text as "exitDate",
           (select max(a.session_date)::text from ${attendanceRecords} a where a.student_id = x.student_id) as "lastRecordDate"
      from (select s.id as student_id,
                   case when s.status = 'graduated' then s.graduation_date else w.withdrawal_date end as exit_date
              from ${students} s left join ${studentWithdrawals} w on w.student_id = s.id
             where s.status in ('graduated', 'withdrawn')) x
     where x.exit_date < ${before}::date
       and not exists (select 1 from ${studentHoursTranscripts} t where t.student_id = x.student_id)
     order by x.student_id
     limit ${limit}`);
  return rows;
}

export async function insertTranscript(tx: DbOrTx, values: { studentId: number; exitDate: string; ledger: unknown; now: Date }): Promise<void> {
  await tx.execute(sql`
    insert into ${studentHoursTranscripts} (student_id, exit_date, ledger, records_removed, frozen_at)
    values (${values.studentId}, ${values.exitDate}::date, ${JSON.stringify(values.ledger)}::jsonb,
            (select count(*) from ${attendanceRecords} a where a.student_id = ${values.studentId}), ${values.now})
    on conflict (student_id) do nothing`);
}

export async function selectTranscripts(db: DbOrTx, studentIds: number[]): Promise<{ studentId: number; exitDate: string; ledger: unknown; frozenAt: Date }[]> {
  if (studentIds.length === 0) return [];
  return db
    .select({
      studentId: studentHoursTranscripts.studentId,
      exitDate: studentHoursTranscripts.exitDate,
      ledger: studentHoursTranscripts.ledger,
      frozenAt: studentHoursTranscripts.frozenAt,
    })
    .from(studentHoursTranscripts)
    .where(anyInt(studentHoursTranscripts.studentId, studentIds));
}
