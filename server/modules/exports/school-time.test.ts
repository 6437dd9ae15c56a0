import { parse } from 'csv-parse/sync';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../lib/clock.ts';
import { buildAttendanceRecord, buildCourse, buildProgram, buildSchedule, buildStudent } from '../../test/factories.ts';
import { createTestApp, type TestApp } from '../../test/helpers.ts';

/**
 * Exports used to write UTC times ("2026-11-26T14:02:00.000Z" for a check-in at 8:02 in Chicago).
 * They write the school's time with its offset: the value reads as the school's clock and still
 * names one instant, and SPEC's column names stay as they are.
 */
const clock = fixedClock('2026-11-30T18:00:00Z');
let t: TestApp;
let admin: string;

beforeAll(async () => {
  t = await createTestApp({ clock });
  admin = (await t.signedIn('super_admin')).cookie;
  await t.db.execute(sql`update school_settings set time_zone = 'America/Chicago'`);
  const programId = (await buildProgram(t.db, { programName: 'Practical Nursing' })).id;
  const courseId = (await buildCourse(t.db, { courseCode: 'NUR-101', courseName: 'Fundamentals', programId })).id;
  const scheduleId = (
    await buildSchedule(t.db, {
      courseId,
      dayOfWeek: 4,
      startTime: '08:00',
      endTime: '11:00',
      roomNumber: 'R1',
      courseStartDate: '2026-08-24',
      courseEndDate: '2026-12-18',
    })
  ).id;
  const studentId = (await buildStudent(t.db, { firstName: 'Ana', lastName: 'Lopez', programId })).id;
  // 8:02 to 10:58 on Thursday 26 November (CST, UTC-6); and one in July (CDT, UTC-5).
  await buildAttendanceRecord(t.db, {
    studentId,
    scheduleId,
    sessionDate: '2026-11-26',
    status: 'present',
    scanInTime: new Date('2026-11-26T14:02:00Z'),
    scanOutTime: new Date('2026-11-26T16:58:00Z'),
    minutesAttended: 176,
    scheduledMinutes: 180,
    source: 'qr',
  });
  await buildAttendanceRecord(t.db, {
    studentId,
    scheduleId,
    sessionDate: '2026-07-02',
    status: 'present',
    scanInTime: new Date('2026-07-02T13:02:00Z'),
    scanOutTime: null,
    minutesAttended: 176,
    scheduledMinutes: 180,
    source: 'qr',
  });
});
afterAll(() => t.close());

const csvOf = async (url: string) => {
  const res = await t.app.inject({ url, headers: { cookie: admin } });
  expect(res.statusCode, res.body).toBe(200);
  return parse(res.body.replace(/^\uFEFF/, ''), { columns: true }) as Record<string, string>[];
};

describe("exports write the school's time, with its offset", () => {
  it('the attendance export: check-in and check-out as the school read them, in winter and in summer time', async () => {
    const rows = await csvOf('/api/export/attendance');
    expect(rows.find((r) => r.sessionDate === '2026-11-26')).toMatchObject({
      scanInTime: '2026-11-26T08:02:00-06:00',
      scanOutTime: '2026-11-26T10:58:00-06:00',
    });
    expect(rows.find((r) => r.sessionDate === '2026-07-02')).toMatchObject({ scanInTime: '2026-07-02T08:02:00-05:00', scanOutTime: '' });
    // Each value still names the same instant.
    expect(new Date(rows.find((r) => r.sessionDate === '2026-11-26')!.scanInTime!).toISOString()).toBe('2026-11-26T14:02:00.000Z');
  });

  it("the audit log export: each entry's time in the school's zone", async () => {
    const rows = await csvOf('/api/audit-logs/export');
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows) expect(r.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d-0[56]:00$/);
  });
});
