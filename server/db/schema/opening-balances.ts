import { sql } from 'drizzle-orm';
import { check, date, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { students } from './students.ts';
import { users } from './users.ts';

/** One payment period's part of an opening balance: hours credited in it before Muster, and when it was completed. */
export type OpeningPeriodCredit = { number: number; creditedMinutes: number; completedOn: string | null };

/**
 * A student's hours from before the school kept attendance in Muster (COMPLIANCE.md, "Schools that
 * start mid-program"): what was scheduled and credited before `beforeDate`, by payment period, with
 * who entered it and why. The ledger starts from it on `beforeDate`; nothing before is an absence.
 */
export const studentOpeningBalances = pgTable(
  'student_opening_balances',
  {
    studentId: integer('student_id')
      .primaryKey()
      .references(() => students.id, { onDelete: 'cascade' }),
    beforeDate: date('before_date').notNull(),
    scheduledMinutes: integer('scheduled_minutes').notNull(),
    creditedMinutes: integer('credited_minutes').notNull(),
    // Null: the credited minutes fill the payment periods in order.
    periodCredits: jsonb('period_credits').$type<OpeningPeriodCredit[]>(),
    lastDateOfAttendance: date('last_date_of_attendance'),
    note: text('note').notNull(),
    enteredBy: integer('entered_by').references(() => users.id, { onDelete: 'set null' }),
    enteredAt: timestamp('entered_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('student_opening_balances_minutes_check', sql`${t.scheduledMinutes} >= 0 and ${t.creditedMinutes} >= 0`),
    check('student_opening_balances_lda_check', sql`${t.lastDateOfAttendance} is null or ${t.lastDateOfAttendance} < ${t.beforeDate}`),
  ],
);
