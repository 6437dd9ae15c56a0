import { bigserial, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './users.ts';

/** Append-only: a trigger (migration 0001) refuses UPDATE and DELETE except for the retention job. */
export const auditLogs = pgTable(
  'audit_logs',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    timestamp: timestamp('timestamp', { withTimezone: true }).notNull().defaultNow(),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    action: text('action').notNull(),
    tableName: text('table_name').notNull(),
    recordId: text('record_id'),
    ipAddress: text('ip_address'),
    oldValues: jsonb('old_values'),
    newValues: jsonb('new_values'),
  },
  (t) => [
    index('audit_logs_timestamp_idx').on(t.timestamp),
    index('audit_logs_action_idx').on(t.action, t.timestamp),
    index('audit_logs_table_idx').on(t.tableName, t.timestamp),
    index('audit_logs_user_idx').on(t.userId, t.timestamp),
  ],
);
