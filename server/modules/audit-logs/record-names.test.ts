import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { fixedClock } from '../../lib/clock.ts';
import { buildAttendanceRecord, buildAuditEntry, buildCourse, buildProgram, buildSchedule, buildStudent } from '../../test/factories.ts';
import { createTestApp, type TestApp } from '../../test/helpers.ts';

/**
 * The Audit Logs page used to show record ids ("students 214") with nothing to say who or what
 * they were. Each entry carries the record's name (`recordName`), resolved for the page as a whole:
 * one statement per kind of record on the page, never one per entry.
 */
const clock = fixedClock('2026-05-10T12:00:00Z');
let t: TestApp;
let admin: string;
const id: Record<string, number> = {};

beforeAll(async () => {
  t = await createTestApp({ clock });
  admin = (await t.signedIn('super_admin', { firstName: 'Sue', lastName: 'Perry' })).cookie;
  id.program = (await buildProgram(t.db, { programName: 'Practical Nursing' })).id;
  id.course = (await buildCourse(t.db, { courseCode: 'NUR-101', courseName: 'Fundamentals', programId: id.program })).id;
  id.schedule = (
    await buildSchedule(t.db, { courseId: id.course, cohortNumber: 3, roomNumber: 'R1', courseStartDate: '2026-02-02', courseEndDate: '2026-06-30' })
  ).id;
  id.ana = (await buildStudent(t.db, { firstName: 'Ana', lastName: 'Lopez', programId: id.program })).id;
  id.record = (
    await buildAttendanceRecord(t.db, {
      studentId: id.ana,
      scheduleId: id.schedule,
      sessionDate: '2026-05-04',
      status: 'present',
      minutesAttended: 240,
      scheduledMinutes: 240,
      source: 'qr',
    })
  ).id;
  const entry = (tableName: string, recordId: number | string | null) =>
    buildAuditEntry(t.db, { action: 'Update', tableName, recordId: recordId == null ? null : String(recordId), newValues: { x: 1 } });
  await entry('students', id.ana);
  await entry('student_withdrawals', id.ana); // keyed by the student
  await entry('courses', id.course);
  await entry('schedules', id.schedule);
  await entry('attendance', id.record);
  await entry('programs', id.program);
  await entry('students', 999_999); // since deleted
  await entry('settings', null);
  // 40 more students, each with an entry: a full page of one kind.
  for (let i = 0; i < 40; i++) {
    const s = await buildStudent(t.db, { firstName: `First${i}`, lastName: 'Many', programId: null });
    await entry('students', s.id);
  }
});
afterAll(() => t.close());

type Entry = { tableName: string; recordId: string | null; recordName: string | null };
const page = async (q: string) => {
  const res = await t.app.inject({ url: `/api/audit-logs${q}`, headers: { cookie: admin } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as Entry[];
};

describe('audit entries name their records', () => {
  it('names students, courses, classes, attendance records and programs; nothing for a deleted record or a settings change', async () => {
    const entries = await page('?pageSize=200');
    const nameOf = (table: string, recordId: number | null) =>
      entries.find((e) => e.tableName === table && e.recordId === (recordId == null ? null : String(recordId)))?.recordName;
    expect(nameOf('students', id.ana!)).toBe('Ana Lopez');
    expect(nameOf('student_withdrawals', id.ana!)).toBe('Ana Lopez');
    expect(nameOf('courses', id.course!)).toBe('NUR-101 — Fundamentals');
    expect(nameOf('schedules', id.schedule!)).toBe('NUR-101 · cohort 3');
    expect(nameOf('attendance', id.record!)).toBe('Ana Lopez · NUR-101 · 2026-05-04');
    expect(nameOf('programs', id.program!)).toBe('Practical Nursing');
    expect(nameOf('students', 999_999)).toBeNull();
    expect(nameOf('settings', null)).toBeNull();
  });

  it('resolves the names of a page in one statement per kind of record, not one per entry', async () => {
    const execute = vi.spyOn(t.db, 'execute');
    try {
      const entries = await page('?table=students&pageSize=50');
      expect(entries.filter((e) => e.recordName?.endsWith(' Many'))).toHaveLength(40);
      const nameQueries = execute.mock.calls.filter(([q]) => JSON.stringify(q).includes(' as name'));
      expect(nameQueries).toHaveLength(1);
    } finally {
      execute.mockRestore();
    }
  });
});
