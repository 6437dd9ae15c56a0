import { can } from '../../../common/permissions.ts';
import type { Role } from '../../../common/roles.ts';
import {
  LOCAL_SIGN_IN_NEEDS_SSO,
  SETTINGS_EDIT_ACTION,
  SETTINGS_GROUPS,
  NOTIFICATION_SWITCHES,
  settingsSchema,
  type NotificationDefaultsUpdate,
  type NotificationSettings,
  type Settings,
  type SettingsGroup,
  type SettingsUpdate,
} from '../../../common/settings.ts';
import type { Db, DbOrTx } from '../../db/client.ts';
import { badRequest, forbidden } from '../../lib/errors.ts';
import { recordAudit } from '../audit-logs/service.ts';
import {
  selectNotificationPreferences,
  selectUsersWantingEmail,
  selectNotificationPreferencesForUpdate,
  selectSettingsRow,
  selectSettingsRowForUpdate,
  type NotificationPreferencesRow,
  updateSettingsRow,
  upsertNotificationPreferences,
  updateTimeZoneIfUnconfigured,
  type SettingsRow,
} from './queries.ts';

type Row = SettingsRow;

function toSettings(r: Row): Settings {
  return {
    attendance: {
      lateThresholdMinutes: r.lateThresholdMinutes,
      earlyLeaveThresholdMinutes: r.earlyLeaveThresholdMinutes,
      qrCodeExpirationMinutes: r.qrCodeExpirationMinutes,
      autoMarkAbsentHours: r.autoMarkAbsentHours,
      enableBluetoothVerification: r.enableBluetoothVerification,
      allowInstructorOverride: r.allowInstructorOverride,
      timeZone: r.timeZone,
      recordsStartDate: r.recordsStartDate,
    },
    notifications: {
      emailNotifications: r.emailNotifications,
      smsNotifications: r.smsNotifications,
      weeklyReports: r.weeklyReports,
      lowAttendanceAlerts: r.lowAttendanceAlerts,
      systemMaintenanceNotices: r.systemMaintenanceNotices,
    },
    security: {
      sessionTimeoutMinutes: r.sessionTimeoutMinutes,
      sessionLifetimeHours: r.sessionLifetimeHours,
      requirePasswordChange: r.requirePasswordChange,
      twoFactorAuthentication: r.twoFactorAuthentication,
      enableAuditLogging: r.enableAuditLogging,
      passwordMaxAgeDays: r.passwordMaxAgeDays,
      localSignInDisabled: r.localSignInDisabled,
    },
    system: {
      dataRetentionYears: r.dataRetentionYears,
      maxFileUploadSizeMB: r.maxFileUploadSizeMB,
      backupTimeOfDay: r.backupTimeOfDay,
      backupsToKeep: r.backupsToKeep,
      schoolName: r.schoolName,
    },
  };
}

/** The school's settings as stored (one row, created by migration 0001). */
export async function getSettings(db: DbOrTx): Promise<Settings> {
  const row = await selectSettingsRow(db);
  if (!row) throw new Error('school_settings row is missing; migrations not applied?');
  return toSettings(row);
}

/** The user's effective switches: their own choice where they made one, else the school default. */
function overlayNotifications(defaults: NotificationSettings, prefs: NotificationPreferencesRow | undefined): NotificationSettings {
  const out = { ...defaults };
  for (const k of NOTIFICATION_SWITCHES) out[k] = prefs?.[k] ?? defaults[k];
  return out;
}

/** What this user is alerted about and sent (decision 013): their choice over the school default. */
export async function effectiveNotifications(db: DbOrTx, userId: number): Promise<NotificationSettings> {
  const [school, prefs] = await Promise.all([getSettings(db), selectNotificationPreferences(db, userId)]);
  return overlayNotifications(school.notifications, prefs);
}

/** GET /api/settings: the school's settings with `notifications` as the caller's own switches. */
export async function getSettingsFor(db: DbOrTx, userId: number): Promise<Settings> {
  const [school, prefs] = await Promise.all([getSettings(db), selectNotificationPreferences(db, userId)]);
  return { ...school, notifications: overlayNotifications(school.notifications, prefs) };
}

/** Old and new values of the fields that changed, keyed `group.field`. */
function changedFields(groups: readonly SettingsGroup[], before: Settings, after: Settings) {
  const oldValues: Record<string, unknown> = {};
  const newValues: Record<string, unknown> = {};
  for (const g of groups) {
    for (const [k, v] of Object.entries(after[g])) {
      const prev = (before[g] as Record<string, unknown>)[k];
      if (prev !== v) {
        oldValues[`${g}.${k}`] = prev;
        newValues[`${g}.${k}`] = v;
      }
    }
  }
  return { oldValues, newValues };
}

/**
 * Apply a partial update. Each group needs its own edit right (SPEC §6): a caller who sends a group
 * they may not edit is refused as a whole, nothing is written. `notifications` are the caller's own
 * preferences (decision 013), never the school's; the other groups are school-wide. Audited.
 */
export async function updateSettings(
  db: Db,
  actor: { id: number; role: Role },
  update: SettingsUpdate,
  ipAddress: string | null,
  context: { ssoConfigured: boolean } = { ssoConfigured: false },
): Promise<Settings> {
  // Local sign-in may be turned off only where single sign-on can take its place.
  if (update.security?.localSignInDisabled && !context.ssoConfigured) {
    throw badRequest(LOCAL_SIGN_IN_NEEDS_SSO, [{ field: 'security.localSignInDisabled', message: LOCAL_SIGN_IN_NEEDS_SSO }]);
  }
  const groups = SETTINGS_GROUPS.filter((g) => update[g] && Object.keys(update[g]!).length > 0);
  const refused = groups.filter((g) => !can(actor.role, SETTINGS_EDIT_ACTION[g]));
  if (refused.length > 0) throw forbidden(`Your role may not change ${refused.join(', ')} settings`);
  if (groups.length === 0) throw badRequest('No settings to change');
  const schoolGroups = groups.filter((g) => g !== 'notifications');

  return db.transaction(async (tx) => {
    const row = await selectSettingsRowForUpdate(tx);
    const prefs = await selectNotificationPreferencesForUpdate(tx, actor.id);
    const school = toSettings(row!);
    const before: Settings = { ...school, notifications: overlayNotifications(school.notifications, prefs) };
    const merged = structuredClone(before);
    for (const g of groups) Object.assign(merged[g], update[g]);
    const checked = settingsSchema.safeParse(merged);
    if (!checked.success) {
      throw badRequest(
        'Invalid settings',
        checked.error.issues.map((i) => ({ field: i.path.join('.'), message: i.message })),
      );
    }
    if (schoolGroups.length > 0) {
      const flat = Object.assign({}, ...schoolGroups.map((g) => merged[g])) as Partial<Row>;
      await updateSettingsRow(tx, { ...flat, updatedAt: new Date(), updatedBy: actor.id });
      await recordAudit(tx, {
        userId: actor.id,
        action: 'Update',
        tableName: 'settings',
        recordId: schoolGroups.join(','),
        ipAddress,
        ...changedFields(schoolGroups, before, merged),
        always: true,
      });
    }
    if (update.notifications && Object.keys(update.notifications).length > 0) {
      // Only the switches sent become the user's choice; the others keep following the school.
      await upsertNotificationPreferences(tx, actor.id, { ...update.notifications, updatedAt: new Date() });
      await recordAudit(tx, {
        userId: actor.id,
        action: 'Update',
        tableName: 'user_notification_settings',
        recordId: String(actor.id),
        ipAddress,
        ...changedFields(['notifications'], before, merged),
        always: true,
      });
    }
    return merged;
  });
}

/** The school's notification defaults: what applies to a user who has not chosen. */
export async function getNotificationDefaults(db: DbOrTx): Promise<NotificationSettings> {
  return (await getSettings(db)).notifications;
}

/** Change the school's notification defaults (administrators; the route checks the action). Audited. */
export async function updateNotificationDefaults(
  db: Db,
  actor: { id: number },
  update: NotificationDefaultsUpdate,
  ipAddress: string | null,
): Promise<NotificationSettings> {
  if (Object.keys(update).length === 0) throw badRequest('No settings to change');
  return db.transaction(async (tx) => {
    const before = toSettings((await selectSettingsRowForUpdate(tx))!);
    const after: Settings = { ...before, notifications: { ...before.notifications, ...update } };
    await updateSettingsRow(tx, { ...after.notifications, updatedAt: new Date(), updatedBy: actor.id });
    await recordAudit(tx, {
      userId: actor.id,
      action: 'Update',
      tableName: 'settings',
      recordId: 'notification-defaults',
      ipAddress,
      ...changedFields(['notifications'], before, after),
      always: true,
    });
    return after.notifications;
  });
}

/** Set the school's time zone (first-run setup); the caller has validated it. */
export async function setSchoolTimeZone(db: DbOrTx, timeZone: string, by: number | null, at: Date): Promise<void> {
  await updateSettingsRow(db, { timeZone, updatedAt: at, updatedBy: by });
}

/**
 * The school's name from Settings › System, or null until it is set: documents and e-mails then
 * go without it (a neutral title), never with a hint meant for staff (decision 045).
 */
export async function schoolName(db: DbOrTx): Promise<string | null> {
  return (await getSettings(db)).system.schoolName.trim() || null;
}

/** Name the school at first-run setup (later, Settings › System saves it through updateSettings). Audited. */
export async function setSchoolName(db: DbOrTx, schoolName: string, by: number, at: Date, ipAddress: string | null): Promise<void> {
  await updateSettingsRow(db, { schoolName, updatedAt: at, updatedBy: by });
  await recordAudit(db, {
    userId: by,
    action: 'Update',
    tableName: 'settings',
    recordId: 'system',
    ipAddress,
    newValues: { 'system.schoolName': schoolName },
    always: true,
    at,
  });
}

/**
 * A school nobody has configured yet (no user, settings never saved) takes the server's own zone
 * instead of the column's fixed default: an evening class in the Americas must not be dated the
 * next day. Runs on every open of the database (app and CLI); changes nothing once anyone chose.
 */
export async function adoptServerTimeZone(db: DbOrTx, timeZone: string): Promise<void> {
  await updateTimeZoneIfUnconfigured(db, timeZone);
}

/** The school's time zone and whether a person chose it (setup or Settings), for the first-run checklist. */
export async function schoolTimeZoneChoice(db: DbOrTx): Promise<{ timeZone: string; chosen: boolean }> {
  const row = await selectSettingsRow(db);
  return { timeZone: row?.timeZone ?? 'UTC', chosen: row?.updatedBy != null };
}

/** An unsubscribe link was followed: this user's own switch goes off (audited as theirs). */
export async function turnOffNotificationSwitch(db: Db, userId: number, key: keyof NotificationSettings, at: Date): Promise<void> {
  await db.transaction(async (tx) => {
    await upsertNotificationPreferences(tx, userId, { [key]: false, updatedAt: at });
    await recordAudit(tx, {
      userId,
      action: 'Update',
      tableName: 'user_notification_settings',
      recordId: String(userId),
      ipAddress: null,
      newValues: { [`notifications.${key}`]: false, via: 'unsubscribe link' },
      always: true,
      at,
    });
  });
}

/** Who is sent this kind of e-mail: active users with e-mail and this switch on (their own choice, else the school's). */
export function usersWantingEmail(db: DbOrTx, kind: 'weeklyReports' | 'lowAttendanceAlerts' | 'systemMaintenanceNotices') {
  return selectUsersWantingEmail(db, kind);
}
