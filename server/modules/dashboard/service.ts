import os from 'node:os';
import { sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { analyticsSchema, executiveSummarySchema, realTimeSchema, recentAttendanceSchema, statsSchema } from '../../../common/dashboard.ts';
import type { DbOrTx } from '../../db/client.ts';
import { addDays, dayOfWeek, localDate } from '../../lib/school-time.ts';
import { isoOrNull } from '../../lib/sql-values.ts';
import type { ResponseTimes } from '../../plugins/response-times.ts';
import { listActiveSessions } from '../qr-sessions/service.ts';
import { getSettings } from '../settings/service.ts';
import { computeAlerts } from './alerts.ts';
import { scheduleScope, scopeViewer, type Scope } from './scope.ts';

type Ctx = { db: DbOrTx; scope: Scope; now: Date };
const ATTENDED = sql`('present', 'late', 'incomplete')`;
const pct = (num: number, den: number) => (den > 0 ? Math.round((num / den) * 1000) / 10 : 0);
const trendOf = (current: number, previous: number, epsilon = 1): 'up' | 'down' | 'flat' =>
  current - previous > epsilon ? 'up' : previous - current > epsilon ? 'down' : 'flat';

async function schoolToday(db: DbOrTx, now: Date) {
  const { attendance, notifications } = await getSettings(db);
  const today = localDate(now, attendance.timeZone);
  return { today, timeZone: attendance.timeZone, alertsOn: notifications.lowAttendanceAlerts };
}

/** Schedules that meet on a date: weekly pattern within course dates minus holidays, make-up dates, or a session that ran. */
function meetingOn(date: string, scope: Scope) {
  return sql`
    select s.id from schedules s
     where ${scheduleScope(scope)} and (
       (s.is_active and s.day_of_week = ${dayOfWeek(date)} and ${date}::date between s.course_start_date and s.course_end_date
        and not (${date}::date = any(s.holiday_exceptions)))
       or ${date}::date = any(s.makeup_dates)
       or exists (select 1 from qr_sessions q where q.schedule_id = s.id and q.session_date = ${date}))`;
}

async function todayCounts(db: DbOrTx, scope: Scope, today: string) {
  const { rows } = await db.execute<{ expected: number; checked_in: number }>(sql`
    with meeting as (${meetingOn(today, scope)})
    select (select count(*) from schedule_rosters r join students st on st.id = r.student_id join meeting m on m.id = r.schedule_id
             where st.status in ('enrolled', 'active'))::int as expected,
           (select count(*) from attendance_records a join meeting m on m.id = a.schedule_id
             where a.session_date = ${today} and a.status in ${ATTENDED})::int as checked_in`);
  return rows[0]!;
}

async function databaseHealth(db: DbOrTx): Promise<{ status: 'healthy' | 'warning' | 'error'; latencyMs: number | null }> {
  const started = performance.now();
  try {
    await db.execute(sql`select 1`);
    const latencyMs = Math.round((performance.now() - started) * 100) / 100;
    return { status: latencyMs > 250 ? 'warning' : 'healthy', latencyMs };
  } catch {
    return { status: 'error', latencyMs: null };
  }
}

/** CPU load over the last minute as a share of the machine's cores. */
export function systemLoadPercent(): number {
  return Math.min(100, Math.round((os.loadavg()[0]! / Math.max(1, os.cpus().length)) * 1000) / 10);
}

async function syncCounts(db: DbOrTx, scope: Scope) {
  const { rows } = await db.execute<{ pending: number; failed: number }>(sql`
    select count(*) filter (where a.sync_status = 'pending')::int as pending, count(*) filter (where a.sync_status = 'failed')::int as failed
      from attendance_records a join schedules s on s.id = a.schedule_id
     where a.sync_status in ('pending', 'failed') and ${scheduleScope(scope)}`);
  return rows[0]!;
}

export async function executiveSummary({ db, scope, now }: Ctx, responseTimes: ResponseTimes): Promise<z.infer<typeof executiveSummarySchema>> {
  const { today, alertsOn } = await schoolToday(db, now);
  const [database, counts, sessions, sync, alerts] = await Promise.all([
    databaseHealth(db),
    todayCounts(db, scope, today),
    listActiveSessions(db, scopeViewer(scope), now),
    syncCounts(db, scope),
    alertsOn ? computeAlerts(db, scope, today, now) : Promise.resolve([]),
  ]);
  const load = systemLoadPercent();
  const avg = responseTimes.average(5 * 60_000, now.getTime()).averageMs;
  return {
    systemHealth: {
      database: database.status,
      databaseLatencyMs: database.latencyMs,
      server: load > 90 || (avg != null && avg > 1000) ? 'warning' : 'healthy',
      // Manual SIS exchange: failed records need attention; pending ones wait for the next export.
      sync: sync.failed > 0 ? 'error' : 'healthy',
      lastHealthCheck: now.toISOString(),
    },
    todayMetrics: {
      attendanceRate: pct(counts.checked_in, counts.expected),
      studentsCheckedIn: counts.checked_in,
      totalStudentsExpected: counts.expected,
      activeQrSessions: sessions.length,
      criticalAlerts: alerts.filter((a) => a.severity === 'high').length,
      pendingSyncRecords: sync.pending,
    },
  };
}

export async function realTime({ db, scope, now }: Ctx, responseTimes: ResponseTimes): Promise<z.infer<typeof realTimeSchema>> {
  const { today, alertsOn } = await schoolToday(db, now);
  const sessions = await listActiveSessions(db, scopeViewer(scope), now);
  const { rows: counts } = await db.execute<{ schedule_id: number; session_date: string; expected: number; checked_in: number }>(sql`
    select q.schedule_id, q.session_date::text,
           (select count(*) from schedule_rosters r join students st on st.id = r.student_id where r.schedule_id = q.schedule_id and st.status in ('enrolled', 'active'))::int as expected,
           (select count(*) from attendance_records a where a.schedule_id = q.schedule_id and a.session_date = q.session_date and a.status in ${ATTENDED})::int as checked_in
      from qr_sessions q join schedules s on s.id = q.schedule_id
     where q.is_active and q.expires_at > ${now} and ${scheduleScope(scope)}`);
  const countFor = (scheduleId: number, date: string) => counts.find((c) => c.schedule_id === scheduleId && c.session_date === date);
  const { rows: active } = await db.execute<{ n: number }>(sql`
    select count(distinct a.student_id)::int as n
      from attendance_records a join qr_sessions q on q.schedule_id = a.schedule_id and q.session_date = a.session_date
      join schedules s on s.id = a.schedule_id
     where q.is_active and q.expires_at > ${now} and a.scan_in_time is not null and a.scan_out_time is null and ${scheduleScope(scope)}`);
  const avg = responseTimes.average(5 * 60_000, now.getTime());
  return {
    activeSessions: sessions.map((s) => {
      const c = countFor(s.scheduleId, s.sessionDate);
      return {
        id: s.id,
        sessionId: s.sessionId,
        courseName: s.courseName,
        courseCode: s.courseCode,
        status: s.status,
        instructorName: s.instructorName,
        location: s.roomNumber,
        expiresAt: s.expiresAt,
        startTime: s.startTime,
        checkedInStudents: c?.checked_in ?? 0,
        expectedStudents: c?.expected ?? 0,
        attendanceRate: pct(c?.checked_in ?? 0, c?.expected ?? 0),
      };
    }),
    alerts: alertsOn ? (await computeAlerts(db, scope, today, now)).slice(0, 50) : [],
    systemLoad: systemLoadPercent(),
    totalActiveStudents: active[0]!.n,
    avgResponseTimeMs: avg.averageMs,
    responseSamples: avg.samples,
    generatedAt: now.toISOString(),
  };
}

async function rateBetween(db: DbOrTx, scope: Scope, from: string, to: string) {
  const { rows } = await db.execute<{ attended: number; on_time: number; total: number; minutes: number; scheduled: number }>(sql`
    select count(*) filter (where a.status in ${ATTENDED})::int as attended,
           count(*) filter (where a.status = 'present')::int as on_time,
           count(*)::int as total,
           coalesce(sum(a.minutes_attended), 0)::bigint::float8 as minutes,
           coalesce(sum(a.scheduled_minutes), 0)::bigint::float8 as scheduled
      from attendance_records a join schedules s on s.id = a.schedule_id
     where a.session_date > ${from} and a.session_date <= ${to} and ${scheduleScope(scope)}`);
  return rows[0]!;
}

export async function analytics({ db, scope, now }: Ctx): Promise<z.infer<typeof analyticsSchema>> {
  const { today, alertsOn } = await schoolToday(db, now);
  const weekAgo = addDays(today, -7);
  const { rows: days } = await db.execute<{ date: string; attended: number; total: number }>(sql`
    select d::date::text as date,
           count(a.id) filter (where a.status in ${ATTENDED})::int as attended, count(a.id)::int as total
      from generate_series(${addDays(today, -6)}::date, ${today}::date, interval '1 day') d
      left join (attendance_records a join schedules s on s.id = a.schedule_id and ${scheduleScope(scope)}) on a.session_date = d::date
     group by d order by d`);
  const [last30, prev30, last7, prev7] = await Promise.all([
    rateBetween(db, scope, addDays(today, -30), today),
    rateBetween(db, scope, addDays(today, -60), addDays(today, -30)),
    rateBetween(db, scope, weekAgo, today),
    rateBetween(db, scope, addDays(today, -14), weekAgo),
  ]);
  const studentsAtRisk = async (asOf: string) =>
    alertsOn ? new Set((await computeAlerts(db, scope, asOf, now)).filter((a) => a.studentId != null).map((a) => a.studentId)).size : 0;
  // The same rules applied as of a week ago give the trend.
  const [atRisk, atRiskWeekAgo] = await Promise.all([studentsAtRisk(today), studentsAtRisk(weekAgo)]);

  const { rows: courses } = await db.execute<{ course_id: number; course_name: string; course_code: string; sessions: number; attended: number; total: number; recent_att: number; recent_total: number; older_att: number; older_total: number }>(sql`
    select c.id as course_id, c.course_name, c.course_code,
           count(distinct (a.schedule_id, a.session_date))::int as sessions,
           count(a.id) filter (where a.status in ${ATTENDED})::int as attended, count(a.id)::int as total,
           count(a.id) filter (where a.status in ${ATTENDED} and a.session_date > ${addDays(today, -14)})::int as recent_att,
           count(a.id) filter (where a.session_date > ${addDays(today, -14)})::int as recent_total,
           count(a.id) filter (where a.status in ${ATTENDED} and a.session_date <= ${addDays(today, -14)})::int as older_att,
           count(a.id) filter (where a.session_date <= ${addDays(today, -14)})::int as older_total
      from courses c join schedules s on s.course_id = c.id and ${scheduleScope(scope)}
      left join attendance_records a on a.schedule_id = s.id and a.session_date > ${addDays(today, -30)} and a.session_date <= ${today}
     where c.is_active
     group by c.id, c.course_name, c.course_code
     order by c.course_code`);

  const userFilter = scope.instructorId == null ? sql`true` : sql`ls.user_id = ${scope.instructorId}`;
  const { rows: activity } = await db.execute<{ daily: number; avg_minutes: number | null }>(sql`
    select count(*) filter (where ls.created_at > ${now}::timestamptz - interval '24 hours')::int as daily,
           avg(extract(epoch from (coalesce(ls.ended_at, ls.last_seen_at) - ls.created_at)) / 60)
             filter (where ls.created_at > ${now}::timestamptz - interval '7 days')::float8 as avg_minutes
      from login_sessions ls where ${userFilter}`);
  const { rows: top } = await db.execute<{ name: string; sessions: number }>(sql`
    select coalesce(nullif(trim(u.first_name || ' ' || u.last_name), ''), u.email) as name, count(*)::int as sessions
      from login_sessions ls join users u on u.id = ls.user_id
     where ls.created_at > ${now}::timestamptz - interval '7 days' and ${userFilter}
     group by u.id order by sessions desc, name limit 3`);

  const rate = (r: { attended: number; total: number }) => pct(r.attended, r.total);
  return {
    attendanceTrends: days.map((d) => ({ date: d.date, attendanceRate: pct(d.attended, d.total), presentStudents: d.attended, totalStudents: d.total })),
    performanceMetrics: [
      { metric: 'Attendance Rate (30 days)', current: rate(last30), target: 90, unit: '%', trend: trendOf(rate(last7), rate(prev7)) },
      { metric: 'On-Time Arrival', current: pct(last30.on_time, last30.attended), target: 95, unit: '%', trend: trendOf(pct(last7.on_time, last7.attended), pct(prev7.on_time, prev7.attended)) },
      { metric: 'Clock Hours Delivered', current: pct(last30.minutes, last30.scheduled), target: 95, unit: '%', trend: trendOf(pct(last30.minutes, last30.scheduled), pct(prev30.minutes, prev30.scheduled)) },
      { metric: 'Students at Risk', current: atRisk, target: 0, unit: 'students', trend: trendOf(atRisk, atRiskWeekAgo, 0) },
    ],
    courseAnalytics: courses.map((c) => {
      const avg = pct(c.attended, c.total);
      return {
        courseId: c.course_id,
        courseName: c.course_name,
        courseCode: c.course_code,
        riskLevel: c.total === 0 ? 'low' : avg < 75 ? 'high' : avg < 85 ? 'medium' : 'low',
        totalSessions: c.sessions,
        avgAttendanceRate: avg,
        trend: c.recent_total === 0 || c.older_total === 0 ? 'flat' : trendOf(pct(c.recent_att, c.recent_total), pct(c.older_att, c.older_total)),
      };
    }),
    userActivity: {
      dailyLogins: activity[0]!.daily,
      avgSessionDuration: Math.round(activity[0]!.avg_minutes ?? 0),
      topActiveUsers: top,
    },
    generatedAt: now.toISOString(),
  };
}

export async function stats({ db, scope, now }: Ctx): Promise<z.infer<typeof statsSchema>> {
  const { today } = await schoolToday(db, now);
  const { rows } = await db.execute<z.infer<typeof statsSchema> & Record<string, number>>(sql`
    select (select count(*) from students)::int as "totalStudents",
           (select count(*) from students where status in ('enrolled', 'active'))::int as "enrolledStudents",
           (select count(*) from courses)::int as "totalCourses",
           (select count(*) from courses where is_active)::int as "activeCourses",
           (select count(*) from schedules s where s.is_active and ${scheduleScope(scope)})::int as "activeSchedules",
           (select count(*) from users where role = 'instructor' and is_active)::int as "instructors",
           (select count(*) from (${meetingOn(today, scope)}) m)::int as "classesToday"`);
  const r30 = await rateBetween(db, scope, addDays(today, -30), today);
  return { ...rows[0]!, attendanceRate30d: pct(r30.attended, r30.total) };
}

export async function recentAttendance({ db, scope }: Ctx): Promise<z.infer<typeof recentAttendanceSchema>> {
  const { rows } = await db.execute<{ id: number; student_id: number; name: string; course_code: string; course_name: string; session_date: string; status: string; scan_in_time: string | null; scan_out_time: string | null; source: string }>(sql`
    select a.id, a.student_id, st.first_name || ' ' || st.last_name as name, c.course_code, c.course_name, a.session_date::text,
           a.status, a.scan_in_time, a.scan_out_time, a.source
      from attendance_records a join students st on st.id = a.student_id join schedules s on s.id = a.schedule_id join courses c on c.id = s.course_id
     where ${scheduleScope(scope)}
     order by a.updated_at desc, a.id desc limit 20`);
  return rows.map((r) => ({
    id: r.id,
    studentId: r.student_id,
    studentName: r.name,
    courseCode: r.course_code,
    courseName: r.course_name,
    sessionDate: r.session_date,
    status: r.status,
    scanInTime: isoOrNull(r.scan_in_time),
    scanOutTime: isoOrNull(r.scan_out_time),
    source: r.source,
  }));
}
