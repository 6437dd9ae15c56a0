import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildAttendanceRecords,
  buildCourse,
  buildProgram,
  buildProgramPolicy,
  buildRosterEntry,
  buildSchedule,
  buildStudent,
  meetingDates,
  paperSheet,
} from '../../test/factories.ts';
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
  programId = (await buildProgram(t.db, { programName: 'Esthetics', durationHours: '600' })).id;
  await buildProgramPolicy(t.db, { programId, programWeeks: '30' });
  const courseId = (await buildCourse(t.db, { courseCode: 'EST-1', courseName: 'Esthetics I', programId, clockHours: '600' })).id;
  const scheduleIds: number[] = [];
  for (const dayOfWeek of [1, 2, 3, 4, 5]) {
    const schedule = await buildSchedule(t.db, {
      courseId,
      instructorId: instructor.userId,
      dayOfWeek,
      startTime: '08:00',
      endTime: '14:00',
      courseStartDate: '2026-05-04',
      courseEndDate: '2026-12-18',
    });
    scheduleIds.push(schedule.id);
  }
  for (const key of ['lia', 'max'] as const) {
    const { id } = await buildStudent(t.db, { firstName: key, lastName: 'Owed', sisStudentId: `MU-${key}`, programId, enrollmentDate: '2026-05-04' });
    ids[key] = id;
    for (const scheduleId of scheduleIds) await buildRosterEntry(t.db, { scheduleId, studentId: id });
  }
  // Lia: in at 08:05 (13:05Z, CDT), out at 14:00 every class day; Max: present every day but Monday 4 May.
  await buildAttendanceRecords(
    t.db,
    (await meetingDates(t.db, scheduleIds, '2026-05-04', '2026-05-22')).map((m) => ({
      ...m,
      studentId: ids.lia,
      status: 'present',
      source: 'qr',
      scanInTime: new Date(`${m.sessionDate}T13:05:00Z`),
      scanOutTime: new Date(`${m.sessionDate}T19:00:00Z`),
      minutesAttended: 355,
      scheduledMinutes: 360,
    })),
  );
  await buildAttendanceRecords(
    t.db,
    (await meetingDates(t.db, scheduleIds, '2026-05-05', '2026-05-22')).map((m) => ({
      ...m,
      studentId: ids.max,
      status: 'present',
      ...paperSheet,
      minutesAttended: 360,
      scheduledMinutes: 360,
    })),
  );
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
