import { can } from '../../../common/permissions.ts';
import type { Role } from '../../../common/roles.ts';
import {
  SETTINGS_EDIT_ACTION,
  SETTINGS_GROUPS,
  settingsSchema,
  type Settings,
  type SettingsUpdate,
} from '../../../common/settings.ts';
import type { Db, DbOrTx } from '../../db/client.ts';
import { badRequest, forbidden } from '../../lib/errors.ts';
import { recordAudit } from '../audit-logs/service.ts';
import {
  selectSettingsRow,
  selectSettingsRowForUpdate,
  updateSettingsRow,
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
    },
    system: { dataRetentionYears: r.dataRetentionYears, maxFileUploadSizeMB: r.maxFileUploadSizeMB, backupTimeOfDay: r.backupTimeOfDay, backupsToKeep: r.backupsToKeep },
  };
}

/** The school's settings as stored (one row, created by migration 0001). */
export async function getSettings(db: DbOrTx): Promise<Settings> {
  const row = await selectSettingsRow(db);
  if (!row) throw new Error('school_settings row is missing; migrations not applied?');
  return toSettings(row);
}

/**
 * Apply a partial update. Each group needs its own edit right (SPEC §6): a caller who sends a group
 * they may not edit is refused as a whole, nothing is written. Audited with the changed fields.
 */
export async function updateSettings(
  db: Db,
  actor: { id: number; role: Role },
  update: SettingsUpdate,
  ipAddress: string | null,
): Promise<Settings> {
  const groups = SETTINGS_GROUPS.filter((g) => update[g] && Object.keys(update[g]!).length > 0);
  const refused = groups.filter((g) => !can(actor.role, SETTINGS_EDIT_ACTION[g]));
  if (refused.length > 0) throw forbidden(`Your role may not change ${refused.join(', ')} settings`);
  if (groups.length === 0) throw badRequest('No settings to change');

  return db.transaction(async (tx) => {
    const row = await selectSettingsRowForUpdate(tx);
    const before = toSettings(row!);
    const merged = structuredClone(before);
    for (const g of groups) Object.assign(merged[g], update[g]);
    const checked = settingsSchema.safeParse(merged);
    if (!checked.success) {
      throw badRequest(
        'Invalid settings',
        checked.error.issues.map((i) => ({ field: i.path.join('.'), message: i.message })),
      );
    }
    const flat = Object.assign({}, ...groups.map((g) => merged[g])) as Partial<Row>;
    await updateSettingsRow(tx, { ...flat, updatedAt: new Date(), updatedBy: actor.id });
    const oldValues: Record<string, unknown> = {};
    const newValues: Record<string, unknown> = {};
    for (const g of groups) {
      for (const [k, v] of Object.entries(merged[g])) {
        const prev = (before[g] as Record<string, unknown>)[k];
        if (prev !== v) {
          oldValues[`${g}.${k}`] = prev;
          newValues[`${g}.${k}`] = v;
        }
      }
    }
    await recordAudit(tx, {
      userId: actor.id,
      action: 'Update',
      tableName: 'settings',
      recordId: groups.join(','),
      ipAddress,
      oldValues,
      newValues,
      always: true,
    });
    return merged;
  });
}

/** Set the school's time zone (first-run setup); the caller has validated it. */
export async function setSchoolTimeZone(db: DbOrTx, timeZone: string, by: number | null, at: Date): Promise<void> {
  await updateSettingsRow(db, { timeZone, updatedAt: at, updatedBy: by });
}

/**
 * A school nobody has configured yet (no user, settings never saved) takes the server's own zone
 * instead of the column's fixed default: an evening class in the Americas must not be dated the
 * next day. Runs on every open of the database (app and CLI); changes nothing once anyone chose.
 */
export async function adoptServerTimeZone(db: DbOrTx, timeZone: string): Promise<void> {
  await updateTimeZoneIfUnconfigured(db, timeZone);
}
