import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { UPLOAD_TYPES } from '../../../common/constants.ts';
import { users } from './users.ts';
import { inList } from './sql-helpers.ts';

export const fileUploads = pgTable(
  'file_uploads',
  {
    id: serial('id').primaryKey(),
    uploadType: text('upload_type').notNull(),
    fileName: text('file_name').notNull(),
    fileSize: integer('file_size').notNull(),
    rowCount: integer('row_count').notNull().default(0),
    createdCount: integer('created_count').notNull().default(0),
    updatedCount: integer('updated_count').notNull().default(0),
    errorCount: integer('error_count').notNull().default(0),
    status: text('status').notNull(),
    dryRun: boolean('dry_run').notNull().default(false),
    errors: jsonb('errors'),
    uploadedBy: integer('uploaded_by').references(() => users.id, { onDelete: 'set null' }),
    // The app instance running the import while it is processing (its presence connection's
    // backend pid and start time): when that instance is gone, the upload was interrupted.
    ownerInstance: text('owner_instance'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
  },
  (t) => [
    index('file_uploads_created_idx').on(t.createdAt),
    check('file_uploads_type_check', inList(t.uploadType, UPLOAD_TYPES)),
    check('file_uploads_status_check', inList(t.status, ['processing', 'completed', 'failed', 'validated'])),
    check('file_uploads_size_check', sql`${t.fileSize} >= 0`),
  ],
);

/** Upload wizard progress, one row per school, shared by all admins. */
export const wizardProgress = pgTable(
  'wizard_progress',
  {
    id: boolean('id').primaryKey().default(true),
    currentStep: integer('current_step').notNull().default(1),
    completedSteps: integer('completed_steps')
      .array()
      .notNull()
      .default(sql`'{}'::int[]`),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    updatedBy: integer('updated_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [
    check('wizard_progress_single_row', sql`${t.id}`),
    check('wizard_progress_step_check', sql`${t.currentStep} between 1 and 5`),
    check('wizard_completed_steps_check', sql`${t.completedSteps} <@ array[1,2,3,4,5]`),
  ],
);

export const BACKUP_TRIGGERS = ['scheduled', 'manual', 'cli'] as const;
export const BACKUP_STATUSES = ['running', 'completed', 'failed'] as const;

/**
 * Every backup the app or its CLI made, with where the file is: with several instances, each
 * writes to its own DATA_DIR/backups, so the host is part of "where".
 */
export const backupRuns = pgTable(
  'backup_runs',
  {
    id: serial('id').primaryKey(),
    trigger: text('trigger').notNull(),
    status: text('status').notNull().default('running'),
    // The school-local date a scheduled backup is for: one per day across all instances.
    scheduledFor: text('scheduled_for'),
    host: text('host').notNull(),
    filePath: text('file_path'),
    bytes: integer('bytes'),
    error: text('error'),
    requestedBy: integer('requested_by').references(() => users.id, { onDelete: 'set null' }),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [
    index('backup_runs_started_idx').on(t.startedAt),
    uniqueIndex('backup_runs_one_scheduled_per_day').on(t.scheduledFor),
    check('backup_runs_trigger_check', inList(t.trigger, BACKUP_TRIGGERS)),
    check('backup_runs_status_check', inList(t.status, BACKUP_STATUSES)),
  ],
);

/**
 * The last file handed to the SIS per table (decision 032): written in the same transaction that
 * marks the records it carried as synced, and shown as the table's "Last SIS sync" on the SIS tab.
 */
export const sisExports = pgTable('sis_exports', {
  tableName: text('table_name').primaryKey(),
  lastExportedAt: timestamp('last_exported_at', { withTimezone: true }).notNull(),
  records: integer('records').notNull(),
});
