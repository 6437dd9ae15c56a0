import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildAttendanceRecord,
  buildCourse,
  buildProgram,
  buildProgramPolicy,
  buildRosterEntry,
  buildSchedule,
  buildStudent,
  paperSheet,
} from '../../test/factories.ts';
import { auditEntries, createTestApp, fixedClock, multipart, type TestApp } from '../../test/helpers.ts';

/*
 * Decision 041: a school that adopts Muster in the middle of its students' programs. Chicago;
 * today is Thursday 26 Nov 2026, 18:00, the first day Muster keeps attendance (Settings ›
 * Attendance › Keep attendance from). Classes Mon–Fri 08:00–14:00 (360 min) since Mon 24 Aug.
 * A 900-hour, 36-week program: two payment periods of 450 h / 18 weeks.
 *   Ana: enrolled 24 Aug, opening balance 390 h scheduled, 370 h credited; attended today in full.
 *   Ben: enrolled 24 Aug, no opening balance yet, absent today (the issue's "overdue – never attended – 95 days").
 *   Cy: enrolled 24 Aug, opening balance with his last date of attendance 6 Nov; absent today.
 */

const clock = fixedClock('2026-11-27T00:00:00Z'); // Thursday 26 Nov, 18:00 in Chicago
let t: TestApp;
let admin: string;
let support: string;
const ids: Record<'ana' | 'ben' | 'cy', number> = { ana: 0, ben: 0, cy: 0 };

beforeAll(async () => {
  t = await createTestApp({ clock });
  admin = (await t.signedIn('super_admin')).cookie;
  support = (await t.signedIn('support_staff')).cookie;
  const settings = await t.app.inject({
    method: 'PUT',
    url: '/api/settings',
    headers: { cookie: admin },
    payload: { attendance: { timeZone: 'America/Chicago', recordsStartDate: '2026-11-26' } },
  });
  expect(settings.statusCode, settings.body).toBe(200);
  const instructor = await t.signedIn('instructor');
  const programId = (await buildProgram(t.db, { programName: 'Practical Nursing', durationHours: '900' })).id;
  await buildProgramPolicy(t.db, { programId, programHours: '900', programWeeks: '36' });
  const courseId = (await buildCourse(t.db, { courseCode: 'PN-1', courseName: 'Nursing I', programId, clockHours: '900' })).id;
  const scheduleIds: number[] = [];
  for (const dayOfWeek of [1, 2, 3, 4, 5]) {
    const schedule = await buildSchedule(t.db, {
      courseId,
      instructorId: instructor.userId,
      dayOfWeek,
      startTime: '08:00',
      endTime: '14:00',
      courseStartDate: '2026-08-24',
      courseEndDate: '2027-06-30',
    });
    scheduleIds.push(schedule.id);
  }
  for (const key of ['ana', 'ben', 'cy'] as const) {
    const { id } = await buildStudent(t.db, { firstName: key, lastName: 'Midyear', sisStudentId: `MY-${key}`, programId, enrollmentDate: '2026-08-24' });
    ids[key] = id;
    for (const scheduleId of scheduleIds) await buildRosterEntry(t.db, { scheduleId, studentId: id });
  }
  await buildAttendanceRecord(t.db, {
    studentId: ids.ana,
    scheduleId: scheduleIds[3],
    sessionDate: '2026-11-26',
    status: 'present',
    ...paperSheet,
    minutesAttended: 360,
    scheduledMinutes: 360,
  });
});
afterAll(() => t?.close());

const put = (id: number, payload: unknown, cookie = admin) =>
  t.app.inject({ method: 'PUT', url: `/api/students/${id}/opening-balance`, headers: { cookie }, payload: payload as Record<string, unknown> });
const hoursOf = async (id: number) =>
  (await t.app.inject({ url: `/api/students/${id}/hours?from=2026-11-01&to=2026-11-26`, headers: { cookie: admin } })).json();

describe('a school that starts mid-year', () => {
  it('takes an opening balance from administrators, defaulting its date to the records start, audited', async () => {
    expect((await put(ids.ana, { scheduledHours: 390, creditedHours: 370, note: 'From the old SIS' }, support)).statusCode).toBe(403);
    const res = await put(ids.ana, { scheduledHours: 390, creditedHours: 370, note: 'From the old SIS, signed off by the registrar' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      studentId: ids.ana,
      beforeDate: '2026-11-26',
      scheduledHours: 390,
      creditedHours: 370,
      periods: null,
      enteredByName: expect.any(String),
    });
    const cy = await put(ids.cy, {
      scheduledHours: 378,
      creditedHours: 300,
      lastDateOfAttendance: '2026-11-06',
      periods: [{ number: 1, creditedHours: 300 }],
      note: 'Old SIS',
    });
    expect(cy.statusCode, cy.body).toBe(200);
    expect((await auditEntries(t.db, 'student_opening_balances')).map((e) => [e.action, e.new_values?.creditedHours])).toEqual([
      ['Create', 370],
      ['Create', 300],
    ]);
    // Everyone may read it who may read the student's hours.
    expect((await t.app.inject({ url: `/api/students/${ids.ana}/opening-balance`, headers: { cookie: support } })).json()).toMatchObject({
      creditedHours: 370,
    });
    expect((await t.app.inject({ url: `/api/students/${ids.ben}/opening-balance`, headers: { cookie: admin } })).statusCode).toBe(404);
  });

  it('refuses a balance that does not add up, or that is dated after the last attendance it names', async () => {
    const bad = await put(ids.ben, { scheduledHours: 390, creditedHours: 370, periods: [{ number: 1, creditedHours: 300 }], note: 'x' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors[0].field).toBe('periods');
    const late = await put(ids.ben, { scheduledHours: 390, creditedHours: 370, lastDateOfAttendance: '2026-11-27', note: 'x' });
    expect(late.statusCode).toBe(400);
    expect(late.json().errors[0].field).toBe('lastDateOfAttendance');
    const noPeriod = await put(ids.ben, { scheduledHours: 390, creditedHours: 370, periods: [{ number: 3, creditedHours: 370 }], note: 'x' });
    expect(noPeriod.statusCode).toBe(400);
    expect(noPeriod.json().errors[0]).toMatchObject({ field: 'periods', message: expect.stringMatching(/2 payment periods/) });
    expect((await t.app.inject({ url: `/api/students/${ids.ben}/opening-balance`, headers: { cookie: admin } })).statusCode).toBe(404);
  });

  it('starts the ledger from the balance: nothing before the records start is an absence', async () => {
    const ana = await hoursOf(ids.ana);
    expect(ana.totals).toMatchObject({
      scheduledMinutes: 390 * 60 + 360,
      creditedMinutes: 370 * 60 + 360,
      attendedMinutes: 360,
      openingCreditedMinutes: 370 * 60,
    });
    expect(ana.days.map((d: { date: string }) => d.date)).toEqual(['2026-11-26']);
    expect(ana.paymentPeriods[0]).toMatchObject({ creditedMinutes: 370 * 60 + 360, status: 'in_progress' });
    expect(ana.attendancePercent).toBe(94.9); // (370 h + 6 h) ÷ (390 h + 6 h)
    // Ben has no balance yet: his hours start today, and the days before are not absences.
    const ben = await hoursOf(ids.ben);
    expect(ben.totals).toMatchObject({ scheduledMinutes: 360, creditedMinutes: 0 });
    expect(ben.days).toHaveLength(1);
  });

  it('keeps a student who has not yet had a chance to attend off the withdrawal watch and make-up owed', async () => {
    const watch = (await t.app.inject({ url: '/api/compliance/withdrawal-watch', headers: { cookie: admin } })).json() as {
      studentId: number;
      state: string;
      daysWithoutAttendance: number;
    }[];
    expect(watch.find((w) => w.studentId === ids.ben)).toBeUndefined();
    // Cy's balance says he last attended on 6 Nov: 20 days without attendance, overdue.
    expect(watch.find((w) => w.studentId === ids.cy)).toMatchObject({ state: 'overdue', daysWithoutAttendance: 20 });
    const overview = (await t.app.inject({ url: '/api/compliance/overview', headers: { cookie: admin } })).json();
    expect(overview.makeUpOwed).toEqual([]);
    expect(overview.counts).toMatchObject({ overdue: 1 });
  });

  it('reports the month from the records start, with the balance in the cumulative hours', async () => {
    const csv = (await t.app.inject({ url: '/api/reports/monthly-hours?month=2026-11', headers: { cookie: admin } })).body;
    const ana = csv.split('\n').find((l) => l.includes('ana,Midyear'))!;
    // scheduled 6, attended 6, make-up 0, credited 6, cumulative 376 (370 + 6).
    expect(ana).toContain(',2026-11,6,6,0,6,376,');
  });

  it('removes a balance with a reason kept in the audit log', async () => {
    const res = await t.app.inject({
      method: 'DELETE',
      url: `/api/students/${ids.cy}/opening-balance`,
      headers: { cookie: admin },
      payload: { reason: 'Entered for the wrong student' },
    });
    expect(res.statusCode).toBe(204);
    expect((await auditEntries(t.db, 'student_opening_balances')).at(-1)).toMatchObject({
      action: 'Delete',
      old_values: { creditedHours: 300, reason: 'Entered for the wrong student' },
    });
  });

  it('imports balances from a file, all or nothing, naming each bad row and column', async () => {
    const send = (content: string, query = '') => {
      const body = multipart('balances.csv', content);
      return t.app.inject({
        method: 'POST',
        url: `/api/students/opening-balances/import${query}`,
        headers: { cookie: admin, ...body.headers },
        payload: body.payload,
      });
    };
    const header = 'sisStudentId,scheduledHours,creditedHours,lastDateOfAttendance,note';
    const bad = await send(`${header}\nMY-ben,390,380,,Old SIS\nMY-nobody,10,10,,Old SIS\nMY-cy,abc,10,,Old SIS\nMY-ana,100,90,2026-11-30,Old SIS\n`);
    expect(bad.statusCode, bad.body).toBe(400);
    expect(bad.json().errors.map((e: { row: number; column: string }) => [e.row, e.column])).toEqual([
      [3, 'sisStudentId'],
      [4, 'scheduledHours'],
      [5, 'lastDateOfAttendance'],
    ]);
    expect((await t.app.inject({ url: `/api/students/${ids.ben}/opening-balance`, headers: { cookie: admin } })).statusCode).toBe(404);
    const dry = await send(`${header}\nMY-ben,390,380,,Old SIS\nMY-ana,396,376,,Old SIS corrected\n`, '?dryRun=true');
    expect(dry.json()).toEqual({ rows: 2, created: 1, updated: 1, dryRun: true });
    expect((await t.app.inject({ url: `/api/students/${ids.ben}/opening-balance`, headers: { cookie: admin } })).statusCode).toBe(404);
    const ok = await send(`${header}\nMY-ben,390,380,,Old SIS\nMY-ana,396,376,,Old SIS corrected\n`);
    expect(ok.json()).toEqual({ rows: 2, created: 1, updated: 1, dryRun: false });
    expect((await t.app.inject({ url: `/api/students/${ids.ben}/opening-balance`, headers: { cookie: admin } })).json()).toMatchObject({
      beforeDate: '2026-11-26',
      creditedHours: 380,
    });
    expect((await auditEntries(t.db, 'student_opening_balances')).at(-1)).toMatchObject({
      action: 'Update',
      old_values: { creditedHours: 370 },
      new_values: { creditedHours: 376 },
    });
    const refused = multipart('balances.csv', `${header}\nMY-ben,1,1,,x\n`);
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/api/students/opening-balances/import',
          headers: { cookie: support, ...refused.headers },
          payload: refused.payload,
        })
      ).statusCode,
    ).toBe(403);
  });

  it("a program's own records start date wins over the school's", async () => {
    const programId = (await t.app.inject({ url: `/api/students/${ids.ben}`, headers: { cookie: admin } })).json().programId as number;
    const policy = (await t.app.inject({ url: `/api/programs/${programId}/policy`, headers: { cookie: admin } })).json();
    const res = await t.app.inject({
      method: 'PUT',
      url: `/api/programs/${programId}/policy`,
      headers: { cookie: admin },
      payload: { programWeeks: policy.programWeeks, recordsStartDate: '2026-11-23' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().recordsStartDate).toBe('2026-11-23');
    // Cy has no balance any more: his hours start on the program's date, Monday 23 Nov. Nobody took
    // attendance on Monday to Wednesday: those meetings are for review, not absences; Thursday's is.
    const cy = await hoursOf(ids.cy);
    expect(cy.days[0].date).toBe('2026-11-23');
    expect(cy.days.map((d: { unrecordedMinutes: number }) => d.unrecordedMinutes)).toEqual([360, 360, 360, 0]);
    expect(cy.totals).toMatchObject({ scheduledMinutes: 360, creditedMinutes: 0 });
    // A balance entered now takes the program's date.
    const b = await put(ids.cy, { scheduledHours: 378, creditedHours: 300, note: 'Old SIS' });
    expect(b.json().beforeDate).toBe('2026-11-23');
  });
});
