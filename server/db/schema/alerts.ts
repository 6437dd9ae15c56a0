import { index, integer, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './users.ts';

/**
 * Low-attendance alerts someone acknowledged (docs/decisions/048). Alerts themselves are
 * computed from attendance, never stored; an acknowledgement names the alert (`alert_id`, e.g.
 * `consecutive_absences:12:34`) and the reason it fired for then (`reason`, as the rule states it:
 * a student's last absence, a course's severity). While the reason is the same the alert stays out
 * of the counts and the list; for a new reason it shows again. Rows are kept: a history, which the audit log's entries point at.
 */
export const alertAcknowledgements = pgTable(
  'alert_acknowledgements',
  {
    id: serial('id').primaryKey(),
    alertId: text('alert_id').notNull(),
    reason: text('reason').notNull(),
    note: text('note'),
    acknowledgedBy: integer('acknowledged_by').references(() => users.id, { onDelete: 'set null' }),
    acknowledgedAt: timestamp('acknowledged_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('alert_acknowledgements_alert_idx').on(t.alertId, t.acknowledgedAt)],
);
