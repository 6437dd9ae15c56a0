import { sql } from 'drizzle-orm';
import { bigint, date, index, integer, jsonb, pgTable, primaryKey, timestamp } from 'drizzle-orm/pg-core';
import type { LedgerCarry } from '../../../common/hours.ts';
import { students } from './students.ts';

/**
 * Each student's ledger kept as records are written (docs/decisions/056-kept-ledger-totals.md):
 * the walk's state at the end of `validThrough`, exact unless `staleFrom` is set. Triggers on every
 * table the ledger reads bump `version` and set `staleFrom` (migration 0029); the refresher writes
 * only if `version` is what it read.
 */
export const ledgerState = pgTable(
  'ledger_state',
  {
    studentId: integer('student_id')
      .primaryKey()
      .references(() => students.id, { onDelete: 'cascade' }),
    version: bigint('version', { mode: 'number' }).notNull().default(0),
    validThrough: date('valid_through'),
    staleFrom: date('stale_from'),
    carry: jsonb('carry').$type<LedgerCarry>(),
    refreshedAt: timestamp('refreshed_at', { withTimezone: true }),
  },
  // The triggers' horizon reads the latest valid_through; the refresher's queue, the stale ones.
  (t) => [
    index('ledger_state_valid_through_idx').on(t.validThrough),
    index('ledger_state_stale_idx')
      .on(t.staleFrom)
      .where(sql`${t.staleFrom} is not null`),
  ],
);

/**
 * The kept ledger's days, running: each row holds the student's totals from the start of the walk
 * through `day`, written only for days where something changed, so a range's figures are two rows'
 * difference (the last row at or before each end).
 */
export const ledgerDays = pgTable(
  'ledger_days',
  {
    studentId: integer('student_id')
      .notNull()
      .references(() => students.id, { onDelete: 'cascade' }),
    day: date('day').notNull(),
    scheduled: integer('scheduled').notNull(),
    attended: integer('attended').notNull(),
    excused: integer('excused').notNull(),
    makeUp: integer('make_up').notNull(),
    credited: integer('credited').notNull(),
    raw: integer('raw').notNull(),
    rounded: integer('rounded').notNull(),
    deducted: integer('deducted').notNull(),
    capped: integer('capped').notNull(),
    pendingException: integer('pending_exception').notNull(),
    autoCheckOut: integer('auto_check_out').notNull(),
    /** Scheduled time neither attended nor credited as excused (make-up owed), running. */
    gap: integer('gap').notNull(),
    /** The last date of attendance as of `day`. */
    lastAttended: date('last_attended'),
  },
  (t) => [primaryKey({ columns: [t.studentId, t.day] })],
);
