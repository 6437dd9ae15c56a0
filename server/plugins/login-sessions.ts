import { createHash, randomBytes } from 'node:crypto';
import { and, desc, eq, isNull, lt, ne, sql } from 'drizzle-orm';
import { SESSION_REF_LENGTH, type LoginPendingStep, type LoginSessionInfo } from '../../common/auth.ts';
import type { Role } from '../../common/roles.ts';
import type { DbOrTx } from '../db/client.ts';
import { loginSessions, schoolSettings } from '../db/schema/index.ts';
import type { Clock } from '../lib/clock.ts';
import type { SessionUser } from './request-context.ts';
import { NAMED_LOCK_CLASSES } from '../db/advisory-locks.ts';

export const SESSION_COOKIE = 'muster_session';
// lastSeenAt is refreshed at most this often, so busy pages do not write on every request.
const TOUCH_INTERVAL_MS = 60_000;

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * The reference a user sees for one of their sessions. The session's key is the SHA-256 of its
 * cookie; the reference is derived from the key one way, so a listed id cannot be turned back into
 * the key, let alone the cookie.
 */
function sessionRef(sessionId: string): string {
  return createHash('sha256').update(`muster-session-ref:${sessionId}`).digest('hex').slice(0, SESSION_REF_LENGTH);
}

/**
 * At most this many sessions per user are open: a new sign-in ends the least recently used beyond
 * it, so repeated sign-ins (a script, a shared device) cannot pile up sessions without end.
 */
const MAX_SESSIONS_PER_USER = 10;

/**
 * A new session for the user; its cookie token is returned (only its hash is stored). In the same
 * statement sequence, and so in the caller's transaction, the user's sessions beyond
 * MAX_SESSIONS_PER_USER end, least recently used first (then oldest). Sign-ins of one user are
 * serialised by an advisory lock for the rest of the transaction, so two at once cannot both count
 * ten and leave eleven.
 */
export async function createLoginSession(
  db: DbOrTx,
  userId: number,
  meta: { ip: string | null; userAgent: string | null },
  now: Date = new Date(),
  opts: { pendingStep?: LoginPendingStep | null; authMethod?: 'password' | 'sso' } = {},
): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  const id = hashToken(token);
  await db.execute(sql`select pg_advisory_xact_lock(hashtext(${NAMED_LOCK_CLASSES.loginSessions}), ${userId})`);
  await db.insert(loginSessions).values({
    id,
    userId,
    ipAddress: meta.ip,
    userAgent: meta.userAgent,
    createdAt: now,
    lastSeenAt: now,
    pendingStep: opts.pendingStep ?? null,
    authMethod: opts.authMethod ?? 'password',
  });
  await db.execute(sql`
    update login_sessions set ended_at = ${now}
     where id in (select id from login_sessions
                   where user_id = ${userId} and ended_at is null and id <> ${id}
                   order by last_seen_at desc, created_at desc
                  offset ${MAX_SESSIONS_PER_USER - 1})`);
  return token;
}

/** Record that a sign-in completed a step (null: nothing more is owed). */
export async function setSessionPendingStep(db: DbOrTx, sessionId: string, step: LoginPendingStep | null): Promise<void> {
  await db.update(loginSessions).set({ pendingStep: step }).where(eq(loginSessions.id, sessionId));
}

/** Sessions still in force at `now`: not ended, not idle past the timeout, not past their lifetime. */
const liveAt = (now: Date) => sql`
  ${loginSessions.endedAt} is null
  and ${loginSessions.lastSeenAt} > ${now}::timestamptz - make_interval(mins => ${schoolSettings.sessionTimeoutMinutes})
  and ${loginSessions.createdAt} > ${now}::timestamptz - make_interval(hours => ${schoolSettings.sessionLifetimeHours})`;

/**
 * The signed-in user for a cookie token, or null when the session is unknown, ended, idle longer
 * than the sessionTimeoutMinutes setting, older than the sessionLifetimeHours setting however
 * active it was, or the user was deactivated.
 */
export async function resolveLoginSession(
  db: DbOrTx,
  token: string,
  clock: Clock,
): Promise<{ user: SessionUser; sessionId: string; pendingStep: LoginPendingStep | null } | null> {
  const id = hashToken(token);
  const now = clock.now();
  const { rows } = await db.execute<{
    id: number;
    first_name: string;
    last_name: string;
    email: string;
    role: Role;
    last_seen_at: Date;
    pending_step: LoginPendingStep | null;
  }>(sql`
    select u.id, u.first_name, u.last_name, u.email, u.role, s.last_seen_at, s.pending_step
      from login_sessions s join users u on u.id = s.user_id cross join school_settings st
     where s.id = ${id} and s.ended_at is null and u.is_active
       and s.last_seen_at > ${now}::timestamptz - make_interval(mins => st.session_timeout_minutes)
       and s.created_at > ${now}::timestamptz - make_interval(hours => st.session_lifetime_hours)`);
  const row = rows[0];
  if (!row) return null;
  if (now.getTime() - new Date(row.last_seen_at).getTime() > TOUCH_INTERVAL_MS) {
    await db.execute(sql`update login_sessions set last_seen_at = ${now} where id = ${id}`);
  }
  return {
    sessionId: id,
    pendingStep: row.pending_step,
    user: { id: row.id, firstName: row.first_name, lastName: row.last_name, email: row.email, role: row.role },
  };
}

export async function endLoginSession(db: DbOrTx, sessionId: string, clock: Clock): Promise<void> {
  await db.execute(sql`update login_sessions set ended_at = ${clock.now()} where id = ${sessionId} and ended_at is null`);
}

/** "Firefox on Windows" from a user agent; the raw text (shortened) when it names neither. */
function describeBrowser(userAgent: string | null): string {
  if (!userAgent) return 'Unknown browser';
  const ua = userAgent;
  const browser = /Edg(e|A|iOS)?\//.test(ua)
    ? 'Edge'
    : /OPR\/|Opera/.test(ua)
      ? 'Opera'
      : /Firefox\/|FxiOS/.test(ua)
        ? 'Firefox'
        : /Chrome\/|CriOS|Chromium\//.test(ua)
          ? 'Chrome'
          : /Safari\//.test(ua)
            ? 'Safari'
            : null;
  const os = /Windows/.test(ua)
    ? 'Windows'
    : /iPhone|iPad|iPod/.test(ua)
      ? 'iOS'
      : /Android/.test(ua)
        ? 'Android'
        : /CrOS/.test(ua)
          ? 'ChromeOS'
          : /Mac OS X|Macintosh/.test(ua)
            ? 'macOS'
            : /Linux/.test(ua)
              ? 'Linux'
              : null;
  if (browser && os) return `${browser} on ${os}`;
  return browser ?? os ?? ua.slice(0, 80);
}

async function liveSessionsOf(db: DbOrTx, userId: number, now: Date) {
  return db
    .select({
      id: loginSessions.id,
      createdAt: loginSessions.createdAt,
      lastSeenAt: loginSessions.lastSeenAt,
      ipAddress: loginSessions.ipAddress,
      userAgent: loginSessions.userAgent,
      lifetimeHours: schoolSettings.sessionLifetimeHours,
    })
    .from(loginSessions)
    .innerJoin(schoolSettings, eq(schoolSettings.id, true))
    .where(and(eq(loginSessions.userId, userId), liveAt(now)))
    .orderBy(desc(loginSessions.lastSeenAt), desc(loginSessions.createdAt));
}

/** A user's own sessions still in force, most recently used first; `current` marks this request's. */
export async function listUserSessions(db: DbOrTx, userId: number, currentSessionId: string | null, now: Date): Promise<LoginSessionInfo[]> {
  const rows = await liveSessionsOf(db, userId, now);
  return rows.map((r) => ({
    id: sessionRef(r.id),
    current: r.id === currentSessionId,
    createdAt: r.createdAt.toISOString(),
    lastSeenAt: r.lastSeenAt.toISOString(),
    expiresAt: new Date(r.createdAt.getTime() + r.lifetimeHours * 3_600_000).toISOString(),
    ipAddress: r.ipAddress,
    browser: describeBrowser(r.userAgent),
  }));
}

/**
 * End one of the user's own sessions by its reference. Returns the ended session's key, or null
 * when the user has no such session in force (another user's reference finds nothing).
 */
export async function endUserSession(db: DbOrTx, userId: number, ref: string, now: Date): Promise<string | null> {
  const match = (await liveSessionsOf(db, userId, now)).find((r) => sessionRef(r.id) === ref);
  if (!match) return null;
  await db
    .update(loginSessions)
    .set({ endedAt: now })
    .where(and(eq(loginSessions.id, match.id), eq(loginSessions.userId, userId), isNull(loginSessions.endedAt)));
  return match.id;
}

/** End every session of the user except `keepSessionId`; returns how many were ended. */
export async function endOtherUserSessions(db: DbOrTx, userId: number, keepSessionId: string, now: Date): Promise<number> {
  const ended = await db
    .update(loginSessions)
    .set({ endedAt: now })
    .where(and(eq(loginSessions.userId, userId), ne(loginSessions.id, keepSessionId), isNull(loginSessions.endedAt)))
    .returning({ id: loginSessions.id });
  return ended.length;
}

// ---- Clean-up: login sessions are this file's; the jobs remove them through it ----

/** Retention: sign-in sessions created before `cutoff`. */
export async function deleteLoginSessionsCreatedBefore(tx: DbOrTx, cutoff: Date): Promise<number> {
  const result = await tx.delete(loginSessions).where(lt(loginSessions.createdAt, cutoff));
  return result.rowCount ?? 0;
}

/** Ended or idle-expired sessions are kept 90 days for the dashboard's user-activity figures, then removed. */
export async function deleteLoginSessionsIdleFor90Days(tx: DbOrTx): Promise<number> {
  const result = await tx.execute(sql`delete from login_sessions where last_seen_at < now() - interval '90 days'`);
  return result.rowCount ?? 0;
}
