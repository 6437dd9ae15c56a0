import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { courses, programPolicies, programs, scheduleRosters, schedules, students } from '../../db/schema/index.ts';
import { createTestApp, fixedClock, type TestApp } from '../../test/helpers.ts';

/*
 * "Make-up owed" used to list every student for minutes of lateness, with "14 days"
 * where a date belongs. Chicago; classes Mon–Fri 08:00–14:00 from Mon 4 May 2026; today is Friday
 * 22 May; the make-up deadline is 14 days, so missed time up to Fri 8 May is owed by now.
 *   Lia came 5 minutes late every day of the first week: 25 minutes, under the 30-minute threshold.
 *   Max missed Monday 4 May (360 minutes): owed, to be made up by 18 May.
 */

const clock = fixedClock('2026-05-22T20:00:00Z');
let t: TestApp;
let admin: string;
let programId: number;
const ids: Record<'lia' | 'max', number> = { lia: 0, max: 0 };

beforeAll(async () => {
  t = await createTestApp({ clock });
  admin = (await t.signedIn('super_admin')).cookie;
  await t.app.inject({ method: 'PUT', url: '/api/settings', headers: { cookie: admin }, payload: { attendance: { timeZone: 'America/Chicago' } } });
  const instructor = await t.signedIn('instructor');
  [{ id: programId }] = (await t.db.insert(programs).values({ programName: 'Esthetics', durationHours: '600' }).returning({ id: programs.id })) as [
    { id: number },
  ];
  await t.db.insert(programPolicies).values({ programId, programWeeks: '30' });
  const [{ id: courseId }] = (await t.db
    .insert(courses)
    .values({ courseCode: 'EST-1', courseName: 'Esthetics I', programId, clockHours: '600' })
    .returning({ id: courses.id })) as [{ id: number }];
  const scheduleIds: number[] = [];
  for (const dayOfWeek of [1, 2, 3, 4, 5]) {
    const [{ id }] = (await t.db
      .insert(schedules)
      .values({
        courseId,
        instructorId: instructor.userId,
        cohortNumber: 1,
        termNumber: 1,
        dayOfWeek,
        startTime: '08:00',
        endTime: '14:00',
        courseStartDate: '2026-05-04',
        courseEndDate: '2026-12-18',
      })
      .returning({ id: schedules.id })) as [{ id: number }];
    scheduleIds.push(id);
  }
  for (const key of ['lia', 'max'] as const) {
    const [{ id }] = (await t.db
      .insert(students)
      .values({ firstName: key, lastName: 'Owed', sisStudentId: `MU-${key}`, programId, enrollmentDate: '2026-05-04' })
      .returning({ id: students.id })) as [{ id: number }];
    ids[key] = id;
    await t.db.insert(scheduleRosters).values(scheduleIds.map((scheduleId) => ({ scheduleId, studentId: id })));
  }
  // Lia: in at 08:05 (13:05Z, CDT), out at 14:00 every class day; Max: present every day but Monday 4 May.
  await t.db.execute(sql`
    insert into attendance_records (student_id, schedule_id, session_date, status, source, scan_in_time, scan_out_time, minutes_attended, scheduled_minutes)
    select ${ids.lia}, s.id, d::date, 'present', 'qr', d::date + time '13:05', d::date + time '19:00', 355, 360
      from schedules s cross join generate_series('2026-05-04'::date, '2026-05-22'::date, interval '1 day') d
     where s.id = any(${`{${scheduleIds.join(',')}}`}::int[]) and extract(dow from d) = s.day_of_week`);
  await t.db.execute(sql`
    insert into attendance_records (student_id, schedule_id, session_date, status, source, is_manual_override, override_reason, minutes_attended, scheduled_minutes)
    select ${ids.max}, s.id, d::date, 'present', 'manual', true, 'Paper sheet', 360, 360
      from schedules s cross join generate_series('2026-05-05'::date, '2026-05-22'::date, interval '1 day') d
     where s.id = any(${`{${scheduleIds.join(',')}}`}::int[]) and extract(dow from d) = s.day_of_week`);
});
afterAll(() => t?.close());

const owed = async () =>
  (await t.app.inject({ url: '/api/compliance/overview', headers: { cookie: admin } })).json().makeUpOwed as {
    studentId: number;
    owedMinutes: number;
    oldestMissedOn: string;
    dueBy: string;
  }[];

describe('make-up owed', () => {
  it('lists only students owing at least the threshold, with the date the oldest missed time was due', async () => {
    expect(await owed()).toEqual([
      expect.objectContaining({ studentId: ids.max, owedMinutes: 360, oldestMissedOn: '2026-05-04', makeUpDeadlineDays: 14, dueBy: '2026-05-18' }),
    ]);
  });

  it("follows the program's threshold", async () => {
    const policy = (await t.app.inject({ url: `/api/programs/${programId}/policy`, headers: { cookie: admin } })).json();
    const res = await t.app.inject({
      method: 'PUT',
      url: `/api/programs/${programId}/policy`,
      headers: { cookie: admin },
      payload: { programWeeks: policy.programWeeks, makeUpThresholdMinutes: 10 },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect((await owed()).map((r) => [r.studentId, r.owedMinutes])).toEqual([
      [ids.lia, 25],
      [ids.max, 360],
    ]);
    const bad = await t.app.inject({
      method: 'PUT',
      url: `/api/programs/${programId}/policy`,
      headers: { cookie: admin },
      payload: { makeUpThresholdMinutes: 601 },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors[0].field).toBe('makeUpThresholdMinutes');
  });
});
