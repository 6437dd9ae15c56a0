import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Role } from '../../../common/roles.ts';
import type { DbOrTx } from '../../db/client.ts';
import { schoolSettings, userNotificationPreferences, users } from '../../db/schema/index.ts';

export type SettingsRow = typeof schoolSettings.$inferSelect;
type SettingsWrite = Partial<typeof schoolSettings.$inferInsert>;

// school_settings has one row (id = true), created by migration 0001.

export async function selectSettingsRow(db: DbOrTx): Promise<SettingsRow | undefined> {
  // Prepared (parsed and planned once per connection): every batch of check-ins reads the settings.
  const [row] = await db.select().from(schoolSettings).where(eq(schoolSettings.id, true)).prepare('school_settings_row').execute();
  return row;
}

export async function selectSettingsRowForUpdate(tx: DbOrTx): Promise<SettingsRow | undefined> {
  const [row] = await tx.select().from(schoolSettings).where(eq(schoolSettings.id, true)).for('update');
  return row;
}

export async function updateSettingsRow(db: DbOrTx, values: SettingsWrite): Promise<void> {
  await db.update(schoolSettings).set(values).where(eq(schoolSettings.id, true));
}

/** Sets the zone only while nobody has saved settings and no user exists. */
export async function updateTimeZoneIfUnconfigured(db: DbOrTx, timeZone: string): Promise<void> {
  await db
    .update(schoolSettings)
    .set({ timeZone })
    .where(and(eq(schoolSettings.id, true), isNull(schoolSettings.updatedBy), sql`not exists (select 1 from ${users})`));
}

export type NotificationPreferencesRow = typeof userNotificationPreferences.$inferSelect;
type NotificationPreferencesWrite = Omit<typeof userNotificationPreferences.$inferInsert, 'userId'>;

export async function selectNotificationPreferences(db: DbOrTx, userId: number): Promise<NotificationPreferencesRow | undefined> {
  const [row] = await db.select().from(userNotificationPreferences).where(eq(userNotificationPreferences.userId, userId));
  return row;
}

export async function selectNotificationPreferencesForUpdate(tx: DbOrTx, userId: number): Promise<NotificationPreferencesRow | undefined> {
  const [row] = await tx.select().from(userNotificationPreferences).where(eq(userNotificationPreferences.userId, userId)).for('update');
  return row;
}

export async function upsertNotificationPreferences(db: DbOrTx, userId: number, values: NotificationPreferencesWrite): Promise<void> {
  await db
    .insert(userNotificationPreferences)
    .values({ userId, ...values })
    .onConflictDoUpdate({ target: userNotificationPreferences.userId, set: values });
}

const SWITCH_COLUMNS = {
  weeklyReports: sql.raw('weekly_reports'),
  lowAttendanceAlerts: sql.raw('low_attendance_alerts'),
  systemMaintenanceNotices: sql.raw('system_maintenance_notices'),
} as const;

/**
 * Active users whose own switches (or the school's defaults where they have not chosen) have e-mail
 * on and this kind of e-mail on.
 */
export async function selectUsersWantingEmail(
  db: DbOrTx,
  kind: keyof typeof SWITCH_COLUMNS,
): Promise<{ id: number; email: string; firstName: string; role: Role }[]> {
  const column = SWITCH_COLUMNS[kind];
  const { rows } = await db.execute<{ id: number; email: string; first_name: string; role: Role }>(sql`
    select u.id, u.email, u.first_name, u.role
      from users u
      cross join school_settings st
      left join user_notification_preferences p on p.user_id = u.id
     where u.is_active
       and coalesce(p.email_notifications, st.email_notifications)
       and coalesce(p.${column}, st.${column})
     order by u.id`);
  return rows.map((r) => ({ id: r.id, email: r.email, firstName: r.first_name, role: r.role }));
}
