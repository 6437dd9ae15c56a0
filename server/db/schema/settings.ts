import { sql } from 'drizzle-orm';
import { boolean, check, date, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { DEFAULT_SETTINGS as D } from '../../../common/settings.ts';
import { users } from './users.ts';

/** One row (id = true) of typed settings; ranges match common/settings.ts. */
export const schoolSettings = pgTable(
  'school_settings',
  {
    id: boolean('id').primaryKey().default(true),
    lateThresholdMinutes: integer('late_threshold_minutes').notNull().default(D.attendance.lateThresholdMinutes),
    earlyLeaveThresholdMinutes: integer('early_leave_threshold_minutes').notNull().default(D.attendance.earlyLeaveThresholdMinutes),
    qrCodeExpirationMinutes: integer('qr_code_expiration_minutes').notNull().default(D.attendance.qrCodeExpirationMinutes),
    autoMarkAbsentHours: integer('auto_mark_absent_hours').notNull().default(D.attendance.autoMarkAbsentHours),
    enableBluetoothVerification: boolean('enable_bluetooth_verification').notNull().default(D.attendance.enableBluetoothVerification),
    allowInstructorOverride: boolean('allow_instructor_override').notNull().default(D.attendance.allowInstructorOverride),
    timeZone: text('time_zone').notNull().default(D.attendance.timeZone),
    // The date from which Muster keeps attendance (null: since each student's start); decision 041.
    recordsStartDate: date('records_start_date'),
    emailNotifications: boolean('email_notifications').notNull().default(D.notifications.emailNotifications),
    smsNotifications: boolean('sms_notifications').notNull().default(D.notifications.smsNotifications),
    weeklyReports: boolean('weekly_reports').notNull().default(D.notifications.weeklyReports),
    lowAttendanceAlerts: boolean('low_attendance_alerts').notNull().default(D.notifications.lowAttendanceAlerts),
    systemMaintenanceNotices: boolean('system_maintenance_notices').notNull().default(D.notifications.systemMaintenanceNotices),
    sessionTimeoutMinutes: integer('session_timeout_minutes').notNull().default(D.security.sessionTimeoutMinutes),
    // Absolute lifetime of a sign-in, however active: a stolen cookie stops working.
    sessionLifetimeHours: integer('session_lifetime_hours').notNull().default(12),
    requirePasswordChange: boolean('require_password_change').notNull().default(D.security.requirePasswordChange),
    twoFactorAuthentication: boolean('two_factor_authentication').notNull().default(D.security.twoFactorAuthentication),
    enableAuditLogging: boolean('enable_audit_logging').notNull().default(D.security.enableAuditLogging),
    passwordMaxAgeDays: integer('password_max_age_days').notNull().default(D.security.passwordMaxAgeDays),
    localSignInDisabled: boolean('local_sign_in_disabled').notNull().default(D.security.localSignInDisabled),
    dataRetentionYears: integer('data_retention_years').notNull().default(D.system.dataRetentionYears),
    maxFileUploadSizeMB: integer('max_file_upload_size_mb').notNull().default(D.system.maxFileUploadSizeMB),
    // Nightly backup: school-local time of day (HH:MM) and how many backup files to keep.
    backupTimeOfDay: text('backup_time_of_day').notNull().default('02:00'),
    backupsToKeep: integer('backups_to_keep').notNull().default(14),
    schoolName: text('school_name').notNull().default(''),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    updatedBy: integer('updated_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [
    check('school_settings_single_row', sql`${t.id}`),
    check('settings_late_threshold_check', sql`${t.lateThresholdMinutes} between 0 and 120`),
    check('settings_early_leave_check', sql`${t.earlyLeaveThresholdMinutes} between 0 and 120`),
    check('settings_qr_expiry_check', sql`${t.qrCodeExpirationMinutes} between 1 and 240`),
    check('settings_auto_absent_check', sql`${t.autoMarkAbsentHours} between 1 and 72`),
    check('settings_session_timeout_check', sql`${t.sessionTimeoutMinutes} between 5 and 1440`),
    check('settings_session_lifetime_check', sql`${t.sessionLifetimeHours} between 1 and 168`),
    check('settings_retention_check', sql`${t.dataRetentionYears} between 1 and 50`),
    check('settings_backup_time_check', sql`${t.backupTimeOfDay} ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$'`),
    check('settings_backups_to_keep_check', sql`${t.backupsToKeep} between 1 and 365`),
    check('settings_password_age_check', sql`${t.passwordMaxAgeDays} between 30 and 3650`),
    check('settings_upload_size_check', sql`${t.maxFileUploadSizeMB} between 1 and 10`),
  ],
);

/**
 * Each user's own notification switches (decision 013): null means "not chosen", so the school
 * default in school_settings applies. One user's choice never changes anyone else's.
 */
export const userNotificationPreferences = pgTable('user_notification_preferences', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  emailNotifications: boolean('email_notifications'),
  smsNotifications: boolean('sms_notifications'),
  weeklyReports: boolean('weekly_reports'),
  lowAttendanceAlerts: boolean('low_attendance_alerts'),
  systemMaintenanceNotices: boolean('system_maintenance_notices'),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
