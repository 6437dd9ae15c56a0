// Students at risk as recorded after each day, the dashboards' scopes, and alert acknowledgements; re-exported by queries.ts.
import { and, desc, eq, inArray } from 'drizzle-orm';

import type { DbOrTx } from '../../db/client.ts';
import { alertAcknowledgements, schedules, studentsAtRiskDaily, users } from '../../db/schema/index.ts';
import { userFullName } from '../../db/user-name.ts';

import type { ViewerScope } from '../access/service.ts';

// ---- Students at risk, as recorded after each day ----

/** The scope as the daily record names it. */
export const atRiskScopeKey = (scope: ViewerScope) => (scope.instructorId == null ? 'school' : `instructor:${scope.instructorId}`);

export async function recordedStudentsAtRisk(db: DbOrTx, scope: ViewerScope, asOf: string): Promise<number | null> {
  const [row] = await db
    .select({ students: studentsAtRiskDaily.students })
    .from(studentsAtRiskDaily)
    .where(and(eq(studentsAtRiskDaily.scopeKey, atRiskScopeKey(scope)), eq(studentsAtRiskDaily.asOf, asOf)));
  return row?.students ?? null;
}

/** Keeps the first figure recorded for a scope and day. */
export async function recordStudentsAtRisk(db: DbOrTx, scope: ViewerScope, asOf: string, students: number, now: Date): Promise<void> {
  await db
    .insert(studentsAtRiskDaily)
    .values({ scopeKey: atRiskScopeKey(scope), asOf, students, recordedAt: now })
    .onConflictDoNothing();
}

/** The scopes whose dashboards show the trend: the school, and each instructor with an active class. */
export async function dashboardScopes(db: DbOrTx): Promise<ViewerScope[]> {
  const rows = await db.selectDistinct({ instructorId: schedules.instructorId }).from(schedules).where(eq(schedules.isActive, true));
  return [{ instructorId: null }, ...rows.filter((r) => r.instructorId != null).map((r) => ({ instructorId: r.instructorId }))];
}

export type AlertAcknowledgement = Pick<typeof alertAcknowledgements.$inferSelect, 'alertId' | 'reason' | 'note' | 'acknowledgedAt'> & {
  acknowledgedBy: string | null;
};

/** The acknowledgements of these alerts (any reason), newest first, with who acknowledged them. */
export async function selectAcknowledgements(db: DbOrTx, alertIds: string[]): Promise<AlertAcknowledgement[]> {
  if (alertIds.length === 0) return [];
  return db
    .select({
      alertId: alertAcknowledgements.alertId,
      reason: alertAcknowledgements.reason,
      note: alertAcknowledgements.note,
      acknowledgedAt: alertAcknowledgements.acknowledgedAt,
      acknowledgedBy: userFullName,
    })
    .from(alertAcknowledgements)
    .leftJoin(users, eq(users.id, alertAcknowledgements.acknowledgedBy))
    .where(inArray(alertAcknowledgements.alertId, alertIds))
    .orderBy(desc(alertAcknowledgements.acknowledgedAt), desc(alertAcknowledgements.id));
}

/** Records an acknowledgement of an alert for its reason now. */
export async function insertAcknowledgement(
  tx: DbOrTx,
  a: Pick<typeof alertAcknowledgements.$inferInsert, 'alertId' | 'reason' | 'note' | 'acknowledgedBy' | 'acknowledgedAt'>,
): Promise<{ id: number; acknowledgedAt: Date }> {
  const [row] = await tx
    .insert(alertAcknowledgements)
    .values(a)
    .returning({ id: alertAcknowledgements.id, acknowledgedAt: alertAcknowledgements.acknowledgedAt });
  return row!;
}
