import { and, eq, ne, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { users } from '../../db/schema/index.ts';

/** The account a verified e-mail names (compared without case). */
export async function findAccountByEmail(db: DbOrTx, email: string) {
  const [row] = await db
    .select({ id: users.id, isActive: users.isActive, oidcSubject: users.oidcSubject })
    .from(users)
    .where(eq(sql`lower(${users.email})`, email.toLowerCase()));
  return row;
}

/** Whether another account already holds this identity-provider subject. */
export async function subjectHeldByOther(db: DbOrTx, subject: string, userId: number): Promise<boolean> {
  const [row] = await db.select({ id: users.id }).from(users).where(and(eq(users.oidcSubject, subject), ne(users.id, userId)));
  return row != null;
}

/** Bind the subject to the account at its first single sign-on (only if still unbound). */
export async function bindSubject(db: DbOrTx, userId: number, subject: string): Promise<void> {
  await db.update(users).set({ oidcSubject: subject }).where(and(eq(users.id, userId), sql`${users.oidcSubject} is null`));
}
