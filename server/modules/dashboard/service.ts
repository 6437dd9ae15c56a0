import os from 'node:os';
import type { z } from 'zod';
import type {
  AlertCounts,
  analyticsSchema,
  executiveSummarySchema,
  GettingStarted,
  realTimeSchema,
  recentAttendanceSchema,
  statsSchema,
} from '../../../common/dashboard.ts';
import type { AppDeps } from '../../app-deps.ts';
import type { DbOrTx } from '../../db/client.ts';
import { addDays, localDate, localTimeOfDay } from '../../lib/school-time.ts';
import { viewerScope, type Viewer, type ViewerScope } from '../access/service.ts';
import { listActiveSessionsIn } from '../qr-sessions/service.ts';
import { effectiveNotifications, getSettings, schoolTimeZoneChoice } from '../settings/service.ts';
import { acknowledgeOpenAlert, alertsNow, countStudentsAtRisk, studentsAtRiskOn, type AlertsNow } from '../attendance-alerts/service.ts';
import {
  courseTotals,
  dailyTotals,
  latestRecords,
  mostActiveUsers,
  openSessionCounts,
  pingDatabase,
  rateBetween,
  ratesBetween,
  schoolCounts,
  setupCounts,
  signInActivity,
  studentsInClass,
  syncCounts,
  todayCounts,
} from './queries.ts';

/**
 * scope: what the viewer sees (the access module: instructors their own classes, support staff and
 * admins the whole school). viewerId: the signed-in user, whose own notification switches decide
 * whether alerts are raised.
 */
type Ctx = { db: DbOrTx; scope: ViewerScope; now: Date; viewerId: number };

/** The dashboard's reads for this signed-in user. */
export function viewerContext(db: DbOrTx, viewer: Viewer, now: Date): Ctx {
  return { db, scope: viewerScope(viewer), now, viewerId: viewer.id };
}
/** The server's own response-time figures (plugins/response-times.ts), as buildApp hands them over. */
type ResponseTimes = Pick<AppDeps['responseTimes'], 'average'>;
const pct = (num: number, den: number) => (den > 0 ? Math.round((num / den) * 1000) / 10 : 0);
const trendOf = (current: number, previous: number, epsilon = 1): 'up' | 'down' | 'flat' =>
  current - previous > epsilon ? 'up' : previous - current > epsilon ? 'down' : 'flat';

// The alert lists a dashboard answer carries; the counts always cover every alert.
const LIST_MAX = 50;
const NO_ALERTS: AlertsNow = { open: [], acknowledged: [], counts: { open: 0, high: 0, students: 0, acknowledged: 0 } satisfies AlertCounts };

/** The viewer's alerts now, or none when they turned low-attendance alerts off (decision 013). */
function alertsOf(db: DbOrTx, scope: ViewerScope, today: string, now: Date, alertsOn: boolean): Promise<AlertsNow> {
  return alertsOn ? alertsNow(db, scope, today, now) : Promise.resolve(NO_ALERTS);
}

async function schoolDate(db: DbOrTx, now: Date) {
  const { attendance } = await getSettings(db);
  return { today: localDate(now, attendance.timeZone), timeZone: attendance.timeZone };
}

async function schoolToday(db: DbOrTx, now: Date, viewerId: number) {
  const [date, notifications] = await Promise.all([schoolDate(db, now), effectiveNotifications(db, viewerId)]);
  // Low-attendance alerts are each viewer's own choice (decision 013), not a school-wide switch.
  return { ...date, alertsOn: notifications.lowAttendanceAlerts };
}

async function databaseHealth(db: DbOrTx): Promise<{ status: 'healthy' | 'warning' | 'error'; latencyMs: number | null }> {
  const started = performance.now();
  try {
    await pingDatabase(db);
    const latencyMs = Math.round((performance.now() - started) * 100) / 100;
    return { status: latencyMs > 250 ? 'warning' : 'healthy', latencyMs };
  } catch {
    return { status: 'error', latencyMs: null };
  }
}

/** CPU load over the last minute as a share of the machine's cores. */
function systemLoadPercent(): number {
  return Math.min(100, Math.round((os.loadavg()[0]! / Math.max(1, os.cpus().length)) * 1000) / 10);
}

export async function executiveSummary({ db, scope, now, viewerId }: Ctx, responseTimes: ResponseTimes): Promise<z.infer<typeof executiveSummarySchema>> {
  const { today, timeZone, alertsOn } = await schoolToday(db, now, viewerId);
  const [database, counts, sessions, sync, alerts] = await Promise.all([
    databaseHealth(db),
    todayCounts(db, scope, today, localTimeOfDay(now, timeZone)),
    listActiveSessionsIn(db, scope, now),
    syncCounts(db, scope),
    alertsOf(db, scope, today, now, alertsOn),
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
      attendanceRate: pct(counts.checkedIn, counts.expected),
      studentsCheckedIn: counts.checkedIn,
      totalStudentsExpected: counts.expected,
      activeQrSessions: sessions.length,
      criticalAlerts: alerts.counts.high,
      pendingSyncRecords: sync.pending,
    },
    alerts: alerts.counts,
  };
}

export async function realTime({ db, scope, now, viewerId }: Ctx, responseTimes: ResponseTimes): Promise<z.infer<typeof realTimeSchema>> {
  const { today, alertsOn } = await schoolToday(db, now, viewerId);
  const sessions = await listActiveSessionsIn(db, scope, now);
  const [counts, inClass, alerts] = await Promise.all([
    openSessionCounts(db, scope, now),
    studentsInClass(db, scope, now),
    alertsOf(db, scope, today, now, alertsOn),
  ]);
  const countFor = (scheduleId: number, date: string) => counts.find((c) => c.scheduleId === scheduleId && c.sessionDate === date);
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
        checkedInStudents: c?.checkedIn ?? 0,
        expectedStudents: c?.expected ?? 0,
        attendanceRate: pct(c?.checkedIn ?? 0, c?.expected ?? 0),
      };
    }),
    alerts: alerts.open.slice(0, LIST_MAX),
    alertCounts: alerts.counts,
    acknowledgedAlerts: alerts.acknowledged.slice(0, LIST_MAX),
    alertsOn,
    systemLoad: systemLoadPercent(),
    totalActiveStudents: inClass,
    avgResponseTimeMs: avg.averageMs,
    responseSamples: avg.samples,
    generatedAt: now.toISOString(),
  };
}

export async function analytics({ db, scope, now, viewerId }: Ctx): Promise<z.infer<typeof analyticsSchema>> {
  const { today, alertsOn } = await schoolToday(db, now, viewerId);
  const weekAgo = addDays(today, -7);
  const studentsAtRisk = async (asOf: string) => (alertsOn ? countStudentsAtRisk(db, scope, asOf, now) : 0);
  // Every read at once: the answer takes as long as the slowest, not their sum (decision 026).
  const [days, [last30, prev30, last7, prev7], atRisk, atRiskWeekAgo, courses, activity, top] = await Promise.all([
    dailyTotals(db, scope, addDays(today, -6), today),
    ratesBetween(db, scope, [
      { from: addDays(today, -30), to: today },
      { from: addDays(today, -60), to: addDays(today, -30) },
      { from: weekAgo, to: today },
      { from: addDays(today, -14), to: weekAgo },
    ]),
    studentsAtRisk(today),
    // The trend: the figure recorded after that day ended (decision 026).
    alertsOn ? studentsAtRiskOn(db, scope, weekAgo, now) : 0,
    courseTotals(db, scope, { since: addDays(today, -30), split: addDays(today, -14), today }),
    signInActivity(db, scope, now),
    mostActiveUsers(db, scope, now),
  ]);
  const rate = (r: { attended: number; total: number }) => pct(r.attended, r.total);
  return {
    attendanceTrends: days.map((d) => ({ date: d.date, attendanceRate: pct(d.attended, d.total), presentStudents: d.attended, totalStudents: d.total })),
    performanceMetrics: [
      { metric: 'Attendance Rate (30 days)', current: rate(last30), target: 90, unit: '%', trend: trendOf(rate(last7), rate(prev7)) },
      {
        metric: 'On-Time Arrival',
        current: pct(last30.onTime, last30.attended),
        target: 95,
        unit: '%',
        trend: trendOf(pct(last7.onTime, last7.attended), pct(prev7.onTime, prev7.attended)),
      },
      {
        metric: 'Clock Hours Delivered',
        current: pct(last30.minutes, last30.scheduled),
        target: 95,
        unit: '%',
        trend: trendOf(pct(last30.minutes, last30.scheduled), pct(prev30.minutes, prev30.scheduled)),
      },
      { metric: 'Students at Risk', current: atRisk, target: 0, unit: 'students', trend: trendOf(atRisk, atRiskWeekAgo, 0) },
    ],
    courseAnalytics: courses.map((c) => {
      const avg = pct(c.attended, c.total);
      return {
        courseId: c.courseId,
        courseName: c.courseName,
        courseCode: c.courseCode,
        riskLevel: c.total === 0 ? 'low' : avg < 75 ? 'high' : avg < 85 ? 'medium' : 'low',
        totalSessions: c.sessions,
        avgAttendanceRate: avg,
        trend: c.recentTotal === 0 || c.olderTotal === 0 ? 'flat' : trendOf(pct(c.recentAtt, c.recentTotal), pct(c.olderAtt, c.olderTotal)),
      };
    }),
    userActivity: {
      dailyLogins: activity.daily,
      avgSessionDuration: Math.round(activity.avgMinutes ?? 0),
      topActiveUsers: top,
    },
    generatedAt: now.toISOString(),
  };
}

export async function stats({ db, scope, now }: Ctx): Promise<z.infer<typeof statsSchema>> {
  const { today } = await schoolDate(db, now);
  const counts = await schoolCounts(db, scope, today);
  const r30 = await rateBetween(db, scope, addDays(today, -30), today);
  return { ...counts, attendanceRate30d: pct(r30.attended, r30.total) };
}

export async function recentAttendance({ db, scope }: Ctx): Promise<z.infer<typeof recentAttendanceSchema>> {
  const rows = await latestRecords(db, scope);
  return rows.map((r) => ({ ...r, scanInTime: r.scanInTime?.toISOString() ?? null, scanOutTime: r.scanOutTime?.toISOString() ?? null }));
}

/** The first-run checklist's facts: counts over the whole school, the time-zone choice and whether the school is named. */
export async function gettingStarted(db: DbOrTx): Promise<GettingStarted> {
  const [counts, zone, settings] = await Promise.all([setupCounts(db), schoolTimeZoneChoice(db), getSettings(db)]);
  return { ...counts, timeZone: zone.timeZone, timeZoneChosen: zone.chosen, schoolNamed: settings.system.schoolName.trim() !== '' };
}

/**
 * Attendance rate per active course over two consecutive date ranges (the weekly report's table): the
 * course totals of Analytics' Course Performance, not an alert rule's input.
 */
export async function courseRatesByWeek(db: DbOrTx, d: { lastWeekFrom: string; thisWeekFrom: string; thisWeekTo: string }) {
  const rows = await courseTotals(db, { instructorId: null }, { since: addDays(d.lastWeekFrom, -1), split: addDays(d.thisWeekFrom, -1), today: d.thisWeekTo });
  return rows.map((c) => ({
    courseId: c.courseId,
    courseCode: c.courseCode,
    courseName: c.courseName,
    thisWeek: c.recentTotal === 0 ? null : pct(c.recentAtt, c.recentTotal),
    lastWeek: c.olderTotal === 0 ? null : pct(c.olderAtt, c.olderTotal),
  }));
}

/** Acknowledges an open alert of the viewer's scope (the attendance-alerts module; docs/decisions/048). */
export function acknowledgeAlert({ db, scope, now, viewerId, ip }: Ctx & { ip: string | null }, alertId: string, note: string | undefined) {
  return acknowledgeOpenAlert(db, { scope, userId: viewerId, ip, now }, alertId, note);
}
