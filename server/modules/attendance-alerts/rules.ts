import type { AcknowledgedAlert, Alert, AlertCounts } from '../../../common/dashboard.ts';
import { REQUIRED_ATTENDANCE_PERCENT as REQUIRED, isAttendedStatus } from '../../../common/constants.ts';
import type { DbOrTx } from '../../db/client.ts';
import { addDays } from '../../lib/school-time.ts';
import type { ViewerScope } from '../access/service.ts';
import { courseRates, selectAcknowledgements, studentStandings } from './queries.ts';

const LAST_N = 5;
/** Absences in a row that raise an alert (notifications use it where a program has not set its own number). */
export const CONSECUTIVE_ABSENCES = 3;
const COURSE_WINDOW_DAYS = 14;
// Too few records say nothing about a course; stay quiet rather than alarm anyone.
const MIN_COURSE_RECORDS = 5;

/**
 * Low-attendance alerts from explainable rules over real attendance (DOMAIN.md: warnings must be
 * explainable and never fire by mistake). Each message says the rule and the figures behind it.
 * - course_rate: a course under the required rate over the last 14 days (high under 70 %).
 * - student_rate: a student under the required rate over their last 5 meetings of a class.
 * - consecutive_absences: 3 or more absences in a row, most recent first.
 * - cannot_reach_required: even attending every remaining meeting, the student cannot reach the
 *   required share of the class's scheduled hours.
 */
// Live tabs poll every 5 s and the alert rules read weeks of records: keep each answer 30 s per
// database, scope and school day. Alerts describe trends over days; half a minute of lag is fine.
const CACHE_MS = 30_000;
const cache = new WeakMap<object, Map<string, { at: number; alerts: Promise<RuledAlert[]> }>>();

/**
 * An alert and its reason: what an acknowledgement holds for (docs/decisions/048). The same alert
 * (its id) showing for a new reason shows again: for a student, a new absence; for a course, a
 * change of severity, or the rule's 14-day window having passed since the acknowledgement (the
 * rate is then about other meetings).
 */
export type RuledAlert = Alert & { reason: string };

function computeAlerts(db: DbOrTx, scope: ViewerScope, today: string, now: Date): Promise<RuledAlert[]> {
  let perDb = cache.get(db);
  if (!perDb) cache.set(db, (perDb = new Map()));
  const key = `${scope.instructorId ?? 'school'}:${today}`;
  const hit = perDb.get(key);
  if (hit && Math.abs(now.getTime() - hit.at) < CACHE_MS) return hit.alerts;
  const alerts = evaluateAlertRules(db, scope, today, now);
  perDb.set(key, { at: now.getTime(), alerts });
  alerts.catch(() => perDb.delete(key));
  return alerts;
}

export async function evaluateAlertRules(db: DbOrTx, scope: ViewerScope, today: string, now: Date): Promise<RuledAlert[]> {
  const since = addDays(today, -60);
  const courseSince = addDays(today, -COURSE_WINDOW_DAYS);
  const timestamp = now.toISOString();
  const courseRows = await courseRates(db, scope, { since: courseSince, today, minRecords: MIN_COURSE_RECORDS });
  const alerts: RuledAlert[] = [];
  for (const r of courseRows) {
    const rate = (r.attended / r.total) * 100;
    if (rate >= REQUIRED) continue;
    const severity = rate < REQUIRED - 10 ? 'high' : 'medium';
    alerts.push({
      id: `course_rate:${r.courseId}`,
      reason: `course_rate ${severity}`,
      courseId: r.courseId,
      studentName: null,
      courseName: r.courseName,
      courseCode: r.courseCode,
      severity,
      rule: 'course_rate',
      message: `${r.courseCode}: ${rate.toFixed(1)}% attendance over the last ${COURSE_WINDOW_DAYS} days (${r.attended} of ${r.total}), below ${REQUIRED}%`,
      timestamp,
      studentId: null,
      scheduleId: null,
    });
  }

  // Per student and class: the last meetings (newest first), the leading run of absences, and the
  // hours still possible until the course ends.
  const studentRows = await studentStandings(db, scope, { since, today, lastN: LAST_N });
  for (const r of studentRows) {
    // Any of a student's alerts in a class holds until their next absence there.
    const base = {
      courseName: r.courseName,
      courseCode: r.courseCode,
      courseId: r.courseId,
      timestamp,
      studentId: r.studentId,
      studentName: r.name,
      scheduleId: r.scheduleId,
      reason: `last absence ${r.lastAbsence ?? 'none'}`,
    };
    const recent = r.recent ?? [];
    let run = 0;
    while (run < recent.length && recent[run] === 'absent') run++;
    if (run >= CONSECUTIVE_ABSENCES) {
      alerts.push({
        ...base,
        id: `consecutive_absences:${r.studentId}:${r.scheduleId}`,
        severity: 'high',
        rule: 'consecutive_absences',
        message: `${r.name}: ${run} consecutive absences in ${r.courseCode}`,
      });
    }
    const possible = r.attendedMinutes + r.remainingMinutes;
    const total = r.scheduledMinutes + r.remainingMinutes;
    if (total > 0 && (possible / total) * 100 < REQUIRED) {
      alerts.push({
        ...base,
        id: `cannot_reach_required:${r.studentId}:${r.scheduleId}`,
        severity: 'high',
        rule: 'cannot_reach_required',
        message: `${r.name}: cannot reach ${REQUIRED}% of ${r.courseCode}'s scheduled hours even attending every remaining class (at most ${((possible / total) * 100).toFixed(1)}%)`,
      });
      continue;
    }
    // Excused meetings count neither for nor against the student's recent rate.
    const counted = recent.filter((s) => s !== 'excused');
    if (counted.length >= 3 && run < CONSECUTIVE_ABSENCES) {
      const attended = counted.filter(isAttendedStatus).length;
      const rate = (attended / counted.length) * 100;
      if (rate < REQUIRED) {
        alerts.push({
          ...base,
          id: `student_rate:${r.studentId}:${r.scheduleId}`,
          severity: rate < 60 ? 'high' : 'medium',
          rule: 'student_rate',
          message: `${r.name}: attended ${attended} of the last ${counted.length} classes of ${r.courseCode} (${rate.toFixed(0)}%), below ${REQUIRED}%`,
        });
      }
    }
  }
  const order = { high: 0, medium: 1, low: 2 };
  return alerts.sort((a, b) => order[a.severity] - order[b.severity] || a.courseCode.localeCompare(b.courseCode) || a.message.localeCompare(b.message));
}

/** How long an acknowledgement of a course's rate holds: the rule's window, after which the rate is about other meetings. */
const COURSE_ACK_HOLDS_MS = COURSE_WINDOW_DAYS * 86_400_000;

export type AlertsNow = { open: RuledAlert[]; acknowledged: (RuledAlert & Omit<AcknowledgedAlert, keyof Alert>)[]; counts: AlertCounts };

/**
 * The alerts of a scope now, split into open and acknowledged: the one home of every alert figure
 * the dashboard shows (Overview's Critical Alerts, Live's list, Analytics' Students at Risk), so
 * they agree. Acknowledgements are read fresh (the rules' answer may be 30 s old; an
 * acknowledgement a moment ago counts at once).
 */
export async function alertsNow(db: DbOrTx, scope: ViewerScope, today: string, now: Date): Promise<AlertsNow> {
  const all = await computeAlerts(db, scope, today, now);
  const acks = await selectAcknowledgements(db, [...new Set(all.map((a) => a.id))]);
  const open: RuledAlert[] = [];
  const acknowledged: AlertsNow['acknowledged'] = [];
  for (const a of all) {
    const ack = acks.find(
      (k) => k.alertId === a.id && k.reason === a.reason && (a.rule !== 'course_rate' || now.getTime() - k.acknowledgedAt.getTime() < COURSE_ACK_HOLDS_MS),
    );
    if (ack) acknowledged.push({ ...a, acknowledgedAt: ack.acknowledgedAt.toISOString(), acknowledgedBy: ack.acknowledgedBy, note: ack.note });
    else open.push(a);
  }
  acknowledged.sort((x, y) => y.acknowledgedAt.localeCompare(x.acknowledgedAt));
  return { open, acknowledged, counts: countAlerts(open, acknowledged.length) };
}

/** The figures of a list of open alerts: all of them, the high-severity ones, and the students they name. */
function countAlerts(open: Alert[], acknowledged: number): AlertCounts {
  return {
    open: open.length,
    high: open.filter((a) => a.severity === 'high').length,
    students: new Set(open.filter((a) => a.studentId != null).map((a) => a.studentId)).size,
    acknowledged,
  };
}
