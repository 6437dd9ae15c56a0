import { sql } from 'drizzle-orm';
import { bigserial, check, index, integer, jsonb, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { OUTBOX_CHANNELS, OUTBOX_STATUSES } from '../../../common/notifications.ts';
import { students } from './students.ts';
import { users } from './users.ts';
import { inList } from './sql-helpers.ts';

/**
 * Every e-mail and SMS Muster sends, written in the same transaction as the event that causes it
 * and delivered by the outbox worker with retries: a crash between the two loses nothing.
 */
export const outboxMessages = pgTable(
  'outbox_messages',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    channel: text('channel').$type<(typeof OUTBOX_CHANNELS)[number]>().notNull(),
    // What caused it (low_attendance, weekly_report, maintenance, student_hours_link, …).
    kind: text('kind').notNull(),
    recipient: text('recipient').notNull(),
    subject: text('subject'),
    textBody: text('text_body').notNull(),
    htmlBody: text('html_body'),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    studentId: integer('student_id').references(() => students.id, { onDelete: 'set null' }),
    status: text('status').$type<(typeof OUTBOX_STATUSES)[number]>().notNull().default('queued'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    // A worker that claimed the row holds it until then; a crashed worker's claim simply expires.
    claimedUntil: timestamp('claimed_until', { withTimezone: true }),
    lastError: text('last_error'),
    // Sent as List-Unsubscribe (one-click) so mail programs offer their own unsubscribe button.
    unsubscribeUrl: text('unsubscribe_url'),
    // Stable across retries so a receiving server can recognise a repeat.
    messageId: text('message_id').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
  },
  (t) => [
    index('outbox_messages_due_idx')
      .on(t.nextAttemptAt)
      .where(sql`${t.status} = 'queued'`),
    index('outbox_messages_status_idx').on(t.status, t.createdAt),
    check('outbox_messages_channel_check', inList(t.channel, OUTBOX_CHANNELS)),
    check('outbox_messages_status_check', inList(t.status, OUTBOX_STATUSES)),
  ],
);

/** When a low-attendance rule fired for a student: the same rule is not sent again within a week. */
export const studentAlerts = pgTable(
  'student_alerts',
  {
    id: serial('id').primaryKey(),
    studentId: integer('student_id')
      .notNull()
      .references(() => students.id, { onDelete: 'cascade' }),
    rule: text('rule').notNull(),
    details: jsonb('details').notNull(),
    firedAt: timestamp('fired_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('student_alerts_student_rule_idx').on(t.studentId, t.rule, t.firedAt)],
);

/** A maintenance window announced by super_admin: a banner for staff, e-mailed when switched on. */
export const maintenanceNotices = pgTable(
  'maintenance_notices',
  {
    id: serial('id').primaryKey(),
    message: text('message').notNull(),
    startsAt: timestamp('starts_at', { withTimezone: true }).notNull(),
    endsAt: timestamp('ends_at', { withTimezone: true }).notNull(),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('maintenance_notices_window_idx').on(t.endsAt),
    check('maintenance_notices_window_check', sql`${t.endsAt} > ${t.startsAt}`),
    check('maintenance_notices_message_not_blank', sql`length(trim(${t.message})) > 0`),
  ],
);

/** "E-mail me my hours": a read-only link for one student, valid 7 days (SHA-256 of the token only). */
export const studentHoursLinks = pgTable(
  'student_hours_links',
  {
    tokenHash: text('token_hash').primaryKey(),
    studentId: integer('student_id')
      .notNull()
      .references(() => students.id, { onDelete: 'cascade' }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastOpenedAt: timestamp('last_opened_at', { withTimezone: true }),
  },
  (t) => [index('student_hours_links_expires_idx').on(t.expiresAt)],
);
