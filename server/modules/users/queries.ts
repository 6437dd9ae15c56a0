import { and, asc, eq, isNull, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { loginSessions, users } from '../../db/schema/index.ts';
import { SINGLE_LOCKS } from '../../db/advisory-locks.ts';

/** What the API shows of a user: never the password hash or token. */
const publicColumns = {
  id: users.id,
  firstName: users.firstName,
  lastName: users.lastName,
  email: users.email,
  username: users.username,
  role: users.role,
  isActive: users.isActive,
  lastLogin: users.lastLogin,
};
export type PublicUserRow = Pick<typeof users.$inferSelect, keyof typeof publicColumns>;
type UserWrite = Partial<typeof users.$inferInsert>;

export async function selectUsers(db: DbOrTx): Promise<PublicUserRow[]> {
  return db.select(publicColumns).from(users).orderBy(asc(users.lastName), asc(users.firstName));
}

export async function selectUserForUpdate(tx: DbOrTx, id: number): Promise<PublicUserRow | undefined> {
  const [row] = await tx.select(publicColumns).from(users).where(eq(users.id, id)).for('update');
  return row;
}

/** Serialises role changes so two admins cannot demote the last two super_admins at once. */
export async function lockSuperAdmins(tx: DbOrTx): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${SINGLE_LOCKS.superAdmins})`);
}

export async function countActiveSuperAdmins(tx: DbOrTx): Promise<number> {
  const [r] = await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(users)
    .where(and(eq(users.role, 'super_admin'), eq(users.isActive, true)));
  return r!.n;
}

export async function insertUserRow(db: DbOrTx, values: typeof users.$inferInsert): Promise<PublicUserRow> {
  const [row] = await db.insert(users).values(values).returning(publicColumns);
  return row!;
}

export async function updateUserRow(db: DbOrTx, id: number, values: UserWrite): Promise<PublicUserRow | undefined> {
  const [row] = await db.update(users).set(values).where(eq(users.id, id)).returning(publicColumns);
  return row;
}

/** A set-password token that is still good at `now`, for an active user. */
export function livePasswordToken(tokenHash: string, now: Date): SQL {
  return and(eq(users.passwordTokenHash, tokenHash), sql`${users.passwordTokenExpiresAt} > ${now}`, eq(users.isActive, true))!;
}

export async function findPasswordTokenOwner(db: DbOrTx, live: SQL) {
  const [owner] = await db.select({ email: users.email, firstName: users.firstName, lastName: users.lastName }).from(users).where(live);
  return owner;
}

/** Sets the password where the token is still live; the id of the user, or undefined when it no longer is. */
export async function setPasswordByToken(db: DbOrTx, live: SQL, values: UserWrite): Promise<number | undefined> {
  const [u] = await db.update(users).set(values).where(live).returning({ id: users.id });
  return u?.id;
}

/** Ends every open sign-in session of a user (deactivated, or a new password set). */
export async function endAllLoginSessions(db: DbOrTx, userId: number, now: Date): Promise<void> {
  await db
    .update(loginSessions)
    .set({ endedAt: now })
    .where(and(eq(loginSessions.userId, userId), isNull(loginSessions.endedAt)));
}

export async function activeInstructorExists(db: DbOrTx, userId: number): Promise<boolean> {
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.id, userId), eq(users.role, 'instructor'), eq(users.isActive, true)));
  return rows.length > 0;
}
