import { createHash, randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Role } from '../../../common/roles.ts';
import type { DbOrTx } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import type { SessionUser } from '../../plugins/request-context.ts';

export const SESSION_COOKIE = 'muster_session';
// lastSeenAt is refreshed at most this often, so busy pages do not write on every request.
const TOUCH_INTERVAL_MS = 60_000;

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

export async function createLoginSession(
  db: DbOrTx,
  userId: number,
  meta: { ip: string | null; userAgent: string | null },
  now: Date = new Date(),
): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await db.execute(sql`
    insert into login_sessions (id, user_id, ip_address, user_agent, created_at, last_seen_at)
    values (${hashToken(token)}, ${userId}, ${meta.ip}, ${meta.userAgent}, ${now}, ${now})`);
  return token;
}

/**
 * The signed-in user for a cookie token, or null when the session is unknown, ended, idle longer
 * than the sessionTimeoutMinutes setting, or the user was deactivated.
 */
export async function resolveLoginSession(
  db: DbOrTx,
  token: string,
  clock: Clock,
): Promise<{ user: SessionUser; sessionId: string } | null> {
  const id = hashToken(token);
  const now = clock.now();
  const { rows } = await db.execute<{
    id: number;
    first_name: string;
    last_name: string;
    email: string;
    role: Role;
    last_seen_at: Date;
  }>(sql`
    select u.id, u.first_name, u.last_name, u.email, u.role, s.last_seen_at
      from login_sessions s join users u on u.id = s.user_id
     where s.id = ${id} and s.ended_at is null and u.is_active
       and s.last_seen_at > ${now}::timestamptz - make_interval(mins => (select session_timeout_minutes from school_settings))`);
  const row = rows[0];
  if (!row) return null;
  if (now.getTime() - new Date(row.last_seen_at).getTime() > TOUCH_INTERVAL_MS) {
    await db.execute(sql`update login_sessions set last_seen_at = ${now} where id = ${id}`);
  }
  return {
    sessionId: id,
    user: { id: row.id, firstName: row.first_name, lastName: row.last_name, email: row.email, role: row.role },
  };
}

export async function endLoginSession(db: DbOrTx, sessionId: string, clock: Clock): Promise<void> {
  await db.execute(sql`update login_sessions set ended_at = ${clock.now()} where id = ${sessionId} and ended_at is null`);
}
