import { parse } from 'csv-parse/sync';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importType, templateRows } from '../../../common/import-columns.ts';
import { ATTENDANCE_EXPORT_COLUMNS } from '../../../common/exports.ts';
import { attendanceRows } from '../exports/service.ts';
import { sisStatus } from '../sis/service.ts';
import { buildAttendanceRecord } from '../../test/factories.ts';
import { auditEntries, createTestApp, fixedClock, type TestApp } from '../../test/helpers.ts';
import { csv, upload } from '../../test/import-support.ts';

let t: TestApp;
let admin: string;
beforeAll(async () => {
  t = await createTestApp({ clock: fixedClock('2027-01-20T18:00:00Z') });
  admin = (await t.signedIn('it_admin')).cookie;
  for (const type of ['programs', 'courses', 'instructors', 'students', 'schedules'] as const) {
    const { header, rows } = templateRows(importType(type));
    const res = await upload(t, admin, type, `${type}.csv`, csv(header, rows));
    if (res.statusCode !== 200) throw new Error(res.body);
  }
  // Two class meetings of NUR-101 (Mondays): a QR check-in and check-out, a late arrival, and an override.
  const idOf = async (table: 'students' | 'schedules', sisId: string) =>
    (
      await t.db.execute<{ id: number }>(
        table === 'students' ? sql`select id from students where sis_student_id = ${sisId}` : sql`select id from schedules where sis_schedule_id = ${sisId}`,
      )
    ).rows[0]!.id;
  const scheduleId = await idOf('schedules', 'SIS-SCH-NUR101-C7');
  const [aaliyah, tomas] = [await idOf('students', 'SIS-STU-260001'), await idOf('students', 'SIS-STU-260002')];
  const meeting = { scheduleId, scheduledMinutes: 240, isManualOverride: false, overrideReason: null, source: 'qr' };
  await buildAttendanceRecord(t.db, {
    ...meeting,
    studentId: aaliyah,
    sessionDate: '2027-01-11',
    status: 'present',
    scanInTime: new Date('2027-01-11T13:58:00Z'),
    scanOutTime: new Date('2027-01-11T18:01:00Z'),
    minutesAttended: 240,
    syncStatus: 'pending',
  });
  await buildAttendanceRecord(t.db, {
    ...meeting,
    studentId: tomas,
    sessionDate: '2027-01-11',
    status: 'late',
    scanInTime: new Date('2027-01-11T14:25:00Z'),
    scanOutTime: null,
    minutesAttended: 215,
    syncStatus: 'synced',
  });
  await buildAttendanceRecord(t.db, {
    ...meeting,
    studentId: aaliyah,
    sessionDate: '2027-01-25',
    status: 'excused',
    scanInTime: null,
    scanOutTime: null,
    minutesAttended: 0,
    isManualOverride: true,
    overrideReason: 'Clinical rotation, "site B"',
    source: 'manual',
    syncStatus: 'manual',
  });
});
afterAll(() => t.close());

const exportCsv = (query = '') => t.app.inject({ url: `/api/export/attendance${query}`, headers: { cookie: admin } });
const records = (body: string) => parse(body, { columns: true }) as Record<string, string>[];

describe('attendance export', () => {
  it('streams attendance_export_{date}.csv with the SPEC §3 columns plus the clock-hour details', async () => {
    const res = await exportCsv();
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
    expect(res.headers['content-disposition']).toBe('attachment; filename="attendance_export_2027-01-20.csv"');
    expect(res.body.split('\n')[0]).toBe(
      'sisStudentId,studentId,firstName,lastName,email,sisCourseId,courseCode,courseName,sisScheduleId,sessionDate,scanInTime,status,syncStatus,scanOutTime,minutesAttended,scheduledMinutes,isManualOverride,overrideReason,source',
    );
    expect(res.body.split('\n')[0]).toBe(ATTENDANCE_EXPORT_COLUMNS.join(','));
    const rows = records(res.body);
    expect(rows).toHaveLength(3);
    const {
      rows: [aaliyah],
    } = await t.db.execute<{ id: number }>(sql`select id from students where sis_student_id = 'SIS-STU-260001'`);
    expect(rows.find((r) => r.status === 'present')).toEqual({
      sisStudentId: 'SIS-STU-260001',
      studentId: String(aaliyah!.id),
      firstName: 'Aaliyah',
      lastName: 'Johnson',
      email: 'aaliyah.johnson@students.example.edu',
      sisCourseId: 'SIS-CRS-NUR101',
      courseCode: 'NUR-101',
      courseName: 'Fundamentals of Nursing',
      sisScheduleId: 'SIS-SCH-NUR101-C7',
      sessionDate: '2027-01-11',
      scanInTime: '2027-01-11T13:58:00+00:00', // the school's time (UTC here), with its offset
      status: 'present',
      syncStatus: 'pending',
      scanOutTime: '2027-01-11T18:01:00+00:00',
      minutesAttended: '240',
      scheduledMinutes: '240',
      isManualOverride: 'false',
      overrideReason: '',
      source: 'qr',
    });
    expect(rows.find((r) => r.status === 'excused')).toMatchObject({
      status: 'excused',
      isManualOverride: 'true',
      overrideReason: 'Clinical rotation, "site B"',
      source: 'manual',
      scanInTime: '',
    });
    expect((await auditEntries(t.db, 'attendance')).at(-1)).toMatchObject({ action: 'Export', new_values: { startDate: null, endDate: null } });
  });

  it('filters by session date, inclusive', async () => {
    expect(records((await exportCsv('?startDate=2027-01-12')).body).map((r) => r.sessionDate)).toEqual(['2027-01-25']);
    expect(
      records((await exportCsv('?endDate=2027-01-11')).body)
        .map((r) => r.status)
        .sort(),
    ).toEqual(['late', 'present']);
    expect(records((await exportCsv('?startDate=2027-01-11&endDate=2027-01-11')).body)).toHaveLength(2);
    const none = await exportCsv('?startDate=2030-01-01');
    expect(none.body.trim().split('\n')).toHaveLength(1);
  });

  it('answers 400 naming the field for a bad date or a reversed range', async () => {
    const bad = await exportCsv('?startDate=2027-13-01');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors[0].field).toBe('startDate');
    const reversed = await exportCsv('?startDate=2027-02-01&endDate=2027-01-01');
    expect(reversed.statusCode).toBe(400);
    expect(reversed.json().errors[0]).toMatchObject({ field: 'endDate', message: 'endDate must not be before startDate' });
  });

  it('pages through the database in batches by id, missing and repeating nothing', async () => {
    // 12,000 records in one statement: the volume is what this test is about.
    await t.db.execute(sql`
      insert into attendance_records (student_id, schedule_id, session_date, status, source)
      select st.id, sc.id, date '2001-01-01' + n, 'present', 'qr'
        from generate_series(1, 12000) n, students st, schedules sc
       where st.sis_student_id = 'SIS-STU-260003' and sc.sis_schedule_id = 'SIS-SCH-MA110-C4'`);
    const seen: string[] = [];
    for await (const r of attendanceRows(t.db, { startDate: '2001-01-01', endDate: '2001-02-15' }, 7)) seen.push(String(r.sessionDate));
    expect(seen).toHaveLength(45);
    expect(new Set(seen).size).toBe(45);
    const all = await exportCsv();
    expect(all.body.trim().split('\n')).toHaveLength(12_000 + 3 + 1);
  });
});

describe('SIS sync status', () => {
  it('counts pending, synced, failed and manual per table from the database', async () => {
    const res = await t.app.inject({ url: '/api/sis/status', headers: { cookie: admin } });
    expect(res.statusCode).toBe(200);
    const byTable = Object.fromEntries(res.json().tables.map((x: { table: string }) => [x.table, x]));
    expect(byTable.programs).toMatchObject({ pending: 1, synced: 2, failed: 0, manual: 0, total: 3, lastSyncDate: '2026-11-02T09:00:00.000Z' });
    expect(byTable.students).toMatchObject({ pending: 4, total: 4 });
    expect(byTable.instructors).toMatchObject({ pending: 3, total: 3 });
    expect(byTable.attendance).toMatchObject({ pending: 12_001, synced: 1, manual: 1, total: 12_003, lastSyncDate: null });
    expect(res.json()).toEqual(JSON.parse(JSON.stringify(await sisStatus(t.db))));
    expect(res.json().totals.total).toBe(3 + 4 + 3 + 4 + 4 + 12_003);
  });
});
