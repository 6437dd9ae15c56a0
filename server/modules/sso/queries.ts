import { and, eq, ne, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { users } from '../../db/schema/index.ts';
import { emailMatchKey } from '../../lib/email-match.ts';

/**
 * The account a verified e-mail names: `key` is the claim's emailMatchKey, and the account's own
 * e-mail must have that same key (one function on both sides). lower() only finds the candidate
 * through the unique index; PostgreSQL's lower() folds more than ASCII, so it alone is not the test.
 */
export async function findAccountByEmail(db: DbOrTx, key: string) {
  const [row] = await db
    .select({ id: users.id, isActive: users.isActive, oidcSubject: users.oidcSubject, email: users.email })
    .from(users)
    .where(eq(sql`lower(${users.email})`, key));
  return row && emailMatchKey(row.email) === key ? row : undefined;
}

/** Whether another account already holds this identity-provider subject. */
export async function subjectHeldByOther(db: DbOrTx, subject: string, userId: number): Promise<boolean> {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.oidcSubject, subject), ne(users.id, userId)));
  return row != null;
}

/** Bind the subject to the account at its first single sign-on (only if still unbound). */
export async function bindSubject(db: DbOrTx, userId: number, subject: string): Promise<void> {
  await db
    .update(users)
    .set({ oidcSubject: subject })
    .where(and(eq(users.id, userId), sql`${users.oidcSubject} is null`));
}
