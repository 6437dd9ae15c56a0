import { EMAIL_NOT_CONFIGURED } from '../../../common/notifications.ts';
import { sql } from 'drizzle-orm';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.ts';
import { fixedClock } from '../../lib/clock.ts';
import { createFieldCipher } from '../../lib/field-cipher.ts';
import {
  buildAttendanceRecord,
  buildAuditEntry,
  buildCourse,
  buildProgram,
  buildRosterEntry,
  buildSchedule,
  buildStudent,
  buildUpload,
} from '../../test/factories.ts';
import { createTestApp, type TestApp } from '../../test/helpers.ts';
import { composeWeeklyReport, isoWeekName, reportPeriod, runWeeklyReport, type WeeklyFigures } from './service.ts';

// School time zone America/Chicago (CDT, UTC−5, from 2026-03-08). The report sent on Monday
// 2026-03-09 covers Mon 03-02 … Sun 03-08 ("this week") against Mon 02-23 … Sun 03-01 ("last week").
// NUR-101 and MA-101 meet on Mondays; every record below is present or absent, so rates are by hand.
const SMTP = { url: 'smtp://127.0.0.1:2525', from: 'Muster <m@school.test>' };
const clock = fixedClock('2026-03-09T15:00:00Z');
const cipher = createFieldCipher(randomBytes(32));
let t: TestApp;
let admin: { cookie: string; userId: number; email: string };
let itAdmin: { cookie: string; userId: number; email: string };
let instructor: { cookie: string; userId: number };
let optedOut: number, emailOff: number, inactive: number;
const id: Record<string, number> = {};

beforeAll(async () => {
  t = await createTestApp({ clock, config: { smtp: SMTP } });
  await t.db.execute(sql`update school_settings set time_zone = 'America/Chicago'`);
  admin = await t.signedIn('super_admin', { firstName: 'Ada' });
  itAdmin = await t.signedIn('it_admin', { firstName: 'Ivan' });
  instructor = await t.signedIn('instructor');
  const off = async (role: 'super_admin' | 'it_admin', notifications: object) => {
    const u = await t.signedIn(role);
    const res = await t.app.inject({ method: 'PUT', url: '/api/settings', headers: { cookie: u.cookie }, payload: { notifications } });
    expect(res.statusCode, res.body).toBe(200);
    return u.userId;
  };
  optedOut = await off('it_admin', { weeklyReports: false });
  emailOff = await off('super_admin', { emailNotifications: false });
  inactive = (await t.signedIn('it_admin')).userId;
  await t.db.execute(sql`update users set is_active = false where id = ${inactive}`);

  const p = (await buildProgram(t.db, { programName: 'PN' })).id;
  const c1 = (await buildCourse(t.db, { courseCode: 'NUR-101', courseName: 'Nursing Fundamentals', programId: p })).id;
  const c2 = (await buildCourse(t.db, { courseCode: 'MA-101', courseName: 'Medical <Terminology>', programId: p })).id;
  const schedule = async (courseId: number, startTime: string, endTime: string) =>
    (
      await buildSchedule(t.db, {
        courseId,
        instructorId: instructor.userId,
        startTime,
        endTime,
        roomNumber: 'R1',
        courseStartDate: '2026-02-16',
        courseEndDate: '2026-03-30',
      })
    ).id;
  const s1 = await schedule(c1, '08:00', '12:00');
  const s2 = await schedule(c2, '13:00', '17:00');
  for (const n of ['A', 'B', 'C', 'D', 'E', 'F']) {
    id[n] = (await buildStudent(t.db, { firstName: n, lastName: 'Student', programId: p })).id;
    await buildRosterEntry(t.db, { scheduleId: 'ABCD'.includes(n) ? s1 : s2, studentId: id[n] });
  }
  const rec = (student: string, scheduleId: number, sessionDate: string, status: 'present' | 'absent') =>
    buildAttendanceRecord(t.db, {
      studentId: id[student],
      scheduleId,
      sessionDate,
      status,
      minutesAttended: status === 'present' ? 240 : 0,
      scheduledMinutes: 240,
      source: 'qr',
    });
  // 02-16: everyone but C. Last week (02-23): NUR 2 of 4, MA 2 of 2. This week (03-02): NUR 3 of 4, MA 1 of 2.
  for (const [n, s] of [
    ['A', s1],
    ['B', s1],
    ['D', s1],
    ['E', s2],
    ['F', s2],
  ] as const)
    await rec(n, s, '2026-02-16', 'present');
  await rec('C', s1, '2026-02-16', 'absent');
  for (const [n, st] of [
    ['A', 'present'],
    ['B', 'absent'],
    ['C', 'absent'],
    ['D', 'present'],
  ] as const)
    await rec(n, s1, '2026-02-23', st);
  for (const n of ['E', 'F']) await rec(n, s2, '2026-02-23', 'present');
  for (const [n, st] of [
    ['A', 'present'],
    ['B', 'present'],
    ['C', 'absent'],
    ['D', 'present'],
  ] as const)
    await rec(n, s1, '2026-03-02', st);
  await rec('E', s2, '2026-03-02', 'present');
  await rec('F', s2, '2026-03-02', 'absent');

  // Imports: two of this week count (Mon 03-02 00:00 CST = 06:00 UTC … Mon 03-09 00:00 CDT = 05:00 UTC);
  // a dry run, one of the week before and one of the sending Monday do not.
  const upload = (status: string, createdCount: number, updatedCount: number, at: string, dryRun = false) =>
    buildUpload(t.db, { uploadType: 'students', fileName: 'students.csv', fileSize: 10, status, createdCount, updatedCount, dryRun, createdAt: new Date(at) });
  await upload('completed', 5, 2, '2026-03-02T06:00:00Z');
  await upload('failed', 0, 0, '2026-03-09T04:59:00Z');
  await upload('completed', 40, 0, '2026-03-04T10:00:00Z', true);
  await upload('completed', 7, 0, '2026-03-02T05:59:00Z');
  await upload('completed', 9, 0, '2026-03-09T05:00:00Z');
  const exported = (what: string, at: string) => buildAuditEntry(t.db, { action: 'Export', tableName: what, timestamp: new Date(at) });
  await exported('attendance', '2026-03-03T15:00:00Z');
  await exported('attendance', '2026-03-06T15:00:00Z');
  await exported('sap_report', '2026-03-08T15:00:00Z');
  await exported('attendance', '2026-03-01T15:00:00Z');
});
afterAll(() => t.close());

const weeklyMails = async () =>
  (
    await t.db.execute<{ user_id: number; recipient: string; subject: string; text_body: string; html_body: string }>(
      sql`select user_id, recipient, subject, text_body, html_body from outbox_messages where kind = 'weekly_report' order by id`,
    )
  ).rows;
const deps = (at: string) => ({ db: t.db, config: { ...loadedConfig(), smtp: SMTP }, cipher, clock: fixedClock(at) });
const loadedConfig = () => loadConfig({ NODE_ENV: 'test' });

describe('report period', () => {
  it('is due from Monday 07:00 school time, covering the last complete week', () => {
    expect(reportPeriod(new Date('2026-03-09T11:59:00Z'), 'America/Chicago')).toMatchObject({ sendOn: '2026-03-09', due: false });
    expect(reportPeriod(new Date('2026-03-09T12:00:00Z'), 'America/Chicago')).toMatchObject({
      sendOn: '2026-03-09',
      week: '2026-W11',
      due: true,
      thisWeek: { from: '2026-03-02', to: '2026-03-08' },
      lastWeek: { from: '2026-02-23', to: '2026-03-01' },
    });
    // Sunday night in Chicago is already Monday in UTC: still the previous week's report.
    expect(reportPeriod(new Date('2026-03-09T04:00:00Z'), 'America/Chicago').sendOn).toBe('2026-03-02');
  });

  it('names ISO weeks across the year end', () => {
    expect(isoWeekName('2026-12-28')).toBe('2026-W53');
    expect(isoWeekName('2027-01-04')).toBe('2027-W01');
    expect(isoWeekName('2025-12-29')).toBe('2026-W01');
  });
});

describe('report content (pure)', () => {
  const figures: WeeklyFigures = {
    period: { thisWeek: { from: '2026-03-02', to: '2026-03-08' }, lastWeek: { from: '2026-02-23', to: '2026-03-01' } },
    courses: [
      { courseCode: 'X-1', courseName: 'A & B', thisWeek: 80, lastWeek: 90 },
      { courseCode: 'Y-2', courseName: 'Quiet', thisWeek: null, lastWeek: 50 },
    ],
    atRisk: { count: 1, reasons: ['<b>C</b>: 3 absences'] },
    compliance: { watch: 1, due: 2, overdue: 3, sapNotMet: 4 },
    imports: [],
    exports: [{ what: 'attendance', exports: 2 }],
  };
  const mail = composeWeeklyReport(figures, { dashboard: 'https://m.test/', unsubscribe: 'https://m.test/unsubscribe?token=t' });

  it('writes every figure in the plain text and escapes the HTML', () => {
    expect(mail.subject).toBe('Muster weekly report: 2026-03-02 to 2026-03-08');
    expect(mail.text).toContain('X-1 A & B: 80% (last week 90%) -10');
    expect(mail.text).toContain('Y-2 Quiet: — (last week 50%)');
    expect(mail.text).toContain('Withdrawal watch: 1 watch, 2 determination due, 3 overdue');
    expect(mail.text).toContain('SAP not met: 4');
    expect(mail.text).toContain('Imports this week: 0');
    expect(mail.text).toContain('Exports this week: 2');
    expect(mail.text).toContain('Dashboard: https://m.test/');
    expect(mail.text).toContain('Stop these e-mails: https://m.test/unsubscribe?token=t');
    expect(mail.html).toContain('A &amp; B');
    expect(mail.html).toContain('&lt;b&gt;C&lt;/b&gt;');
    expect(mail.html).not.toContain('<b>C</b>');
    expect(mail.html).toContain('href="https://m.test/unsubscribe?token=t"');
  });
});

describe('weekly report job', () => {
  it('does nothing before Monday 07:00 school time', async () => {
    expect(await runWeeklyReport({ ...deps('2026-03-09T11:59:00Z') })).toBe(0);
    expect(await weeklyMails()).toEqual([]);
    expect((await t.db.execute(sql`select 1 from installation_facts where name like 'weekly-report:%'`)).rows).toHaveLength(0);
  });

  it('queues nothing and claims nothing when e-mail is not configured', async () => {
    expect(await runWeeklyReport({ ...deps('2026-03-09T12:00:00Z'), config: { ...loadedConfig(), smtp: null } })).toBe(0);
    expect((await t.db.execute(sql`select 1 from installation_facts where name like 'weekly-report:%'`)).rows).toHaveLength(0);
  });

  it('claims the week once, even run twice at once, and sends to opted-in active administrators only', async () => {
    const runs = await Promise.all([runWeeklyReport(deps('2026-03-09T12:00:00Z')), runWeeklyReport(deps('2026-03-09T12:01:00Z'))]);
    expect(runs.sort()).toEqual([0, 2]);
    expect(await runWeeklyReport(deps('2026-03-09T12:05:00Z'))).toBe(0);
    const mails = await weeklyMails();
    expect(mails.map((m) => m.user_id).sort()).toEqual([admin.userId, itAdmin.userId].sort());
    for (const not of [optedOut, emailOff, inactive, instructor.userId]) expect(mails.map((m) => m.user_id)).not.toContain(not);
    expect((await t.db.execute(sql`select name from installation_facts where name like 'weekly-report:%'`)).rows).toEqual([{ name: 'weekly-report:2026-W11' }]);
  });

  it('reports rates this week against last week, students at risk, compliance, imports and exports', async () => {
    const [mail] = (await weeklyMails()).filter((m) => m.user_id === admin.userId);
    expect(mail!.recipient).toBe(admin.email);
    expect(mail!.subject).toBe('Muster weekly report: 2026-03-02 to 2026-03-08');
    expect(mail!.text_body).toContain('NUR-101 Nursing Fundamentals: 75% (last week 50%) +25');
    expect(mail!.text_body).toContain('MA-101 Medical <Terminology>: 50% (last week 100%) -50');
    expect(mail!.html_body).toContain('Medical &lt;Terminology&gt;');
    expect(mail!.text_body).toMatch(/Students at risk: [1-9]/);
    expect(mail!.text_body).toContain('C Student: 3 consecutive absences in NUR-101');
    // Compliance counts are the Compliance screen's as of the week's last day.
    const overview = await t.app.inject({ url: '/api/compliance/overview?asOf=2026-03-08', headers: { cookie: admin.cookie } });
    const c = overview.json().counts;
    expect(mail!.text_body).toContain(`Withdrawal watch: ${c.watch} watch, ${c.due} determination due, ${c.overdue} overdue`);
    expect(mail!.text_body).toContain(`SAP not met: ${c.sapNotMet}`);
    expect(mail!.text_body).toContain('Imports this week: 2');
    expect(mail!.text_body).toContain('1 completed (5 rows created, 2 updated)');
    expect(mail!.text_body).toContain('1 failed (0 rows created, 0 updated)');
    expect(mail!.text_body).toContain('Exports this week: 3');
    expect(mail!.text_body).toContain('attendance: 2');
    expect(mail!.text_body).toContain('sap_report: 1');
    expect(mail!.text_body).toMatch(/Stop these e-mails: http.*\/unsubscribe\?token=/);
  });

  it('the unsubscribe link turns off this administrator’s weekly reports', async () => {
    const [mail] = (await weeklyMails()).filter((m) => m.user_id === itAdmin.userId);
    const token = /token=([^\s]+)/.exec(mail!.text_body)![1]!;
    expect(JSON.parse(cipher.for('unsubscribe').decrypt(decodeURIComponent(token)))).toEqual({ userId: itAdmin.userId, switch: 'weeklyReports' });
  });
});

describe('preview', () => {
  it('queues the report to the caller only', async () => {
    const before = (await weeklyMails()).length;
    const res = await t.app.inject({ method: 'POST', url: '/api/digests/weekly/preview', headers: { cookie: itAdmin.cookie } });
    expect(res.statusCode, res.body).toBe(202);
    expect(res.json()).toEqual({ to: itAdmin.email });
    const after = await weeklyMails();
    expect(after).toHaveLength(before + 1);
    expect(after.at(-1)).toMatchObject({ user_id: itAdmin.userId, recipient: itAdmin.email });
    expect(after.at(-1)!.text_body).toContain('NUR-101 Nursing Fundamentals: 75% (last week 50%)');
  });

  it('is refused for instructors', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/digests/weekly/preview', headers: { cookie: instructor.cookie } });
    expect(res.statusCode).toBe(403);
  });

  it('says e-mail is not configured without SMTP', async () => {
    const plain = await createTestApp({ clock });
    try {
      const { cookie } = await plain.signedIn('super_admin');
      const res = await plain.app.inject({ method: 'POST', url: '/api/digests/weekly/preview', headers: { cookie } });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(EMAIL_NOT_CONFIGURED);
      expect((await plain.db.execute(sql`select 1 from outbox_messages`)).rows).toHaveLength(0);
    } finally {
      await plain.close();
    }
  });
});
