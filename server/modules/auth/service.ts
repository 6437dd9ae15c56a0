import { sql } from 'drizzle-orm';
import { INVALID_CREDENTIALS, TOO_MANY_ATTEMPTS } from '../../../common/auth.ts';
import type { Role } from '../../../common/roles.ts';
import type { Db, DbOrTx } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import { pgError } from '../../lib/db-errors.ts';
import { AppError, conflict, tooManyRequests } from '../../lib/errors.ts';
import { dummyPasswordHash, hashPassword, verifyPassword } from '../../lib/passwords.ts';
import { recordAudit } from '../audit-logs/service.ts';
import { createLoginSession } from './sessions.ts';

// Failed sign-ins are counted from the audit log, so the limit holds across app instances.
const FAILURE_WINDOW_MINUTES = 15;
const MAX_FAILURES_PER_EMAIL = 5;
const MAX_FAILURES_PER_IP = 50;

type Meta = { ip: string | null; userAgent: string | null };

async function recentFailures(db: DbOrTx, email: string, ip: string | null, now: Date) {
  const { rows } = await db.execute<{ by_email: number; by_ip: number }>(sql`
    select count(*) filter (where lower(new_values->>'email') = lower(${email}))::int as by_email,
           count(*) filter (where ip_address = ${ip})::int as by_ip
      from audit_logs
     where action = 'Login' and new_values->>'outcome' = 'failed'
       and timestamp > ${now}::timestamptz - make_interval(mins => ${FAILURE_WINDOW_MINUTES})`);
  return rows[0] ?? { by_email: 0, by_ip: 0 };
}

/** Check e-mail and password; on success open a login session and return its cookie token. */
export async function signIn(db: Db, email: string, password: string, meta: Meta, clock: Clock): Promise<{ token: string; userId: number }> {
  const now = clock.now();
  const failures = await recentFailures(db, email, meta.ip, now);
  if (failures.by_email >= MAX_FAILURES_PER_EMAIL || failures.by_ip >= MAX_FAILURES_PER_IP) {
    throw tooManyRequests(TOO_MANY_ATTEMPTS);
  }
  const { rows } = await db.execute<{ id: number; password_hash: string | null; is_active: boolean }>(
    sql`select id, password_hash, is_active from users where lower(email) = lower(${email})`,
  );
  const user = rows[0];
  // Always run one argon2 verification so the answer takes as long whether or not the e-mail exists.
  const ok = await verifyPassword(user?.password_hash ?? (await dummyPasswordHash()), password);
  if (!user || !ok || !user.is_active) {
    await recordAudit(db, {
      userId: user?.id ?? null,
      action: 'Login',
      tableName: 'users',
      recordId: user?.id ?? null,
      ipAddress: meta.ip,
      newValues: { outcome: 'failed', email, reason: !user ? 'unknown e-mail' : !ok ? 'wrong password' : 'inactive account' },
      always: true,
      at: now,
    });
    throw new AppError(401, 'INVALID_CREDENTIALS', INVALID_CREDENTIALS);
  }
  return db.transaction(async (tx) => {
    const token = await createLoginSession(tx, user.id, meta, now);
    await tx.execute(sql`update users set last_login = ${now} where id = ${user.id}`);
    await recordAudit(tx, {
      userId: user.id,
      action: 'Login',
      tableName: 'users',
      recordId: user.id,
      ipAddress: meta.ip,
      newValues: { outcome: 'success', email },
      always: true,
      at: now,
    });
    return { token, userId: user.id };
  });
}

export async function userCount(db: DbOrTx): Promise<number> {
  const { rows } = await db.execute<{ n: number }>(sql`select count(*)::int as n from users`);
  return rows[0]!.n;
}

export type NewUser = {
  email: string;
  password: string | null;
  firstName: string;
  lastName: string;
  role: Role;
  username?: string | null;
};

/** Insert a user with an argon2id hash; a taken e-mail or username is a 409 naming the field. */
export async function insertUser(tx: DbOrTx, u: NewUser): Promise<number> {
  const passwordHash = u.password ? await hashPassword(u.password) : null;
  try {
    const { rows } = await tx.execute<{ id: number }>(sql`
      insert into users (email, username, first_name, last_name, role, password_hash)
      values (${u.email.trim()}, ${u.username ?? null}, ${u.firstName}, ${u.lastName}, ${u.role}, ${passwordHash})
      returning id`);
    return rows[0]!.id;
  } catch (err) {
    const c = pgError(err).constraint;
    if (c === 'users_email_unique') throw conflict('A user with this e-mail already exists', 'email');
    if (c === 'users_username_unique') throw conflict('A user with this username already exists', 'username');
    throw err;
  }
}

/**
 * First run: create the first super_admin while no user exists. The table lock makes two
 * simultaneous setups impossible: the second sees a user and is refused.
 */
export async function setupFirstAdmin(
  db: Db,
  input: { email: string; password: string; firstName: string; lastName: string },
  meta: Meta,
): Promise<{ token: string; userId: number }> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`lock table users in share row exclusive mode`);
    if ((await userCount(tx)) > 0) throw conflict('Setup is already complete: a user exists. Sign in instead.');
    const userId = await insertUser(tx, { ...input, role: 'super_admin' });
    await recordAudit(tx, {
      userId,
      action: 'Create',
      tableName: 'users',
      recordId: userId,
      ipAddress: meta.ip,
      newValues: { email: input.email, firstName: input.firstName, lastName: input.lastName, role: 'super_admin', via: 'first-run setup' },
      always: true,
    });
    const token = await createLoginSession(tx, userId, meta);
    return { token, userId };
  });
}
