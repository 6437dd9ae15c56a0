import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, fixedClock, type TestApp } from '../../test/helpers.ts';
import { seedClass, type TestClass } from './test-support.ts';

// An instructor reviews and corrects a past meeting from Take Attendance's date picker (decision 031):
// the server's edit policy stands (a meeting of the class, the program's edit lock), and a refusal
// says why, for the screen to show.

const clock = fixedClock('2026-03-16T20:00:00Z'); // Monday 14:00 in Chicago
let t: TestApp;
let cls: TestClass;

beforeAll(async () => {
  t = await createTestApp({ clock });
  cls = await seedClass(t, 2);
  const programId = (
    await t.db.execute<{ program_id: number }>(sql`select c.program_id from schedules s join courses c on c.id = s.course_id where s.id = ${cls.scheduleId}`)
  ).rows[0]!.program_id;
  const policy = await t.app.inject({
    method: 'PUT',
    url: `/api/programs/${programId}/policy`,
    headers: { cookie: cls.admin },
    payload: { programHours: 600, programWeeks: 30, attendanceEditLockDays: 7 },
  });
  expect(policy.statusCode, policy.body).toBe(200);
});
afterAll(() => t.close());

const record = (sessionDate: string, studentId: number) =>
  t.app.inject({
    method: 'POST',
    url: '/api/attendance',
    headers: { cookie: cls.instructor.cookie },
    payload: { scheduleId: cls.scheduleId, studentId, sessionDate, status: 'present', overrideReason: 'Signed the paper sheet; the network was down' },
  });

describe('correcting a past meeting', () => {
  it('lets the instructor correct last week’s meeting, within the program’s edit lock', async () => {
    const res = await record('2026-03-09', cls.students[0]!.id);
    expect(res.statusCode, res.body).toBe(201);
    const rows = await cls.roster('2026-03-09');
    expect(rows.find((r) => r.studentId === cls.students[0]!.id)).toMatchObject({ status: 'present', isManualOverride: true, sessionDate: '2026-03-09' });
    const edit = await t.app.inject({
      method: 'PUT',
      url: `/api/attendance/${res.json().id}`,
      headers: { cookie: cls.instructor.cookie },
      payload: { status: 'late', overrideReason: 'Arrived after the break' },
    });
    expect(edit.statusCode).toBe(200);
  });

  it('refuses a meeting older than the lock, and a day the class did not meet, saying why', async () => {
    const old = await record('2026-03-02', cls.students[1]!.id);
    expect(old.statusCode).toBe(403);
    expect(old.json().message).toBe('Attendance older than 7 days is locked for this program; only a super admin can change it, with a reason');
    const offDay = await record('2026-03-10', cls.students[1]!.id);
    expect(offDay.statusCode).toBe(400);
    expect(offDay.json().message).toBe('The class meets on Mondays; 2026-03-10 is a Tuesday');
    expect(offDay.json().errors[0].field).toBe('sessionDate');
    const future = await record('2026-03-23', cls.students[1]!.id);
    expect(future.statusCode).toBe(400);
    // Nothing was written.
    expect((await cls.roster('2026-03-02')).every((r) => r.id == null)).toBe(true);
  });
});
