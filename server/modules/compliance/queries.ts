import { and, asc, eq, inArray, lte, gte } from 'drizzle-orm';
import type { StudentStatus } from '../../../common/constants.ts';
import type { DbOrTx } from '../../db/client.ts';
import { programs, studentLeaves, studentWithdrawals, students } from '../../db/schema/index.ts';

// Leaves and withdrawals are this module's tables; the students it lists are read across (decision 010).

export type LeaveRow = typeof studentLeaves.$inferSelect;

export async function selectLeaves(db: DbOrTx, studentId: number): Promise<LeaveRow[]> {
  return db.select().from(studentLeaves).where(eq(studentLeaves.studentId, studentId)).orderBy(asc(studentLeaves.startDate), asc(studentLeaves.id));
}

export async function insertLeave(tx: DbOrTx, values: typeof studentLeaves.$inferInsert): Promise<LeaveRow> {
  const [row] = await tx.insert(studentLeaves).values(values).returning();
  return row!;
}

export async function updateLeaveRow(tx: DbOrTx, id: number, values: Partial<typeof studentLeaves.$inferInsert>): Promise<LeaveRow> {
  const [row] = await tx.update(studentLeaves).set(values).where(eq(studentLeaves.id, id)).returning();
  return row!;
}

/** Leaves covering a date, with their students' status (the daily status sync). */
export async function selectLeavesCovering(
  db: DbOrTx,
  date: string,
): Promise<{ leaveId: number; studentId: number; status: string; statusBefore: string | null }[]> {
  return db
    .select({ leaveId: studentLeaves.id, studentId: studentLeaves.studentId, status: students.status, statusBefore: studentLeaves.statusBefore })
    .from(studentLeaves)
    .innerJoin(students, eq(students.id, studentLeaves.studentId))
    .where(and(lte(studentLeaves.startDate, date), gte(studentLeaves.endDate, date)));
}

export async function selectStudentsWithStatus(db: DbOrTx, status: StudentStatus): Promise<{ id: number }[]> {
  return db.select({ id: students.id }).from(students).where(eq(students.status, status));
}

/** The status to give back after a student's latest leave that started on or before a date. */
export async function selectStatusBeforeLatestLeave(db: DbOrTx, studentId: number, date: string): Promise<StudentStatus | null> {
  const rows = await db
    .select({ statusBefore: studentLeaves.statusBefore, startDate: studentLeaves.startDate })
    .from(studentLeaves)
    .where(and(eq(studentLeaves.studentId, studentId), lte(studentLeaves.startDate, date)))
    .orderBy(asc(studentLeaves.startDate));
  return rows.at(-1)?.statusBefore ?? null;
}

type WithdrawalRow = typeof studentWithdrawals.$inferSelect;

export async function selectWithdrawal(db: DbOrTx, studentId: number): Promise<WithdrawalRow | undefined> {
  const [row] = await db.select().from(studentWithdrawals).where(eq(studentWithdrawals.studentId, studentId));
  return row;
}

export async function insertWithdrawal(tx: DbOrTx, values: typeof studentWithdrawals.$inferInsert): Promise<void> {
  await tx.insert(studentWithdrawals).values(values);
}

export async function deleteWithdrawalRow(tx: DbOrTx, studentId: number): Promise<void> {
  await tx.delete(studentWithdrawals).where(eq(studentWithdrawals.studentId, studentId));
}

export type CandidateRow = Pick<typeof students.$inferSelect, 'id' | 'programId' | 'enrollmentDate' | 'status' | 'firstName' | 'lastName' | 'sisStudentId'> & {
  programName: string | null;
};

/** Students in one of these statuses (and program), in id order, one batch after `afterId`. */
export async function selectStudentsBatch(
  db: DbOrTx,
  f: { statuses?: readonly StudentStatus[]; programId?: number; afterId: number; limit: number },
): Promise<CandidateRow[]> {
  return db
    .select({
      id: students.id,
      programId: students.programId,
      enrollmentDate: students.enrollmentDate,
      status: students.status,
      firstName: students.firstName,
      lastName: students.lastName,
      sisStudentId: students.sisStudentId,
      programName: programs.programName,
    })
    .from(students)
    .leftJoin(programs, eq(programs.id, students.programId))
    .where(
      and(
        f.statuses ? inArray(students.status, f.statuses) : undefined,
        f.programId != null ? eq(students.programId, f.programId) : undefined,
        gte(students.id, f.afterId + 1),
      ),
    )
    .orderBy(asc(students.id))
    .limit(f.limit);
}
