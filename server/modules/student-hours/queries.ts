import { and, count, eq, gt, lt, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { studentHoursLinks, students } from '../../db/schema/index.ts';
import { NAMED_LOCK_CLASSES } from '../../db/advisory-locks.ts';

/** The student whose ID (case-insensitive, like check-in) and e-mail on file (case-insensitive) both match. */
export async function selectStudentByIdAndEmail(
  db: DbOrTx,
  sisStudentId: string,
  email: string,
): Promise<{ id: number; firstName: string; email: string } | undefined> {
  const [row] = await db
    .select({ id: students.id, firstName: students.firstName, email: students.email })
    .from(students)
    .where(and(sql`lower(${students.sisStudentId}) = lower(${sisStudentId})`, sql`lower(${students.email}) = lower(${email})`))
    .limit(1);
  return row && row.email ? { id: row.id, firstName: row.firstName, email: row.email } : undefined;
}

/** Serialises link requests for one student across instances, for the rest of the transaction. */
export async function lockStudentLinks(tx: DbOrTx, studentId: number): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${NAMED_LOCK_CLASSES.studentHoursLink}), ${studentId})`);
}

export async function countLinksSince(db: DbOrTx, studentId: number, since: Date): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(studentHoursLinks)
    .where(and(eq(studentHoursLinks.studentId, studentId), gt(studentHoursLinks.createdAt, since)));
  return row?.n ?? 0;
}

export async function insertLink(db: DbOrTx, link: { tokenHash: string; studentId: number; expiresAt: Date; createdAt: Date }): Promise<void> {
  await db.insert(studentHoursLinks).values(link);
}

/** A link that has not expired, marked as opened now. */
export async function openLink(db: DbOrTx, tokenHash: string, now: Date): Promise<{ studentId: number; expiresAt: Date } | undefined> {
  const [row] = await db
    .update(studentHoursLinks)
    .set({ lastOpenedAt: now })
    .where(and(eq(studentHoursLinks.tokenHash, tokenHash), gt(studentHoursLinks.expiresAt, now)))
    .returning({ studentId: studentHoursLinks.studentId, expiresAt: studentHoursLinks.expiresAt });
  return row;
}

export async function deleteExpiredLinks(db: DbOrTx, now: Date): Promise<number> {
  const rows = await db.delete(studentHoursLinks).where(lt(studentHoursLinks.expiresAt, now)).returning({ tokenHash: studentHoursLinks.tokenHash });
  return rows.length;
}
