import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../lib/clock.ts';
import { buildAttendanceRecord, buildCourse, buildProgram, buildRosterEntry, buildSchedule, buildStudent } from '../../test/factories.ts';
import { auditEntries, createTestApp, type TestApp } from '../../test/helpers.ts';

/**
 * Decision 048: the dashboard's alert figures disagreed (Critical Alerts 12, Live Alerts 29, Students at
 * Risk 13) and no alert could be dealt with. The figures now come from one count, and an alert can
 * be acknowledged: it leaves the counts and the list, stays listed as acknowledged, is audited, and
 * shows again when it fires for a new reason (docs/decisions/048).
 */

// Monday 2026-03-09 (school time zone UTC). NUR-101 meets Mondays 08–12 (instructor 1), MA-101 Mondays 13–17 (instructor 2).
const clock = fixedClock('2026-03-09T15:00:00Z');
let t: TestApp;
let admin: { cookie: string; userId: number };
let support: { cookie: string; userId: number };
let i1: { cookie: string; userId: number };
let i2: { cookie: string; userId: number };
let s1: number;
const id: Record<string, number> = {};

type AlertOut = { id: string; rule: string; severity: string; studentId: number | null; message: string };
type Counts = { open: number; high: number; students: number; acknowledged: number };
type RealTime = {
  alerts: AlertOut[];
  alertCounts: Counts;
  acknowledgedAlerts: (AlertOut & { acknowledgedBy: string | null; acknowledgedAt: string; note: string | null })[];
};

beforeAll(async () => {
  t = await createTestApp({ clock });
  admin = await t.signedIn('super_admin', { firstName: 'Ada', lastName: 'Admin' });
  support = await t.signedIn('support_staff', { firstName: 'Sam', lastName: 'Support' });
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
  const s2 = await schedule(c2, i2.userId, '13:00', '17:00');
  for (const n of ['A', 'B', 'C', 'D', 'E', 'F']) {
    id[n] = (await buildStudent(t.db, { firstName: n, lastName: 'Student', programId: p })).id;
    await buildRosterEntry(t.db, { scheduleId: 'ABCD'.includes(n) ? s1 : s2, studentId: id[n] });
  }
  const MIN = { present: 240, late: 230, incomplete: 120, absent: 0, excused: 0 } as const;
  const rec = (student: string, scheduleId: number, sessionDate: string, status: keyof typeof MIN) =>
    buildAttendanceRecord(t.db, { studentId: id[student], scheduleId, sessionDate, status, minutesAttended: MIN[status], scheduledMinutes: 240, source: 'qr' });
  const past = ['2026-02-16', '2026-02-23', '2026-03-02'];
  const s1Past = {
    A: ['present', 'present', 'present'],
    B: ['present', 'absent', 'absent'],
    C: ['absent', 'absent', 'absent'],
    D: ['late', 'present', 'incomplete'],
  } as const;
  for (const [n, statuses] of Object.entries(s1Past)) for (const [i, st] of statuses.entries()) await rec(n, s1, past[i]!, st);
  for (const n of ['E', 'F']) for (const d of past) await rec(n, s2, d, 'present');
  await rec('A', s1, '2026-03-09', 'present');
  await rec('D', s1, '2026-03-09', 'late');
});
afterAll(() => t.close());

const get = async <T>(path: string, cookie = admin.cookie): Promise<T> => {
  const res = await t.app.inject({ url: `/api/dashboard/${path}`, headers: { cookie } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as T;
};
const acknowledge = (alertId: string, cookie = admin.cookie, payload?: Record<string, unknown>) =>
  t.app.inject({
    method: 'POST',
    url: `/api/dashboard/alerts/${encodeURIComponent(alertId)}/acknowledge`,
    headers: { cookie },
    ...(payload === undefined ? {} : { payload }),
  });
/** The three screens' figures: Overview's Critical Alerts and counts, Live's list and counts, Analytics' Students at Risk. */
const figures = async (cookie = admin.cookie) => {
  const [summary, live, analytics] = await Promise.all([
    get<{ todayMetrics: { criticalAlerts: number }; alerts: Counts }>('executive-summary', cookie),
    get<RealTime>('real-time', cookie),
    get<{ performanceMetrics: { metric: string; current: number }[] }>('analytics', cookie),
  ]);
  return { summary, live, atRisk: analytics.performanceMetrics.find((m) => m.metric === 'Students at Risk')!.current };
};
// The rules' answer is kept 30 s; a record written in a test is seen once that has passed.
const afterCache = () => clock.advance(31_000);

describe('alert figures from one count', () => {
  it('Overview, Live and Analytics show the same open, high and student figures', async () => {
    const { summary, live, atRisk } = await figures();
    expect(summary.alerts).toEqual(live.alertCounts);
    expect(live.alertCounts).toEqual({ open: 4, high: 4, students: 2, acknowledged: 0 });
    expect(summary.todayMetrics.criticalAlerts).toBe(live.alertCounts.high);
    expect(live.alerts).toHaveLength(live.alertCounts.open);
    expect(atRisk).toBe(live.alertCounts.students);
    expect(new Set(live.alerts.filter((a) => a.studentId != null).map((a) => a.studentId)).size).toBe(atRisk);
  });
});

describe('acknowledging an alert', () => {
  it('refuses a malformed id, naming the field, and an alert the viewer does not see', async () => {
    const bad = await acknowledge('not-an-alert');
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('id');
    const long = await acknowledge(`consecutive_absences:${id.C}:${s1}`, admin.cookie, { note: 'x'.repeat(501) });
    expect(long.statusCode).toBe(400);
    expect(long.body).toContain('note');
    // Instructor 2 does not teach NUR-101: its alerts are not theirs to acknowledge.
    const other = await acknowledge(`consecutive_absences:${id.C}:${s1}`, i2.cookie);
    expect(other.statusCode, other.body).toBe(404);
    // An alert that does not fire.
    expect((await acknowledge(`consecutive_absences:${id.A}:${s1}`)).statusCode).toBe(404);
  });

  it('takes it out of the counts and the list, keeps it listed as acknowledged, and audits it', async () => {
    const alertId = `consecutive_absences:${id.C}:${s1}`;
    const res = await acknowledge(alertId, support.cookie, { note: 'Called C; family emergency' });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ alertId, note: 'Called C; family emergency', acknowledgedAt: '2026-03-09T15:00:00.000Z' });

    const { summary, live, atRisk } = await figures();
    expect(live.alerts.map((a) => a.id)).not.toContain(alertId);
    expect(live.alertCounts).toEqual({ open: 3, high: 3, students: 2, acknowledged: 1 });
    expect(summary.alerts).toEqual(live.alertCounts);
    expect(summary.todayMetrics.criticalAlerts).toBe(3);
    expect(atRisk).toBe(2); // C is still named by "cannot reach 80 %"
    expect(live.acknowledgedAlerts).toEqual([
      expect.objectContaining({
        id: alertId,
        message: 'C Student: 3 consecutive absences in NUR-101',
        acknowledgedBy: 'Sam Support',
        note: 'Called C; family emergency',
      }),
    ]);
    // Acknowledged for everyone who sees it: the class's instructor too.
    expect((await get<RealTime>('real-time', i1.cookie)).alerts.map((a) => a.id)).not.toContain(alertId);

    const [entry] = (await auditEntries(t.db, 'alert_acknowledgements')).slice(-1);
    expect(entry).toMatchObject({
      action: 'Create',
      user_id: support.userId,
      new_values: { alertId, message: 'C Student: 3 consecutive absences in NUR-101', studentId: id.C },
    });
    // Once acknowledged it is no longer open: a second acknowledgement finds nothing to acknowledge.
    expect((await acknowledge(alertId)).statusCode).toBe(404);
  });

  it("leaves Students at Risk when all of a student's alerts are acknowledged", async () => {
    expect((await acknowledge(`cannot_reach_required:${id.C}:${s1}`)).statusCode).toBe(201);
    const { live, atRisk } = await figures();
    expect(live.alertCounts).toEqual({ open: 2, high: 2, students: 1, acknowledged: 2 });
    expect(atRisk).toBe(1);
  });

  it('shows a student alert again when it fires for a new reason: a new absence', async () => {
    await buildAttendanceRecord(t.db, {
      studentId: id.C,
      scheduleId: s1,
      sessionDate: '2026-03-09',
      status: 'absent',
      minutesAttended: 0,
      scheduledMinutes: 240,
      source: 'manual',
    });
    afterCache();
    const { live } = await figures();
    expect(live.alerts.find((a) => a.id === `consecutive_absences:${id.C}:${s1}`)?.message).toBe('C Student: 4 consecutive absences in NUR-101');
    expect(live.alertCounts.students).toBe(2);
    // Its earlier acknowledgement is history, not lost: the audit log keeps it.
    expect((await auditEntries(t.db, 'alert_acknowledgements')).length).toBe(2);
  });

  it("holds a course's acknowledgement for the rule's 14-day window, then shows it again if the rate is still low", async () => {
    const alertId = (await get<RealTime>('real-time')).alerts.find((a) => a.rule === 'course_rate')!.id;
    expect((await acknowledge(alertId, i1.cookie)).statusCode).toBe(201);
    expect((await get<RealTime>('real-time')).alerts.map((a) => a.id)).not.toContain(alertId);
    await t.db.execute(sql`update alert_acknowledgements set acknowledged_at = acknowledged_at - interval '15 days' where alert_id = ${alertId}`);
    expect((await get<RealTime>('real-time')).alerts.map((a) => a.id)).toContain(alertId);
  });
});
