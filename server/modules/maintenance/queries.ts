import { desc, eq, gt, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { maintenanceNotices, users } from '../../db/schema/index.ts';

const columns = {
  id: maintenanceNotices.id,
  message: maintenanceNotices.message,
  startsAt: maintenanceNotices.startsAt,
  endsAt: maintenanceNotices.endsAt,
  createdAt: maintenanceNotices.createdAt,
  createdByName: sql<string | null>`nullif(trim(${users.firstName} || ' ' || ${users.lastName}), '')`,
};

/** Notices whose window has not ended at `now` (upcoming or under way), soonest first. */
export async function selectCurrentNotices(db: DbOrTx, now: Date) {
  return db.select(columns).from(maintenanceNotices).leftJoin(users, eq(users.id, maintenanceNotices.createdBy)).where(gt(maintenanceNotices.endsAt, now)).orderBy(maintenanceNotices.startsAt);
}

/** The latest notices, past ones included, for the management list. */
export async function selectRecentNotices(db: DbOrTx, limit: number) {
  return db.select(columns).from(maintenanceNotices).leftJoin(users, eq(users.id, maintenanceNotices.createdBy)).orderBy(desc(maintenanceNotices.startsAt)).limit(limit);
}

export async function insertNotice(db: DbOrTx, values: { message: string; startsAt: Date; endsAt: Date; createdBy: number; createdAt: Date }): Promise<number> {
  const [row] = await db.insert(maintenanceNotices).values(values).returning({ id: maintenanceNotices.id });
  return row!.id;
}

export async function deleteNotice(db: DbOrTx, id: number) {
  const [row] = await db.delete(maintenanceNotices).where(eq(maintenanceNotices.id, id)).returning();
  return row;
}

/** Active staff whose own switches (or the school's defaults) have e-mail and maintenance notices on. */
export async function selectNoticeRecipients(db: DbOrTx): Promise<{ id: number; email: string; firstName: string }[]> {
  const { rows } = await db.execute<{ id: number; email: string; first_name: string }>(sql`
    select u.id, u.email, u.first_name
      from users u
      cross join school_settings st
      left join user_notification_preferences p on p.user_id = u.id
     where u.is_active
       and coalesce(p.email_notifications, st.email_notifications)
       and coalesce(p.system_maintenance_notices, st.system_maintenance_notices)`);
  return rows.map((r) => ({ id: r.id, email: r.email, firstName: r.first_name }));
}
