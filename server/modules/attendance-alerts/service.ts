import type { DbOrTx } from '../../db/client.ts';
import { notFound } from '../../lib/errors.ts';
import { addDays, localDate } from '../../lib/school-time.ts';
import type { ViewerScope } from '../access/service.ts';
import { recordAudit } from '../audit-logs/service.ts';
import { getSettings } from '../settings/service.ts';
import { dashboardScopes, insertAcknowledgement, recordedStudentsAtRisk, recordStudentsAtRisk } from './queries.ts';
import { alertsNow, evaluateAlertRules } from './rules.ts';

// The low-attendance rules (rules.ts) and what is read from them: the alerts of a scope, open and
// acknowledged, for the dashboard; the school's alerts for the alert e-mails; the students at risk
// for the dashboard's Analytics and the weekly report, and their figure as recorded after each day.

export { alertsNow, CONSECUTIVE_ABSENCES, type AlertsNow } from './rules.ts';

async function schoolToday(db: DbOrTx, now: Date): Promise<string> {
  const { attendance } = await getSettings(db);
  return localDate(now, attendance.timeZone);
}

/**
 * The school's low-attendance alerts now (every class), for the alert e-mails (notifications module):
 * evaluated afresh, never the dashboard's 30-second cache, so a record corrected a moment ago counts.
 */
export async function schoolAlerts(db: DbOrTx, now: Date) {
  return evaluateAlertRules(db, { instructorId: null }, await schoolToday(db, now), now);
}

/** The school's students at risk by the alert rules as of a school date, and the alerts that name them (the weekly report). */
export async function schoolStudentsAtRisk(db: DbOrTx, asOf: string, now: Date): Promise<{ count: number; reasons: string[] }> {
  const alerts = (await evaluateAlertRules(db, { instructorId: null }, asOf, now)).filter((a) => a.studentId != null);
  return { count: new Set(alerts.map((a) => a.studentId)).size, reasons: alerts.map((a) => a.message) };
}

/** Students named by the open alerts of a scope as of a school date (Analytics' Students at Risk). */
export async function countStudentsAtRisk(db: DbOrTx, scope: ViewerScope, asOf: string, now: Date): Promise<number> {
  return (await alertsNow(db, scope, asOf, now)).counts.students;
}

/**
 * Students the rules named on a past day: as recorded after that day (by the daily job, or by the
 * first dashboard that needed it), so a later correction of older records does not rewrite history.
 */
export async function studentsAtRiskOn(db: DbOrTx, scope: ViewerScope, asOf: string, now: Date): Promise<number> {
  const recorded = await recordedStudentsAtRisk(db, scope, asOf);
  if (recorded != null) return recorded;
  const students = await countStudentsAtRisk(db, scope, asOf, now);
  await recordStudentsAtRisk(db, scope, asOf, students, now);
  return students;
}

/** The daily job: record yesterday's figure for the school and each instructor, once (a rerun keeps the first). */
export async function recordYesterdaysStudentsAtRisk(db: DbOrTx, now: Date): Promise<number> {
  const yesterday = addDays(await schoolToday(db, now), -1);
  let recorded = 0;
  for (const scope of await dashboardScopes(db)) {
    if ((await recordedStudentsAtRisk(db, scope, yesterday)) != null) continue;
    await recordStudentsAtRisk(db, scope, yesterday, await countStudentsAtRisk(db, scope, yesterday, now), now);
    recorded++;
  }
  return recorded;
}

/**
 * Acknowledges an open alert of the viewer's scope (docs/decisions/048): it leaves the counts and
 * the list until it fires for a new reason, stays listed as acknowledged, and the acknowledgement
 * is audited with what the alert said. An alert the viewer does not see now (another instructor's
 * class, already acknowledged, no longer firing) is not found.
 */
export async function acknowledgeOpenAlert(
  db: DbOrTx,
  by: { scope: ViewerScope; userId: number; ip: string | null; now: Date },
  alertId: string,
  note: string | undefined,
) {
  const { scope, userId, now } = by;
  const alert = (await alertsNow(db, scope, await schoolToday(db, now), now)).open.find((a) => a.id === alertId);
  if (!alert) throw notFound('Open alert');
  return db.transaction(async (tx) => {
    const row = await insertAcknowledgement(tx, { alertId, reason: alert.reason, note: note || null, acknowledgedBy: userId, acknowledgedAt: now });
    await recordAudit(tx, {
      userId,
      action: 'Create',
      tableName: 'alert_acknowledgements',
      recordId: row.id,
      ipAddress: by.ip,
      newValues: {
        alertId,
        rule: alert.rule,
        message: alert.message,
        studentId: alert.studentId,
        scheduleId: alert.scheduleId,
        reason: alert.reason,
        note: note || null,
      },
      at: now,
    });
    return { alertId, reason: alert.reason, acknowledgedAt: row.acknowledgedAt.toISOString(), note: note || null };
  });
}
