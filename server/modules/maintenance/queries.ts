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
  return db
    .select(columns)
    .from(maintenanceNotices)
    .leftJoin(users, eq(users.id, maintenanceNotices.createdBy))
    .where(gt(maintenanceNotices.endsAt, now))
    .orderBy(maintenanceNotices.startsAt);
}

/** The latest notices, past ones included, for the management list. */
export async function selectRecentNotices(db: DbOrTx, limit: number) {
  return db
    .select(columns)
    .from(maintenanceNotices)
    .leftJoin(users, eq(users.id, maintenanceNotices.createdBy))
    .orderBy(desc(maintenanceNotices.startsAt))
    .limit(limit);
}

export async function selectNotice(db: DbOrTx, id: number) {
  const [row] = await db
    .select(columns)
    .from(maintenanceNotices)
    .leftJoin(users, eq(users.id, maintenanceNotices.createdBy))
    .where(eq(maintenanceNotices.id, id));
  return row;
}

export async function insertNotice(db: DbOrTx, values: { message: string; startsAt: Date; endsAt: Date; createdBy: number; createdAt: Date }): Promise<number> {
  const [row] = await db.insert(maintenanceNotices).values(values).returning({ id: maintenanceNotices.id });
  return row!.id;
}

export async function deleteNotice(db: DbOrTx, id: number) {
  const [row] = await db.delete(maintenanceNotices).where(eq(maintenanceNotices.id, id)).returning();
  return row;
}
