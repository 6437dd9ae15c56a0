import { z } from 'zod';
import { isoDate } from './validation.ts';
import type { Action } from './permissions.ts';

/**
 * School settings: SPEC §3 groups with SPEC §9 defaults, plus the school time zone.
 * Ranges here are the same as the database check constraints (server/db/schema/settings.ts).
 */
const int = (field: string, min: number, max: number) =>
  z
    .number({ error: `${field} must be a whole number` })
    .int(`${field} must be a whole number`)
    .min(min, `${field} must be at least ${min}`)
    .max(max, `${field} must be at most ${max}`);

export function isValidTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

const TIME_ZONE_MESSAGE = 'Time zone must be an IANA zone such as America/Chicago';

export const attendanceSettingsSchema = z.object({
  lateThresholdMinutes: int('Late threshold', 0, 120),
  earlyLeaveThresholdMinutes: int('Early-leave threshold', 0, 120),
  qrCodeExpirationMinutes: int('QR code expiration', 1, 240),
  autoMarkAbsentHours: int('Auto-mark absent', 1, 72),
  enableBluetoothVerification: z.boolean(),
  allowInstructorOverride: z.boolean(),
  timeZone: z.string().refine(isValidTimeZone, TIME_ZONE_MESSAGE),
  /**
   * The date from which Muster keeps attendance (a school that adopts it mid-year); null: since each
   * student's start. Before it nothing is scheduled or absent: students' hours are their opening
   * balances. A program may have its own (its clock-hour policy's recordsStartDate).
   */
  recordsStartDate: isoDate('Records start date').nullable(),
});

export const notificationSettingsSchema = z.object({
  emailNotifications: z.boolean(),
  smsNotifications: z.boolean(),
  weeklyReports: z.boolean(),
  lowAttendanceAlerts: z.boolean(),
  systemMaintenanceNotices: z.boolean(),
});

export const securitySettingsSchema = z.object({
  sessionTimeoutMinutes: int('Session timeout', 5, 1440),
  /** Absolute lifetime of a sign-in, however active: after it the user signs in again. */
  sessionLifetimeHours: int('Session lifetime', 1, 168),
  requirePasswordChange: z.boolean(),
  twoFactorAuthentication: z.boolean(),
  enableAuditLogging: z.boolean(),
  /** With requirePasswordChange on: a password older than this many days must be replaced at sign-in. */
  passwordMaxAgeDays: int('Password age', 30, 3650),
  /** Once single sign-on works: only super_admin may still sign in with a Muster password. */
  localSignInDisabled: z.boolean(),
});

export const systemSettingsSchema = z.object({
  dataRetentionYears: int('Data retention', 1, 50),
  maxFileUploadSizeMB: int('Maximum upload size', 1, 10),
  /** The nightly backup's school-local time of day, HH:MM (24-hour). */
  backupTimeOfDay: z.string().regex(/^([01][0-9]|2[0-3]):[0-5][0-9]$/, 'Backup time must be a time of day such as 02:00'),
  backupsToKeep: int('Backups to keep', 1, 365),
  /** Printed on time cards and the state-board reports. */
  schoolName: z.string().trim().max(200, 'School name must be at most 200 characters'),
});

export const settingsSchema = z.object({
  attendance: attendanceSettingsSchema,
  notifications: notificationSettingsSchema,
  security: securitySettingsSchema,
  system: systemSettingsSchema,
});
export type Settings = z.infer<typeof settingsSchema>;
export type SettingsGroup = keyof Settings;
export const SETTINGS_GROUPS = ['attendance', 'notifications', 'security', 'system'] as const;

/** A PUT may carry any subset of groups and, within a group, any subset of fields. */
export const settingsUpdateSchema = z
  .object({
    attendance: attendanceSettingsSchema.partial().strict(),
    notifications: notificationSettingsSchema.partial().strict(),
    security: securitySettingsSchema.partial().strict(),
    system: systemSettingsSchema.partial().strict(),
  })
  .partial()
  .strict();
export type SettingsUpdate = z.infer<typeof settingsUpdateSchema>;

export type NotificationSettings = z.infer<typeof notificationSettingsSchema>;
export const NOTIFICATION_SWITCHES = Object.keys(notificationSettingsSchema.shape) as (keyof NotificationSettings)[];

/** PUT /api/settings/notification-defaults: any subset of the five switches. */
export const notificationDefaultsUpdateSchema = notificationSettingsSchema.partial().strict();
export type NotificationDefaultsUpdate = z.infer<typeof notificationDefaultsUpdateSchema>;

export const SETTINGS_EDIT_ACTION: Record<SettingsGroup, Action> = {
  attendance: 'settings:edit-attendance',
  notifications: 'settings:edit-notifications',
  security: 'settings:edit-security',
  system: 'settings:edit-system',
};

export const DEFAULT_SETTINGS: Settings = {
  attendance: {
    lateThresholdMinutes: 10,
    earlyLeaveThresholdMinutes: 10,
    qrCodeExpirationMinutes: 30,
    autoMarkAbsentHours: 2,
    // Off, unlike SPEC §9: there is no Bluetooth check yet, and "on" promised one (docs/decisions/046).
    enableBluetoothVerification: false,
    allowInstructorOverride: true,
    timeZone: 'UTC',
    recordsStartDate: null,
  },
  notifications: {
    emailNotifications: true,
    smsNotifications: false,
    weeklyReports: true,
    lowAttendanceAlerts: true,
    systemMaintenanceNotices: true,
  },
  security: {
    sessionTimeoutMinutes: 60,
    sessionLifetimeHours: 12,
    requirePasswordChange: false,
    twoFactorAuthentication: false,
    enableAuditLogging: true,
    passwordMaxAgeDays: 365,
    localSignInDisabled: false,
  },
  system: {
    dataRetentionYears: 7,
    maxFileUploadSizeMB: 10,
    backupTimeOfDay: '02:00',
    backupsToKeep: 14,
    schoolName: '',
  },
};

/** One backup run as Settings › System and GET /api/backups show it. */
export const backupSummarySchema = z.object({
  id: z.number(),
  status: z.enum(['completed', 'failed']),
  at: z.string(),
  sizeBytes: z.number().nullable(),
  host: z.string(),
  path: z.string().nullable(),
  error: z.string().nullable(),
});

/** GET /api/settings/system-status: real facts for Settings › System (PRODUCT.md: no fixed figures). */
export const systemStatusSchema = z.object({
  database: z.object({
    connected: z.boolean(),
    latencyMs: z.number().nullable(),
    sizeBytes: z.number().nullable(),
    version: z.string().nullable(),
    mode: z.enum(['embedded', 'external']),
  }),
  fileStorage: z.object({ bytes: z.number(), note: z.string() }),
  // Host and path only for roles with backups:view (common/permissions.ts); null for the others.
  lastBackup: backupSummarySchema.extend({ host: z.string().nullable() }).nullable(),
  backupNote: z.string(),
  lastRetentionRun: z.object({ at: z.string(), removed: z.record(z.string(), z.number()) }).nullable(),
});

export const LOCAL_SIGN_IN_NEEDS_SSO =
  'Local sign-in can be turned off only once single sign-on is configured (OIDC_ISSUER, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET).';

/** GET /api/settings/time-zone-impact?timeZone=: what changing the school's time zone would recount. */
export const timeZoneImpactQuerySchema = z.object({
  timeZone: z.string({ error: 'timeZone is required' }).max(100).refine(isValidTimeZone, TIME_ZONE_MESSAGE),
});

/** Before and after, as the same read would answer with the school's current zone and with the new one. */
const beforeAfter = z.object({ now: z.number().int(), after: z.number().int() });

/**
 * The answer: every class time is read on the new clock (`classTimesMoveMinutes`: how far a class at
 * 08:00 today moves; + later, − earlier), so all history's check-ins are measured again against
 * them; the counts say how much history that is, and the withdrawal watch now and after.
 */
export const timeZoneImpactSchema = z.object({
  from: z.string(),
  to: z.string(),
  classTimesMoveMinutes: z.number().int(),
  schedules: z.number().int(),
  attendanceRecords: z.number().int(),
  checkIns: z.number().int(),
  openSessions: z.number().int(),
  overdueWithdrawals: beforeAfter,
  onWithdrawalWatch: beforeAfter,
});
export type TimeZoneImpact = z.infer<typeof timeZoneImpactSchema>;
