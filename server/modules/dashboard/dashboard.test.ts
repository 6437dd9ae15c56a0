import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../lib/clock.ts';
import { buildAttendanceRecord, buildCourse, buildLoginSession, buildProgram, buildRosterEntry, buildSchedule, buildStudent } from '../../test/factories.ts';
import { createTestApp, type TestApp } from '../../test/helpers.ts';
import { recordYesterdaysStudentsAtRisk } from '../attendance-alerts/service.ts';

// A small school whose every figure is worked out by hand below.
// Today is Monday 2026-03-09 (school time zone UTC). NUR-101 meets Mondays 08–12 (instructor 1),
// MA-101 Mondays 13–17 (instructor 2); both run 2026-02-02 … 2026-03-30.
const clock = fixedClock('2026-03-09T15:00:00Z');
let t: TestApp;
let admin: { cookie: string; userId: number };
let i1: { cookie: string; userId: number };
let i2: { cookie: string; userId: number };
let s1: number;
let s2: number;
const id: Record<string, number> = {};

const MIN = { present: 240, late: 230, incomplete: 120, absent: 0, excused: 0 } as const;
type St = keyof typeof MIN;

beforeAll(async () => {
  t = await createTestApp({ clock });
  admin = await t.signedIn('super_admin', { firstName: 'Ada', lastName: 'Admin' });
  i1 = await t.signedIn('instructor', { firstName: 'Ian', lastName: 'One' });
  i2 = await t.signedIn('instructor', { firstName: 'Ivy', lastName: 'Two' });
  const p = (await buildProgram(t.db, { programName: 'PN' })).id;
  const c1 = (await buildCourse(t.db, { courseCode: 'NUR-101', courseName: 'Nursing Fundamentals', programId: p })).id;
  const c2 = (await buildCourse(t.db, { courseCode: 'MA-101', courseName: 'Medical Terminology', programId: p })).id;
  const schedule = async (courseId: number, instructorId: number, startTime: string, endTime: string) =>
    (
      await buildSchedule(t.db, {
        courseId,
        instructorId,
        startTime,
        endTime,
        roomNumber: 'R1',
        courseStartDate: '2026-02-02',
        courseEndDate: '2026-03-30',
      })
    ).id;
  s1 = await schedule(c1, i1.userId, '08:00', '12:00');
  s2 = await schedule(c2, i2.userId, '13:00', '17:00');
  for (const n of ['A', 'B', 'C', 'D', 'E', 'F']) {
    id[n] = (await buildStudent(t.db, { firstName: n, lastName: 'Student', programId: p })).id;
    await buildRosterEntry(t.db, { scheduleId: 'ABCD'.includes(n) ? s1 : s2, studentId: id[n] });
  }
  const rec = (student: string, scheduleId: number, sessionDate: string, status: St, scanIn: string | null = null) =>
    buildAttendanceRecord(t.db, {
      studentId: id[student],
      scheduleId,
      sessionDate,
      status,
      scanInTime: scanIn === null ? null : new Date(scanIn),
      minutesAttended: MIN[status],
      scheduledMinutes: 240,
      source: 'qr',
    });
  const past = ['2026-02-16', '2026-02-23', '2026-03-02'];
  const s1Past: Record<string, St[]> = {
    A: ['present', 'present', 'present'],
    B: ['present', 'absent', 'absent'],
    C: ['absent', 'absent', 'absent'],
    D: ['late', 'present', 'incomplete'],
  };
  const s2Past: Record<string, St[]> = { E: ['present', 'present', 'present'], F: ['present', 'present', 'excused'] };
  for (const [n, statuses] of Object.entries(s1Past)) for (const [i, st] of statuses.entries()) await rec(n, s1, past[i]!, st);
  for (const [n, statuses] of Object.entries(s2Past)) for (const [i, st] of statuses.entries()) await rec(n, s2, past[i]!, st);
  await rec('A', s1, '2026-03-09', 'present', '2026-03-09T07:58:00Z');
  await rec('D', s1, '2026-03-09', 'late', '2026-03-09T08:20:00Z');
  // Two earlier sign-ins of the admin: 30 and 90 minutes long.
  await buildLoginSession(t.db, {
    id: 'x1',
    userId: admin.userId,
    createdAt: new Date('2026-03-09T13:00:00Z'),
    lastSeenAt: new Date('2026-03-09T13:30:00Z'),
    endedAt: new Date('2026-03-09T13:30:00Z'),
  });
  await buildLoginSession(t.db, {
    id: 'x2',
    userId: admin.userId,
    createdAt: new Date('2026-03-09T12:00:00Z'),
    lastSeenAt: new Date('2026-03-09T13:30:00Z'),
    endedAt: null,
  });
});
afterAll(() => t.close());

const get = async (path: string, cookie = admin.cookie) => {
  const res = await t.app.inject({ url: `/api/dashboard/${path}`, headers: { cookie } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};

describe('dashboard figures', () => {
  it("today's performance: 2 of 6 expected students checked in", async () => {
    const { todayMetrics, systemHealth } = await get('executive-summary');
    expect(todayMetrics).toEqual({
      attendanceRate: 33.3,
      studentsCheckedIn: 2,
      totalStudentsExpected: 6,
      activeQrSessions: 0,
      criticalAlerts: 4,
      pendingSyncRecords: 20,
    });
    expect(systemHealth.database).toBe('healthy');
    expect(systemHealth.databaseLatencyMs).toBeGreaterThan(0);
  });

  it('scopes an instructor to their own classes', async () => {
    const { todayMetrics } = await get('executive-summary', i2.cookie);
    expect(todayMetrics).toMatchObject({ studentsCheckedIn: 0, totalStudentsExpected: 2, criticalAlerts: 0, pendingSyncRecords: 6 });
    expect((await get('real-time', i2.cookie)).alerts).toEqual([]);
  });

  it('raises explainable alerts: course rate, consecutive absences, cannot reach 80 %', async () => {
    const { alerts } = await get('real-time');
    const byRule = alerts.map((a: { rule: string; studentId: number | null; severity: string }) => `${a.rule}:${a.studentId ?? '-'}:${a.severity}`).sort();
    expect(byRule).toEqual(
      [`cannot_reach_required:${id.B}:high`, `cannot_reach_required:${id.C}:high`, `consecutive_absences:${id.C}:high`, 'course_rate:-:high'].sort(),
    );
    const course = alerts.find((a: { rule: string }) => a.rule === 'course_rate');
    expect(course.message).toBe('NUR-101: 66.7% attendance over the last 14 days (4 of 6), below 80%');
    expect(alerts.find((a: { rule: string }) => a.rule === 'consecutive_absences').message).toBe('C Student: 3 consecutive absences in NUR-101');
  });

  it('shows live sessions with checked-in of expected, and active students', async () => {
    await t.app.inject({ method: 'POST', url: '/api/qr-sessions', headers: { cookie: i1.cookie }, payload: { scheduleId: s1 } });
    const rt = await get('real-time');
    expect(rt.activeSessions).toHaveLength(1);
    expect(rt.activeSessions[0]).toMatchObject({
      courseCode: 'NUR-101',
      instructorName: 'Ian One',
      location: 'R1',
      checkedInStudents: 2,
      expectedStudents: 4,
      attendanceRate: 50,
      status: 'active',
    });
    expect(rt.totalActiveStudents).toBe(2);
    expect(rt.responseSamples).toBeGreaterThan(0);
    expect(rt.avgResponseTimeMs).toBeGreaterThan(0);
    expect(rt.systemLoad).toBeGreaterThanOrEqual(0);
    expect((await get('executive-summary')).todayMetrics.activeQrSessions).toBe(1);
    expect((await get('real-time', i2.cookie)).activeSessions).toEqual([]);
  });

  it('analytics: 7-day trend, KPIs, course risk and user activity', async () => {
    const a = await get('analytics');
    expect(a.attendanceTrends.map((d: { date: string }) => d.date)).toEqual([
      '2026-03-03',
      '2026-03-04',
      '2026-03-05',
      '2026-03-06',
      '2026-03-07',
      '2026-03-08',
      '2026-03-09',
    ]);
    expect(a.attendanceTrends.at(-1)).toEqual({ date: '2026-03-09', attendanceRate: 100, presentStudents: 2, totalStudents: 2 });
    expect(a.attendanceTrends[0]).toEqual({ date: '2026-03-03', attendanceRate: 0, presentStudents: 0, totalStudents: 0 });
    const kpi = Object.fromEntries(a.performanceMetrics.map((m: { metric: string; current: number }) => [m.metric, m.current]));
    expect(kpi).toEqual({ 'Attendance Rate (30 days)': 70, 'On-Time Arrival': 78.6, 'Clock Hours Delivered': 67.1, 'Students at Risk': 2 });
    expect(a.courseAnalytics).toEqual([
      {
        courseId: expect.any(Number),
        courseName: 'Medical Terminology',
        courseCode: 'MA-101',
        riskLevel: 'medium',
        totalSessions: 3,
        avgAttendanceRate: 83.3,
        trend: 'down',
      },
      {
        courseId: expect.any(Number),
        courseName: 'Nursing Fundamentals',
        courseCode: 'NUR-101',
        riskLevel: 'high',
        totalSessions: 4,
        avgAttendanceRate: 64.3,
        trend: 'up',
      }, // 4 of 6 lately vs 5 of 8 before,
    ]);
    expect(a.userActivity).toEqual({
      dailyLogins: 5,
      avgSessionDuration: 24,
      topActiveUsers: [
        { name: 'Ada Admin', sessions: 3 },
        { name: 'Ian One', sessions: 1 },
        { name: 'Ivy Two', sessions: 1 },
      ],
    });
  });

  it('compares students at risk with the figure recorded after the day a week ago, which a later correction does not rewrite', async () => {
    const trend = async () => (await get('analytics')).performanceMetrics.find((m: { metric: string }) => m.metric === 'Students at Risk').trend;
    // The first analytics call above recorded 2 March's figure for the school.
    const { rows } = await t.db.execute<{ scope_key: string; students: number }>(
      sql`select scope_key, students from students_at_risk_daily where as_of = '2026-03-02'`,
    );
    expect(rows).toEqual([{ scope_key: 'school', students: expect.any(Number) }]);
    await t.db.execute(sql`update students_at_risk_daily set students = 9 where as_of = '2026-03-02' and scope_key = 'school'`);
    expect(await trend()).toBe('down'); // 2 now against the 9 recorded
    await t.db.execute(sql`update students_at_risk_daily set students = 2 where as_of = '2026-03-02' and scope_key = 'school'`);
    expect(await trend()).toBe('flat');
  });

  it('records the students at risk of yesterday once, for the school and each instructor with a class', async () => {
    expect(await recordYesterdaysStudentsAtRisk(t.db, clock.now())).toBe(3);
    expect(await recordYesterdaysStudentsAtRisk(t.db, clock.now())).toBe(0);
    const { rows } = await t.db.execute<{ scope_key: string }>(sql`select scope_key from students_at_risk_daily where as_of = '2026-03-08' order by scope_key`);
    expect(rows.map((r) => r.scope_key)).toEqual(
      ['instructor:' + Math.min(i1.userId, i2.userId), 'instructor:' + Math.max(i1.userId, i2.userId), 'school'].sort(),
    );
  });

  it('stats and recent attendance', async () => {
    expect(await get('stats')).toEqual({
      totalStudents: 6,
      enrolledStudents: 6,
      totalCourses: 2,
      activeCourses: 2,
      activeSchedules: 2,
      instructors: 2,
      classesToday: 2,
      attendanceRate30d: 70,
    });
    const recent = await get('recent-attendance');
    expect(recent).toHaveLength(20);
    expect(recent[0]).toMatchObject({ studentName: 'D Student', status: 'late', courseCode: 'NUR-101' });
  });

  it('honours the lowAttendanceAlerts setting', async () => {
    await t.app.inject({ method: 'PUT', url: '/api/settings', headers: { cookie: admin.cookie }, payload: { notifications: { lowAttendanceAlerts: false } } });
    expect((await get('executive-summary')).todayMetrics.criticalAlerts).toBe(0);
    expect((await get('real-time')).alerts).toEqual([]);
    await t.app.inject({ method: 'PUT', url: '/api/settings', headers: { cookie: admin.cookie }, payload: { notifications: { lowAttendanceAlerts: true } } });
  });

  it("takes the viewer's own lowAttendanceAlerts: an instructor turning them off leaves the admin's alerts on", async () => {
    const put = await t.app.inject({
      method: 'PUT',
      url: '/api/settings',
      headers: { cookie: i1.cookie },
      payload: { notifications: { lowAttendanceAlerts: false } },
    });
    expect(put.statusCode).toBe(200);
    const mine = await get('real-time', i1.cookie);
    expect(mine.alerts).toEqual([]);
    expect(mine.alertsOn).toBe(false);
    expect((await get('executive-summary', i1.cookie)).todayMetrics.criticalAlerts).toBe(0);
    const admins = await get('real-time');
    expect(admins.alertsOn).toBe(true);
    expect(admins.alerts.length).toBeGreaterThan(0);
    expect((await get('executive-summary')).todayMetrics.criticalAlerts).toBeGreaterThan(0);
    await t.app.inject({ method: 'PUT', url: '/api/settings', headers: { cookie: i1.cookie }, payload: { notifications: { lowAttendanceAlerts: true } } });
    const again = await get('real-time', i1.cookie);
    expect(again.alertsOn).toBe(true);
    expect(again.alerts.length).toBeGreaterThan(0);
  });
});
