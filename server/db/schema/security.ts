import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, pgTable, primaryKey, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { CHECK_IN_FLAG_REASONS, CHECK_IN_FLAG_STATUSES, type CheckInFlagStatus } from '../../../common/check-in-flags.ts';
import { attendanceRecords } from './attendance.ts';
import { users } from './users.ts';
import { inList } from './sql-helpers.ts';

/**
 * Fixed-window counters shared by every app instance: public route limits, sign-in throttling per
 * account and address, wrong six-digit codes per address and session. One row per key and window;
 * an `insert … on conflict do update … returning hits` counts and reads in one atomic statement.
 */
export const rateLimitCounters = pgTable(
  'rate_limit_counters',
  {
    key: text('key').notNull(),
    windowStart: timestamp('window_start', { withTimezone: true }).notNull(),
    hits: integer('hits').notNull().default(0),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.key, t.windowStart] }), index('rate_limit_counters_expires_idx').on(t.expiresAt)],
);

/**
 * Browsers that have signed in to an account before (a long-lived httpOnly cookie, hashed here):
 * failures from elsewhere never refuse the right password from one of these.
 */
export const knownDevices = pgTable(
  'known_devices',
  {
    // SHA-256 of the cookie token.
    id: text('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('known_devices_user_idx').on(t.userId)],
);

/** One-time first-run setup codes (SHA-256 only); each instance that starts with no user adds one. */
export const setupCodes = pgTable('setup_codes', {
  codeHash: text('code_hash').primaryKey(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Facts about this installation that every instance must agree on, such as the encryption key's fingerprint. */
export const installationFacts = pgTable('installation_facts', {
  name: text('name').primaryKey(),
  value: text('value').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * A check-in that may have been made for someone else ("possible proxy"), with the evidence, for
 * the instructor to confirm or clear. A web page cannot prove a device: this detects and shows.
 * Also a scan by a student whose record already says absent or excused, for the instructor to
 * accept (the record becomes what the scan would have given) or dismiss.
 */
export const checkInFlags = pgTable(
  'check_in_flags',
  {
    id: serial('id').primaryKey(),
    attendanceRecordId: integer('attendance_record_id')
      .notNull()
      .references(() => attendanceRecords.id, { onDelete: 'cascade' }),
    reason: text('reason').notNull(),
    evidence: jsonb('evidence').notNull(),
    status: text('status').$type<CheckInFlagStatus>().notNull().default('flagged'),
    reviewedBy: integer('reviewed_by').references(() => users.id, { onDelete: 'set null' }),
    reviewedAt: timestamp('reviewed_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('check_in_flags_record_idx').on(t.attendanceRecordId),
    // One open flag per record and reason: a student scanning again and again raises one.
    uniqueIndex('check_in_flags_one_open')
      .on(t.attendanceRecordId, t.reason)
      .where(sql`${t.status} = 'flagged'`),
    check('check_in_flags_reason_check', inList(t.reason, CHECK_IN_FLAG_REASONS)),
    check('check_in_flags_status_check', inList(t.status, CHECK_IN_FLAG_STATUSES)),
  ],
);

/**
 * What each public check-in arrived with: the address and a hash of the browser's signature
 * (user agent and language), so check-ins from one browser for several students can be seen.
 */
export const checkInOrigins = pgTable(
  'check_in_origins',
  {
    attendanceRecordId: integer('attendance_record_id')
      .primaryKey()
      .references(() => attendanceRecords.id, { onDelete: 'cascade' }),
    qrSessionId: integer('qr_session_id').notNull(),
    ipAddress: text('ip_address'),
    browserSignature: text('browser_signature').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('check_in_origins_session_idx').on(t.qrSessionId, t.ipAddress, t.browserSignature, t.createdAt)],
);
