import { and, count, desc, eq, inArray, notInArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { knownDevices, setupCodes, userRecoveryCodes, users } from '../../db/schema/index.ts';

// Reads and writes of sign-in, first-run setup and known browsers.

/** The account a typed e-mail names (compared without case), with what sign-in checks. */
export async function findSignInAccount(db: DbOrTx, email: string) {
  const [row] = await db
    .select({
      id: users.id,
      role: users.role,
      passwordHash: users.passwordHash,
      isActive: users.isActive,
      mustChangePassword: users.mustChangePassword,
      passwordChangedAt: users.passwordChangedAt,
      totpEnrolledAt: users.totpEnrolledAt,
    })
    .from(users)
    .where(eq(sql`lower(${users.email})`, sql`lower(${email})`));
  return row;
}

export async function setLastLogin(db: DbOrTx, userId: number, at: Date): Promise<void> {
  await db.update(users).set({ lastLogin: at }).where(eq(users.id, userId));
}

export async function countUsers(db: DbOrTx): Promise<number> {
  const [r] = await db.select({ n: count() }).from(users);
  return r!.n;
}

/** Held to the end of the transaction: no other setup can add a user meanwhile. */
export async function lockUsersTable(tx: DbOrTx): Promise<void> {
  await tx.execute(sql`lock table ${users} in share row exclusive mode`);
}

export async function insertUserReturningId(
  db: DbOrTx,
  values: Pick<typeof users.$inferInsert, 'email' | 'username' | 'firstName' | 'lastName' | 'role' | 'passwordHash'>,
): Promise<number> {
  const [row] = await db.insert(users).values(values).returning({ id: users.id });
  return row!.id;
}

export async function deleteSetupCodes(db: DbOrTx): Promise<void> {
  await db.delete(setupCodes);
}

export async function insertSetupCode(db: DbOrTx, codeHash: string): Promise<void> {
  await db.insert(setupCodes).values({ codeHash });
}

export async function selectSetupCodeHashes(db: DbOrTx): Promise<string[]> {
  const rows = await db.select({ codeHash: setupCodes.codeHash }).from(setupCodes);
  return rows.map((r) => r.codeHash);
}

/** The first of `ids` that is a known browser of the account. */
export async function findKnownDeviceId(db: DbOrTx, userId: number, ids: string[]): Promise<string | null> {
  const [row] = await db
    .select({ id: knownDevices.id })
    .from(knownDevices)
    .where(and(eq(knownDevices.userId, userId), inArray(knownDevices.id, ids)))
    .limit(1);
  return row?.id ?? null;
}

export async function touchKnownDevice(db: DbOrTx, id: string, now: Date): Promise<void> {
  await db.update(knownDevices).set({ lastUsedAt: now }).where(eq(knownDevices.id, id));
}

export async function insertKnownDevice(db: DbOrTx, id: string, userId: number, now: Date): Promise<void> {
  await db.insert(knownDevices).values({ id, userId, createdAt: now, lastUsedAt: now });
}

/** Keeps the account's `keep` most recently used browsers and forgets the rest. */
export async function pruneKnownDevices(db: DbOrTx, userId: number, keep: number): Promise<void> {
  const newest = db
    .select({ id: knownDevices.id })
    .from(knownDevices)
    .where(eq(knownDevices.userId, userId))
    .orderBy(desc(knownDevices.lastUsedAt))
    .limit(keep);
  await db.delete(knownDevices).where(and(eq(knownDevices.userId, userId), notInArray(knownDevices.id, newest)));
}

/** What the sign-in steps need of an account. */
export async function selectAccountSecurity(db: DbOrTx, userId: number) {
  const [row] = await db
    .select({
      id: users.id,
      email: users.email,
      firstName: users.firstName,
      lastName: users.lastName,
      passwordHash: users.passwordHash,
      mustChangePassword: users.mustChangePassword,
      passwordChangedAt: users.passwordChangedAt,
      totpSecretEncrypted: users.totpSecretEncrypted,
      totpEnrolledAt: users.totpEnrolledAt,
    })
    .from(users)
    .where(eq(users.id, userId));
  return row;
}

export async function updateOwnPassword(db: DbOrTx, userId: number, passwordHash: string, now: Date): Promise<void> {
  await db.update(users).set({ passwordHash, passwordChangedAt: now, mustChangePassword: false, updatedAt: now }).where(eq(users.id, userId));
}

export async function updateTotp(
  db: DbOrTx,
  userId: number,
  values: { totpSecretEncrypted: string | null; totpEnrolledAt: Date | null },
  now: Date,
): Promise<void> {
  await db
    .update(users)
    .set({ ...values, updatedAt: now })
    .where(eq(users.id, userId));
}

export async function replaceRecoveryCodes(db: DbOrTx, userId: number, codeHashes: string[], now: Date): Promise<void> {
  await db.delete(userRecoveryCodes).where(eq(userRecoveryCodes.userId, userId));
  if (codeHashes.length > 0) await db.insert(userRecoveryCodes).values(codeHashes.map((codeHash) => ({ userId, codeHash, createdAt: now })));
}

/** Spend an unused recovery code; false when it is unknown or spent already. */
export async function spendRecoveryCode(db: DbOrTx, userId: number, codeHash: string, now: Date): Promise<boolean> {
  const spent = await db
    .update(userRecoveryCodes)
    .set({ usedAt: now })
    .where(and(eq(userRecoveryCodes.userId, userId), eq(userRecoveryCodes.codeHash, codeHash), sql`${userRecoveryCodes.usedAt} is null`))
    .returning({ id: userRecoveryCodes.id });
  return spent.length === 1;
}

export async function countUnusedRecoveryCodes(db: DbOrTx, userId: number): Promise<number> {
  const [r] = await db
    .select({ n: count() })
    .from(userRecoveryCodes)
    .where(and(eq(userRecoveryCodes.userId, userId), sql`${userRecoveryCodes.usedAt} is null`));
  return r!.n;
}

export async function selectUserForReset(db: DbOrTx, userId: number) {
  const [row] = await db.select({ id: users.id, email: users.email, totpEnrolledAt: users.totpEnrolledAt }).from(users).where(eq(users.id, userId));
  return row;
}
