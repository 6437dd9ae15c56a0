import { date, integer, jsonb, pgTable, timestamp } from 'drizzle-orm/pg-core';
import { students } from './students.ts';

/**
 * A student's hours frozen when retention removes their attendance detail (COMPLIANCE.md,
 * "Retention"): the ledger as it stood at their exit (totals, payment periods, SAP, LDA), kept for
 * good. Students with one cannot be deleted; the ledger reads it instead of the removed records.
 */
export const studentHoursTranscripts = pgTable('student_hours_transcripts', {
  studentId: integer('student_id')
    .primaryKey()
    .references(() => students.id, { onDelete: 'restrict' }),
  exitDate: date('exit_date').notNull(),
  // The StudentHours answer of that day without its days (common/hours.ts frozenHoursSchema).
  ledger: jsonb('ledger').notNull(),
  recordsRemoved: integer('records_removed').notNull(),
  frozenAt: timestamp('frozen_at', { withTimezone: true }).notNull().defaultNow(),
});
