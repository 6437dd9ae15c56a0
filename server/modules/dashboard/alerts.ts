import { sql } from 'drizzle-orm';
import type { Alert } from '../../../common/dashboard.ts';
import { REQUIRED_ATTENDANCE_PERCENT as REQUIRED } from '../../../common/constants.ts';
import type { DbOrTx } from '../../db/client.ts';
import { addDays } from '../../lib/school-time.ts';
import { scheduleScope, type Scope } from './scope.ts';

const LAST_N = 5;
const CONSECUTIVE = 3;
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
const cache = new WeakMap<object, Map<string, { at: number; alerts: Promise<Alert[]> }>>();

export function computeAlerts(db: DbOrTx, scope: Scope, today: string, now: Date): Promise<Alert[]> {
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

async function evaluateAlertRules(db: DbOrTx, scope: Scope, today: string, now: Date): Promise<Alert[]> {
  const since = addDays(today, -60);
  const courseSince = addDays(today, -COURSE_WINDOW_DAYS);
  const inScope = scheduleScope(scope);
  const timestamp = now.toISOString();

  const { rows: courseRows } = await db.execute<{ course_id: number; course_name: string; course_code: string; attended: number; total: number }>(sql`
    select c.id as course_id, c.course_name, c.course_code,
           count(*) filter (where a.status in ('present', 'late', 'incomplete'))::int as attended, count(*)::int as total
      from attendance_records a join schedules s on s.id = a.schedule_id join courses c on c.id = s.course_id
     where a.session_date > ${courseSince} and a.session_date <= ${today} and ${inScope}
     group by c.id, c.course_name, c.course_code
    having count(*) >= ${MIN_COURSE_RECORDS}`);
  const alerts: Alert[] = [];
  for (const r of courseRows) {
    const rate = (r.attended / r.total) * 100;
    if (rate >= REQUIRED) continue;
    alerts.push({
      id: `course_rate:${r.course_id}`,
      courseName: r.course_name,
      courseCode: r.course_code,
      severity: rate < REQUIRED - 10 ? 'high' : 'medium',
      rule: 'course_rate',
      message: `${r.course_code}: ${rate.toFixed(1)}% attendance over the last ${COURSE_WINDOW_DAYS} days (${r.attended} of ${r.total}), below ${REQUIRED}%`,
      timestamp,
      studentId: null,
      scheduleId: null,
    });
  }

  // Per student and class: the last meetings (newest first), the leading run of absences, and the
  // hours still possible until the course ends.
  const { rows: studentRows } = await db.execute<{
    student_id: number;
    schedule_id: number;
    name: string;
    course_name: string;
    course_code: string;
    recent: string[];
    attended_minutes: number;
    scheduled_minutes: number;
    remaining_minutes: number;
  }>(sql`
    with recs as (
      select a.student_id, a.schedule_id, a.status, a.minutes_attended, a.scheduled_minutes,
             row_number() over (partition by a.student_id, a.schedule_id order by a.session_date desc) as rn
        from attendance_records a join schedules s on s.id = a.schedule_id
       where a.session_date > ${since} and a.session_date <= ${today} and ${inScope}
    ), per as (
      select student_id, schedule_id,
             array_agg(status order by rn) filter (where rn <= ${LAST_N}) as recent,
             coalesce(sum(minutes_attended), 0)::int as attended_minutes,
             coalesce(sum(scheduled_minutes), 0)::int as scheduled_minutes
        from recs group by student_id, schedule_id
    ), remaining as (
      select s.id as schedule_id,
             (select count(*) from generate_series(greatest(${today}::date + 1, s.course_start_date), s.course_end_date, interval '1 day') d
               where extract(dow from d) = s.day_of_week and not (d::date = any(s.holiday_exceptions)))::int
             * (extract(epoch from (case when s.end_time > s.start_time then s.end_time - s.start_time else s.end_time - s.start_time + interval '24 hours' end)) / 60)::int
               as remaining_minutes
        from schedules s where s.is_active and ${inScope}
    )
    select per.student_id, per.schedule_id, st.first_name || ' ' || st.last_name as name, c.course_name, c.course_code,
           per.recent, per.attended_minutes, per.scheduled_minutes, coalesce(remaining.remaining_minutes, 0) as remaining_minutes
      from per join students st on st.id = per.student_id
      join schedules s on s.id = per.schedule_id join courses c on c.id = s.course_id
      left join remaining on remaining.schedule_id = per.schedule_id
     where st.status in ('enrolled', 'active')`);

  for (const r of studentRows) {
    const base = { courseName: r.course_name, courseCode: r.course_code, timestamp, studentId: r.student_id, scheduleId: r.schedule_id };
    const recent = r.recent ?? [];
    let run = 0;
    while (run < recent.length && recent[run] === 'absent') run++;
    if (run >= CONSECUTIVE) {
      alerts.push({ ...base, id: `consecutive_absences:${r.student_id}:${r.schedule_id}`, severity: 'high', rule: 'consecutive_absences', message: `${r.name}: ${run} consecutive absences in ${r.course_code}` });
    }
    const possible = r.attended_minutes + r.remaining_minutes;
    const total = r.scheduled_minutes + r.remaining_minutes;
    if (total > 0 && (possible / total) * 100 < REQUIRED) {
      alerts.push({
        ...base,
        id: `cannot_reach_required:${r.student_id}:${r.schedule_id}`,
        severity: 'high',
        rule: 'cannot_reach_required',
        message: `${r.name}: cannot reach ${REQUIRED}% of ${r.course_code}'s scheduled hours even attending every remaining class (at most ${((possible / total) * 100).toFixed(1)}%)`,
      });
      continue;
    }
    // Excused meetings count neither for nor against the student's recent rate.
    const counted = recent.filter((s) => s !== 'excused');
    if (counted.length >= 3 && run < CONSECUTIVE) {
      const attended = counted.filter((s) => s === 'present' || s === 'late' || s === 'incomplete').length;
      const rate = (attended / counted.length) * 100;
      if (rate < REQUIRED) {
        alerts.push({
          ...base,
          id: `student_rate:${r.student_id}:${r.schedule_id}`,
          severity: rate < 60 ? 'high' : 'medium',
          rule: 'student_rate',
          message: `${r.name}: attended ${attended} of the last ${counted.length} classes of ${r.course_code} (${rate.toFixed(0)}%), below ${REQUIRED}%`,
        });
      }
    }
  }
  const order = { high: 0, medium: 1, low: 2 };
  return alerts.sort((a, b) => order[a.severity] - order[b.severity] || a.courseCode.localeCompare(b.courseCode) || a.message.localeCompare(b.message));
}
