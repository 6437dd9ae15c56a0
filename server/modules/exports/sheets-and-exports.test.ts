import { parse } from 'csv-parse/sync';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../lib/clock.ts';
import { buildAttendanceRecord, buildCourse, buildProgram, buildRosterEntry, buildSchedule, buildStudent } from '../../test/factories.ts';
import { createTestApp, type TestApp } from '../../test/helpers.ts';

/**
 * Decision 032: the attendance export's program, course and student filters; the sign-in
 * sheet's reads scoped to the instructor's own classes; Pending Sync dropping after an SIS export
 * (and rising again when an exported record changes); the analytics export, formula-safe.
 */

// Monday 2027-03-08, school time zone UTC. Two programs, a course each, a class each; three students.
const clock = fixedClock('2027-03-08T15:00:00Z');
let t: TestApp;
let admin: string;
let i1: { cookie: string; userId: number };
let i2: { cookie: string; userId: number };
const id: Record<string, number> = {};

const records = (body: string) => parse(body.replace(/^\uFEFF/, ''), { columns: true }) as Record<string, string>[];
/** A cell a spreadsheet would run: starts with = + @ tab CR, or with - and is not a plain number. */
const runsAsFormula = (cell: string) => /^[=+@\t\r]/.test(cell) || (cell.startsWith('-') && !/^-\d+(\.\d+)?$/.test(cell));

beforeAll(async () => {
  t = await createTestApp({ clock });
  admin = (await t.signedIn('super_admin')).cookie;
  i1 = await t.signedIn('instructor', { firstName: '=HYPERLINK("http://x","y")', lastName: 'One' });
  i2 = await t.signedIn('instructor', { firstName: 'Ivy', lastName: 'Two' });
  id.pn = (await buildProgram(t.db, { programName: 'Practical Nursing' })).id;
  id.ma = (await buildProgram(t.db, { programName: 'Medical Assisting' })).id;
  id.nur = (await buildCourse(t.db, { courseCode: 'NUR-101', courseName: '=1+2 Fundamentals', programId: id.pn })).id;
  id.med = (await buildCourse(t.db, { courseCode: 'MA-101', courseName: 'Medical Terminology', programId: id.ma })).id;
  const schedule = async (courseId: number, instructorId: number) =>
    (await buildSchedule(t.db, { courseId, instructorId, roomNumber: 'R1', courseStartDate: '2027-02-01', courseEndDate: '2027-05-31' })).id;
  id.s1 = await schedule(id.nur, i1.userId);
  id.s2 = await schedule(id.med, i2.userId);
  for (const n of ['ana', 'ben', 'cy']) {
    id[n] = (await buildStudent(t.db, { firstName: n, lastName: 'Student', sisStudentId: `SIS-${n}`, programId: id.pn })).id;
  }
  // ana and ben in NUR-101, cy in MA-101 (a course of another program); two Mondays each.
  for (const [student, sched] of [
    ['ana', id.s1],
    ['ben', id.s1],
    ['cy', id.s2],
  ] as const) {
    await buildRosterEntry(t.db, { scheduleId: sched, studentId: id[student] });
    for (const sessionDate of ['2027-03-01', '2027-03-08']) {
      await buildAttendanceRecord(t.db, {
        studentId: id[student],
        scheduleId: sched,
        sessionDate,
        status: 'present',
        minutesAttended: 240,
        scheduledMinutes: 240,
        source: 'qr',
      });
    }
  }
});
afterAll(() => t.close());

const exportRows = async (query: string) => {
  const res = await t.app.inject({ url: `/api/export/attendance${query}`, headers: { cookie: admin } });
  expect(res.statusCode, res.body).toBe(200);
  return records(res.body);
};
const pendingSync = async (cookie = admin) => {
  const res = await t.app.inject({ url: '/api/dashboard/executive-summary', headers: { cookie } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().todayMetrics.pendingSyncRecords as number;
};

describe('attendance export filters', () => {
  it('filters by program (its courses), course and student, together with the dates', async () => {
    expect(await exportRows('')).toHaveLength(6);
    expect((await exportRows(`?programId=${id.pn}`)).map((r) => r.courseCode)).toEqual(['NUR-101', 'NUR-101', 'NUR-101', 'NUR-101']);
    expect((await exportRows(`?programId=${id.ma}`)).map((r) => r.firstName)).toEqual(['cy', 'cy']);
    expect(await exportRows(`?courseId=${id.med}`)).toHaveLength(2);
    expect((await exportRows(`?studentId=${id.ben}&startDate=2027-03-08`)).map((r) => [r.firstName, r.sessionDate])).toEqual([['ben', '2027-03-08']]);
    expect(await exportRows(`?courseId=${id.nur}&studentId=${id.cy}`)).toEqual([]);
    // Empty values are "no filter", as the tab sends a blank choice.
    expect(await exportRows('?programId=&courseId=&studentId=&startDate=&endDate=')).toHaveLength(6);
  });

  it.each([
    ['programId', 'abc'],
    ['courseId', '-4'],
    ['studentId', '1.5'],
    ['studentId', '99999999999'],
  ])('a bad %s (%s) is a 400 naming the field', async (field, value) => {
    const res = await t.app.inject({ url: `/api/export/attendance?${field}=${encodeURIComponent(value)}`, headers: { cookie: admin } });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors[0].field).toBe(field);
  });

  it('is for data managers only', async () => {
    expect((await t.app.inject({ url: '/api/export/attendance', headers: { cookie: i1.cookie } })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'POST', url: '/api/sis/attendance-export', headers: { cookie: i1.cookie }, payload: {} })).statusCode).toBe(403);
  });
});

describe('sign-in sheet reads', () => {
  it("an instructor reads their own class's schedule and meeting, not another instructor's", async () => {
    const own = await t.app.inject({ url: `/api/attendance/schedule/${id.s1}?date=2027-03-08`, headers: { cookie: i1.cookie } });
    expect(own.statusCode).toBe(200);
    expect(own.json().map((r: { firstName: string; status: string }) => [r.firstName, r.status])).toEqual([
      ['ana', 'present'],
      ['ben', 'present'],
    ]);
    expect((await t.app.inject({ url: `/api/schedules/${id.s1}`, headers: { cookie: i1.cookie } })).statusCode).toBe(200);
    for (const url of [`/api/schedules/${id.s2}`, `/api/attendance/schedule/${id.s2}?date=2027-03-08`]) {
      expect((await t.app.inject({ url, headers: { cookie: i1.cookie } })).statusCode, url).toBe(403);
    }
    const support = await t.signedIn('support_staff');
    expect((await t.app.inject({ url: `/api/attendance/schedule/${id.s1}`, headers: { cookie: support.cookie } })).statusCode).toBe(403);
  });
});

describe('Pending Sync and the SIS export', () => {
  it('a plain export changes nothing; the SIS export marks what it carried, audited, and Pending Sync drops', async () => {
    const attendanceSync = async () =>
      (await t.app.inject({ url: '/api/sis/status', headers: { cookie: admin } })).json().tables.find((x: { table: string }) => x.table === 'attendance');
    expect(await attendanceSync()).toMatchObject({ lastSyncDate: null });
    expect(await pendingSync()).toBe(6);
    await exportRows('');
    expect(await pendingSync()).toBe(6);

    const res = await t.app.inject({
      method: 'POST',
      url: '/api/sis/attendance-export',
      headers: { cookie: admin },
      payload: { courseId: String(id.nur), endDate: '2027-03-07' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-disposition']).toBe('attachment; filename="attendance_export_2027-03-08.csv"');
    const file = records(res.body);
    expect(file.map((r) => [r.firstName, r.sessionDate, r.syncStatus])).toEqual([
      ['ana', '2027-03-01', 'pending'],
      ['ben', '2027-03-01', 'pending'],
    ]);
    expect(await pendingSync()).toBe(4);
    // The instructor's own figure drops too (their two exported records).
    expect(await pendingSync(i1.cookie)).toBe(2);
    const { rows } = await t.db.execute<{ sync_status: string; n: number }>(
      sql`select sync_status, count(*)::int as n from attendance_records group by 1 order by 1`,
    );
    expect(rows).toEqual([
      { sync_status: 'pending', n: 4 },
      { sync_status: 'synced', n: 2 },
    ]);
    const { rows: audit } = await t.db.execute<{ action: string; new_values: Record<string, unknown> }>(
      sql`select action, new_values from audit_logs where table_name = 'attendance' and action = 'Update' order by id desc limit 1`,
    );
    expect(audit[0]!.new_values).toMatchObject({ syncStatus: 'synced', records: 2, fileName: 'attendance_export_2027-03-08.csv', courseId: id.nur });

    // The SIS tab's counts follow.
    const status = await t.app.inject({ url: '/api/sis/status', headers: { cookie: admin } });
    expect(status.json().tables.find((x: { table: string }) => x.table === 'attendance')).toMatchObject({ pending: 4, synced: 2 });
    // Its Last SIS sync is the exchange's time (a plain GET export above did not set it).
    expect(Date.parse((await attendanceSync()).lastSyncDate)).toBe(t.clock.now().getTime());
  });

  it('a record changed after it went to the SIS is pending again; a second export takes it', async () => {
    const [record] = (await t.db.execute<{ id: number }>(sql`select id from attendance_records where student_id = ${id.ana} and session_date = '2027-03-01'`))
      .rows;
    const override = await t.app.inject({
      method: 'PUT',
      url: `/api/attendance/${record!.id}`,
      headers: { cookie: admin },
      payload: { status: 'excused', overrideReason: 'Clinical placement' },
    });
    expect(override.statusCode, override.body).toBe(200);
    expect(await pendingSync()).toBe(5);

    const res = await t.app.inject({ method: 'POST', url: '/api/sis/attendance-export', headers: { cookie: admin }, payload: {} });
    expect(res.statusCode).toBe(200);
    expect(records(res.body)).toHaveLength(6);
    expect(await pendingSync()).toBe(0);
    // Marking touches only the sync status: the meeting totals and the record's values are unchanged.
    const { rows } = await t.db.execute(sql`select status, sync_status from attendance_records where id = ${record!.id}`);
    expect(rows).toEqual([{ status: 'excused', sync_status: 'synced' }]);
  });

  it('refuses a bad filter before marking anything', async () => {
    await t.db.execute(sql`update attendance_records set sync_status = 'pending'`);
    const res = await t.app.inject({ method: 'POST', url: '/api/sis/attendance-export', headers: { cookie: admin }, payload: { programId: 'x' } });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors[0].field).toBe('programId');
    expect(await pendingSync()).toBe(6);
  });
});

describe('analytics export', () => {
  it("downloads the Analytics tab's figures as CSV, formula text neutralised", async () => {
    const res = await t.app.inject({ url: '/api/export/analytics', headers: { cookie: admin } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-disposition']).toBe('attachment; filename="analytics_export_2027-03-08.csv"');
    const rows = records(res.body);
    expect(rows.find((r) => r.item === 'Attendance Rate (30 days)')).toMatchObject({ section: 'Key Performance Indicators', unit: '%', target: '90' });
    expect(rows.filter((r) => r.section === 'Attendance Trends').map((r) => r.date)).toHaveLength(7);
    expect(rows.find((r) => r.section === 'Attendance Trends' && r.date === '2027-03-08')).toMatchObject({ value: '100', present: '3', total: '3' });
    expect(rows.find((r) => r.code === 'NUR-101')).toMatchObject({
      section: 'Course Performance',
      item: "'=1+2 Fundamentals",
      sessions: '2',
      riskLevel: 'medium',
    }); // 3 of 4: ana's excused meeting
    const cells = (parse(res.body.replace(/^\uFEFF/, '')) as string[][]).flat();
    expect(cells.filter(runsAsFormula)).toEqual([]);
  });

  it("gives an instructor their own classes' figures, and names the user a formula can't run in", async () => {
    // The instructor signs in again, so they are among the most active users.
    const res = await t.app.inject({ url: '/api/export/analytics', headers: { cookie: i1.cookie } });
    expect(res.statusCode).toBe(200);
    const rows = records(res.body);
    expect(rows.filter((r) => r.section === 'Course Performance').map((r) => r.code)).toEqual(['NUR-101']);
    expect(rows.find((r) => r.section === 'Most Active Users')?.item).toBe(`'=HYPERLINK("http://x","y") One`);
  });
});
