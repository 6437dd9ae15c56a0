import { createHash, randomBytes } from 'node:crypto';
import { IT_ADMIN_SUPER, LAST_SUPER_ADMIN, OWN_ROLE, SELF_DEACTIVATE, type UserInput } from '../../../common/users.ts';
import type { Role } from '../../../common/roles.ts';
import type { Db, DbOrTx } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import { withUniqueFields } from '../../lib/db-errors.ts';
import { badRequest, forbidden, notFound } from '../../lib/errors.ts';
import { assertPasswordAllowed } from '../../lib/password-rules.ts';
import { hashPassword } from '../../lib/passwords.ts';
import { isSuperAdmin, mayChangeRoleOf, mayManageRole } from '../access/service.ts';
import { changedFields, recordAudit } from '../audit-logs/service.ts';
import {
  activeInstructorExists,
  countActiveSuperAdmins,
  endAllLoginSessions,
  findPasswordTokenOwner,
  insertUserRow,
  livePasswordToken,
  lockSuperAdmins,
  selectUserForUpdate,
  selectUsers,
  setPasswordByToken,
  updateUserRow,
  type PublicUserRow,
} from './queries.ts';

type Actor = { id: number; role: Role };
type Meta = { ip: string | null; clock: Clock };

const UNIQUE = {
  users_email_unique: { field: 'email', message: 'A user with this e-mail already exists' },
  users_username_unique: { field: 'username', message: 'A user with this username already exists' },
};
const SET_PASSWORD_TTL_MS = 7 * 24 * 60 * 60 * 1000;

/** A user as the API shows them: the stored row, with the last sign-in as an ISO string. */
type PublicUser = Omit<PublicUserRow, 'lastLogin'> & { lastLogin: string | null };
const toPublic = (u: PublicUserRow): PublicUser => ({ ...u, lastLogin: u.lastLogin?.toISOString() ?? null });

/** Whether the user exists, is an instructor and is active (a schedule may be given to them). */
export async function isActiveInstructor(db: DbOrTx, userId: number): Promise<boolean> {
  return activeInstructorExists(db, userId);
}

export async function listUsers(db: DbOrTx): Promise<PublicUser[]> {
  return (await selectUsers(db)).map(toPublic);
}

async function getUserForUpdate(tx: DbOrTx, id: number) {
  const row = await selectUserForUpdate(tx, id);
  if (!row) throw notFound('User');
  return row;
}

function newPasswordToken(now: Date) {
  const token = randomBytes(32).toString('base64url');
  return {
    token,
    hash: createHash('sha256').update(token).digest('hex'),
    expiresAt: new Date(now.getTime() + SET_PASSWORD_TTL_MS),
  };
}

/** Create a local user with no password and a one-time set-password link (7 days). */
export async function createUser(db: Db, actor: Actor, input: UserInput, meta: Meta) {
  if (!mayManageRole(actor, input.role)) throw forbidden(IT_ADMIN_SUPER);
  const now = meta.clock.now();
  const t = newPasswordToken(now);
  return db.transaction(async (tx) => {
    const row = await withUniqueFields(
      () => insertUserRow(tx, { ...input, passwordTokenHash: t.hash, passwordTokenExpiresAt: t.expiresAt, createdAt: now, updatedAt: now }),
      UNIQUE,
    );
    await recordAudit(tx, {
      userId: actor.id,
      action: 'Create',
      tableName: 'users',
      recordId: row.id,
      ipAddress: meta.ip,
      newValues: input,
      always: true,
      at: now,
    });
    return { user: toPublic(row), token: t.token, expiresAt: t.expiresAt };
  });
}

export async function updateUser(db: Db, actor: Actor, id: number, input: UserInput, meta: Meta): Promise<PublicUser> {
  return db.transaction(async (tx) => {
    await lockSuperAdmins(tx);
    const before = await getUserForUpdate(tx, id);
    if (!mayManageRole(actor, before.role) || !mayManageRole(actor, input.role)) throw forbidden(IT_ADMIN_SUPER);
    if (!mayChangeRoleOf(actor, id, before.role, input.role)) throw forbidden(OWN_ROLE);
    if (isSuperAdmin(before) && !isSuperAdmin(input) && before.isActive && (await countActiveSuperAdmins(tx)) <= 1) {
      throw badRequest(LAST_SUPER_ADMIN, [{ field: 'role', message: LAST_SUPER_ADMIN }]);
    }
    const row = await withUniqueFields(() => updateUserRow(tx, id, { ...input, updatedAt: meta.clock.now() }), UNIQUE);
    const diff = changedFields(before as Record<string, unknown>, input);
    await recordAudit(tx, { userId: actor.id, action: 'Update', tableName: 'users', recordId: id, ipAddress: meta.ip, ...diff, always: true });
    return toPublic(row!);
  });
}

/** "Delete" deactivates: the person's history stays attributed, their sessions stop working. */
export async function setUserActive(db: Db, actor: Actor, id: number, active: boolean, meta: Meta): Promise<PublicUser> {
  return db.transaction(async (tx) => {
    await lockSuperAdmins(tx);
    const before = await getUserForUpdate(tx, id);
    if (!mayManageRole(actor, before.role)) throw forbidden(IT_ADMIN_SUPER);
    if (!active && id === actor.id) throw badRequest(SELF_DEACTIVATE);
    if (!active && isSuperAdmin(before) && before.isActive && (await countActiveSuperAdmins(tx)) <= 1) throw badRequest(LAST_SUPER_ADMIN);
    const row = await updateUserRow(tx, id, { isActive: active, updatedAt: meta.clock.now() });
    if (!active) await endAllLoginSessions(tx, id, meta.clock.now());
    await recordAudit(tx, {
      userId: actor.id,
      action: active ? 'Update' : 'Delete',
      tableName: 'users',
      recordId: id,
      ipAddress: meta.ip,
      oldValues: { isActive: before.isActive },
      newValues: { isActive: active },
      always: true,
    });
    return toPublic(row!);
  });
}

/** A fresh one-time set-password link (e.g. the first one expired or the user forgot their password). */
export async function issuePasswordLink(db: Db, actor: Actor, id: number, meta: Meta) {
  return db.transaction(async (tx) => {
    const before = await getUserForUpdate(tx, id);
    if (!mayManageRole(actor, before.role)) throw forbidden(IT_ADMIN_SUPER);
    const t = newPasswordToken(meta.clock.now());
    await updateUserRow(tx, id, { passwordTokenHash: t.hash, passwordTokenExpiresAt: t.expiresAt });
    await recordAudit(tx, {
      userId: actor.id,
      action: 'Update',
      tableName: 'users',
      recordId: id,
      ipAddress: meta.ip,
      newValues: { passwordLinkIssued: true },
      always: true,
    });
    return { user: toPublic(before), token: t.token, expiresAt: t.expiresAt };
  });
}

const INVALID_LINK = 'This link is invalid or has expired. Ask an administrator for a new one.';

/** Redeem a set-password link: checks the password against the rule, sets it, burns the token. */
export async function redeemPasswordLink(db: Db, token: string, password: string, meta: Meta): Promise<void> {
  const hash = createHash('sha256').update(token).digest('hex');
  const live = livePasswordToken(hash, meta.clock.now());
  const owner = await findPasswordTokenOwner(db, live);
  if (!owner) throw badRequest(INVALID_LINK);
  await assertPasswordAllowed(password, owner);
  const passwordHash = await hashPassword(password);
  await db.transaction(async (tx) => {
    const userId = await setPasswordByToken(tx, live, {
      passwordHash,
      passwordTokenHash: null,
      passwordTokenExpiresAt: null,
      mustChangePassword: false,
      passwordChangedAt: meta.clock.now(),
      updatedAt: meta.clock.now(),
    });
    if (userId == null) throw badRequest(INVALID_LINK);
    await endAllLoginSessions(tx, userId, meta.clock.now());
    await recordAudit(tx, {
      userId,
      action: 'Update',
      tableName: 'users',
      recordId: userId,
      ipAddress: meta.ip,
      newValues: { passwordSet: true },
      always: true,
    });
  });
}
