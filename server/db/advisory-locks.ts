/**
 * Every PostgreSQL advisory lock the app takes, named: a key used for two purposes
 * would serialise unrelated work, or let two writers in that each thought it held the lock. Add a
 * new lock here, never as a bare number where it is taken; advisory-locks.test.ts checks the keys
 * are distinct.
 *
 * PostgreSQL has two key spaces: one bigint (`pg_advisory_lock(key)`) and a pair of integers
 * (`pg_advisory_lock(a, b)`). Locks per record take a pair: a class below, and the record's id.
 */

/** Locks of one bigint key: one of a kind for the whole database. */
export const SINGLE_LOCKS = {
  /** Migrations: one instance migrates, the others wait (server/db/migrate.ts). */
  migrate: 727001,
  /** The login-session clean-up job runs on one instance at a time. */
  loginSessionCleanup: 727002,
  /** The auto-absent job runs on one instance at a time. */
  autoAbsent: 727003,
  /** The retention job runs on one instance at a time. */
  retention: 727004,
  /** Role changes, so two administrators cannot demote the last two super_admins at once. */
  superAdmins: 727010,
} as const;

/** Classes of two-integer locks: the second integer says which record or step. */
export const LOCK_CLASSES = {
  /** An import's steps, one at a time per step number (server/modules/imports). */
  importStep: 727100,
  /** Instances present: each holds (class, 1) shared while it runs (server/lib/instance-presence.ts). */
  instancePresence: 727102,
} as const;

/**
 * Classes named by text (hashtext of the name as the first integer), for locks per record whose
 * second integer is the record's id or a hash of its key.
 */
export const NAMED_LOCK_CLASSES = {
  /** A student's hours-link requests, one at a time per student. */
  studentHoursLink: 'student-hours-link',
  /** A student's low-attendance alert per rule, sent once. */
  studentAlert: 'student-alert',
  /** A user's login sessions, their count capped. */
  loginSessions: 'login-sessions',
  /** One phone's check-ins at a meeting, one at a time (one device checks in one student). */
  device: 'device',
  /** The proxy checks of one (QR session, address, browser signature). */
  proxyOrigin: 'proxy-origin',
} as const;
