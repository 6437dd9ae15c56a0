import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { qrSessions, students } from '../../db/schema/index.ts';
import {
  buildAttendanceRecords,
  buildClosure,
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
import { tokenAt } from '../qr-sessions/tokens.ts';

/*
 * A hand-computed school for the withdrawal watch (decision 016). Chicago; classes Mon–Fri 08:00–14:00
 * (360 min) from Monday 2 March 2026; today is Friday 22 May 2026. Program P (600 h, 30 weeks: two
 * payment periods of 300 h / 15 weeks); program Q has its own closure Mon 11 – Sun 17 May (7 days).
 *   S1 (P) attended every class day through Thu 7 May except 16–20 March → LDA 7 May, 15 days ago: overdue.
 *   S2 (Q) attended through Tue 5 May → 17 calendar days, 7 of them the closure: 10 days, watch.
 *   S3 (P) attended through Fri 1 May, on leave 4 May – 30 June → not listed.
 *   S4 (P) attended through Fri 3 April, on leave 6 April – 7 May, not back → 49 days − 32 leave = 17: overdue (due by 17 April).
 *   S5 (P) enrolled Mon 11 May, never came → counted from 11 May: 12 days, watch, due by 25 May.
 *   S6 (P) attends every day → not listed.
 */

const clock = fixedClock('2026-05-22T17:00:00Z');
let t: TestApp;
let admin: string;
let instructor: { cookie: string; userId: number };
let support: string;
const ids: Record<string, number> = {};
let programP: number;
let fridaySchedule: number;

const scheduleIds: number[] = [];

async function addStudent(key: string, programId: number, enrollmentDate = '2026-03-02') {
  const { id } = await buildStudent(t.db, { firstName: key, lastName: `Student${key}`, sisStudentId: `SIS-${key}`, programId, enrollmentDate });
  ids[key] = id;
  return id;
}

/** Present records (manual, whole class) on every class day of the student's rosters (the five schedules) from..to, but the skipped days. */
async function attend(studentId: number, from: string, to: string, skip: string[] = []) {
  const meetings = (await meetingDates(t.db, scheduleIds, from, to)).filter((m) => !skip.includes(m.sessionDate));
  await buildAttendanceRecords(
    t.db,
    meetings.map((m) => ({ ...m, studentId, status: 'present', ...paperSheet, minutesAttended: 360, scheduledMinutes: 360 })),
  );
}

beforeAll(async () => {
  t = await createTestApp({ clock });
  const sa = (await t.signedIn('super_admin')).cookie;
  await t.app.inject({ method: 'PUT', url: '/api/settings', headers: { cookie: sa }, payload: { attendance: { timeZone: 'America/Chicago' } } });
  admin = (await t.signedIn('it_admin')).cookie;
  instructor = await t.signedIn('instructor');
  support = (await t.signedIn('support_staff')).cookie;
  programP = (await buildProgram(t.db, { programName: 'Practical Nursing' })).id;
  const programQ = (await buildProgram(t.db, { programName: 'Barbering' })).id;
  for (const programId of [programP, programQ]) await buildProgramPolicy(t.db, { programId, programHours: '600', programWeeks: '30' });
  await buildClosure(t.db, { startDate: '2026-05-11', endDate: '2026-05-17', name: 'Barbering expo week', programId: programQ });
  const courseId = (await buildCourse(t.db, { courseCode: 'PN-100', courseName: 'Nursing I', programId: programP, clockHours: '150' })).id;
  for (const dayOfWeek of [1, 2, 3, 4, 5]) {
    const schedule = await buildSchedule(t.db, {
      courseId,
      instructorId: instructor.userId,
      dayOfWeek,
      startTime: '08:00',
      endTime: '14:00',
      courseStartDate: '2026-03-02',
      courseEndDate: '2026-08-28',
    });
    scheduleIds.push(schedule.id);
  }
  fridaySchedule = scheduleIds[4]!;
  for (const [key, program, enrolled] of [
    ['S1', programP],
    ['S2', programQ],
    ['S3', programP],
    ['S4', programP],
    ['S5', programP, '2026-05-11'],
    ['S6', programP],
    ['S7', programP],
  ] as const) {
    const studentId = await addStudent(key, program, enrolled);
    for (const scheduleId of scheduleIds) await buildRosterEntry(t.db, { scheduleId, studentId });
  }
  await attend(ids.S1!, '2026-03-02', '2026-05-07', ['2026-03-16', '2026-03-17', '2026-03-18', '2026-03-19', '2026-03-20']);
  await attend(ids.S2!, '2026-03-02', '2026-05-05');
  await attend(ids.S3!, '2026-03-02', '2026-05-01');
  await attend(ids.S4!, '2026-03-02', '2026-04-03');
  await attend(ids.S6!, '2026-03-02', '2026-05-21');
  await attend(ids.S7!, '2026-03-02', '2026-05-21');
});
afterAll(() => t?.close());

const post = (url: string, payload: unknown, cookie = admin) =>
  t.app.inject({ method: 'POST', url, headers: { cookie }, payload: payload as Record<string, unknown> });
const get = (url: string, cookie = admin) => t.app.inject({ url, headers: { cookie } });

describe('leaves of absence', () => {
  it('records leaves through the API; the one covering today makes the student loa', async () => {
    const s3 = await post(`/api/students/${ids.S3}/leaves`, { startDate: '2026-05-04', endDate: '2026-06-30', reason: 'Medical' });
    expect(s3.statusCode).toBe(201);
    expect(s3.json()).toMatchObject({ days: 58 });
    const s4 = await post(`/api/students/${ids.S4}/leaves`, { startDate: '2026-04-06', endDate: '2026-05-20', reason: 'Family' });
    expect(s4.statusCode).toBe(201);
    const [row] = await t.db.select({ status: students.status }).from(students).where(eq(students.id, ids.S3!));
    expect(row!.status).toBe('loa');
    // S4 came back early... on paper: the leave is ended on 7 May (PUT), and the status is given back.
    const ended = await t.app.inject({
      method: 'PUT',
      url: `/api/students/${ids.S4}/leaves/${s4.json().id}`,
      headers: { cookie: admin },
      payload: { endDate: '2026-05-07' },
    });
    expect(ended.statusCode).toBe(200);
    expect(ended.json()).toMatchObject({ endDate: '2026-05-07', days: 32 });
    const [s4row] = await t.db.select({ status: students.status }).from(students).where(eq(students.id, ids.S4!));
    expect(s4row!.status).toBe('enrolled');
  });

  it('refuses a third leave that would make 181 days in 12 months, saying how many are used', async () => {
    expect((await post(`/api/students/${ids.S7}/leaves`, { startDate: '2026-01-05', endDate: '2026-03-05', reason: 'Medical' })).statusCode).toBe(201); // 60 days
    expect((await post(`/api/students/${ids.S7}/leaves`, { startDate: '2026-06-01', endDate: '2026-07-30', reason: 'Medical' })).statusCode).toBe(201); // 60 days
    const third = await post(`/api/students/${ids.S7}/leaves`, { startDate: '2026-08-01', endDate: '2026-09-30', reason: 'Medical' }); // 61 days
    expect(third.statusCode).toBe(400);
    expect(third.json().errors[0]).toMatchObject({ field: 'endDate' });
    expect(third.json().message).toContain('120 days are already used');
    expect(third.json().message).toContain('would make 181');
    // 60 days fit exactly: 180.
    expect((await post(`/api/students/${ids.S7}/leaves`, { startDate: '2026-08-01', endDate: '2026-09-29', reason: 'Medical' })).statusCode).toBe(201);
    expect((await get(`/api/students/${ids.S7}/leaves`)).json()).toHaveLength(3);
  });

  it('refuses overlapping leaves, bad dates, and non-administrators', async () => {
    expect((await post(`/api/students/${ids.S3}/leaves`, { startDate: '2026-06-01', endDate: '2026-06-05', reason: 'x' })).json().errors[0].field).toBe(
      'startDate',
    );
    expect((await post(`/api/students/${ids.S6}/leaves`, { startDate: '2026-06-05', endDate: '2026-06-01', reason: 'x' })).json().errors[0].field).toBe(
      'endDate',
    );
    expect((await post(`/api/students/${ids.S6}/leaves`, { startDate: '2026-06-01', endDate: '2026-06-05', reason: 'x' }, support)).statusCode).toBe(403);
    expect((await post(`/api/students/${ids.S6}/leaves`, { startDate: '2026-06-01', endDate: '2026-06-05', reason: 'x' }, instructor.cookie)).statusCode).toBe(
      403,
    );
  });

  it('takes leave days out of the scheduled days and pushes the expected end out', async () => {
    const h = (await get(`/api/students/${ids.S4}/hours?from=2026-04-06&to=2026-04-10`)).json();
    expect(h.days.map((d: { scheduledMinutes: number; onLeave: boolean }) => [d.scheduledMinutes, d.onLeave])).toEqual(Array(5).fill([0, true]));
    // 2 March + 30 weeks − 1 day = 27 September, plus 32 leave days.
    expect(h.expectedEndDate).toBe('2026-10-29');
  });
});

describe('the withdrawal watch', () => {
  it('lists each student as computed by hand, most urgent first', async () => {
    const res = await get('/api/compliance/withdrawal-watch');
    expect(res.statusCode).toBe(200);
    const rows = res.json().map((r: Record<string, unknown>) => [r.firstName, r.lastDateOfAttendance, r.daysWithoutAttendance, r.determinationDueBy, r.state]);
    expect(rows).toEqual([
      ['S4', '2026-04-03', 17, '2026-04-17', 'overdue'],
      ['S1', '2026-05-07', 15, '2026-05-21', 'overdue'],
      ['S5', null, 12, '2026-05-25', 'watch'],
      ['S2', '2026-05-05', 10, '2026-05-19', 'watch'],
    ]);
  });

  it('answers as it stood on an earlier date, and only to administrators and support staff', async () => {
    const rows = (await get('/api/compliance/withdrawal-watch?asOf=2026-05-15')).json();
    expect(rows.find((r: { firstName: string }) => r.firstName === 'S1')).toMatchObject({ daysWithoutAttendance: 8, state: 'watch' });
    expect((await get('/api/compliance/withdrawal-watch', support)).statusCode).toBe(200);
    expect((await get('/api/compliance/withdrawal-watch', instructor.cookie)).statusCode).toBe(403);
  });
});

describe('withdrawal', () => {
  it('records a withdrawal at the LDA with the refund inputs computed by hand', async () => {
    // Period 1 = 300 h. From 2 March to 7 May: 49 class days × 6 h = 294 h scheduled; 5 missed: 264 h credited.
    const res = await post(`/api/students/${ids.S1}/withdrawal`, { reason: 'No contact after repeated calls' });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({
      studentId: ids.S1,
      status: 'withdrawn',
      withdrawalDate: '2026-05-07',
      determinationDate: '2026-05-22',
      lastDateOfAttendance: '2026-05-07',
      reason: 'No contact after repeated calls',
      paymentPeriod: 1,
      periodHours: 300,
      scheduledHoursInPeriodToWithdrawal: 294,
      percentOfPeriodScheduled: 98,
      creditedHoursInPeriod: 264,
    });
    expect((await post(`/api/students/${ids.S1}/withdrawal`, { reason: 'again' })).statusCode).toBe(409);
    expect((await get('/api/compliance/withdrawal-watch')).json().map((r: { firstName: string }) => r.firstName)).not.toContain('S1');
    const h = (await get(`/api/students/${ids.S1}/hours?from=2026-05-18&to=2026-05-22`)).json();
    expect(h.lastDateOfAttendance).toBe('2026-05-07');
    expect((await get(`/api/students/${ids.S1}`)).json().lastDateOfAttendance).toBe('2026-05-07');
    expect((await get(`/api/students/${ids.S6}`)).json().lastDateOfAttendance).toBe('2026-05-21');
    expect(h.days.every((d: { scheduledMinutes: number }) => d.scheduledMinutes === 0)).toBe(true);
  });

  it('refuses attendance after the withdrawal: 409 for staff, the usual no-match for a scan', async () => {
    const late = await post('/api/attendance', {
      scheduleId: fridaySchedule,
      studentId: ids.S1,
      sessionDate: '2026-05-22',
      status: 'present',
      overrideReason: 'Came in',
    });
    expect(late.statusCode).toBe(409);
    const before = { scheduleId: fridaySchedule, studentId: ids.S1, sessionDate: '2026-03-20', status: 'present', overrideReason: 'Found the paper sheet' };
    expect((await post('/api/attendance', before, instructor.cookie)).statusCode).toBe(403);
    expect((await post('/api/attendance', before)).statusCode).toBe(201);

    const started = await post('/api/qr-sessions', { scheduleId: fridaySchedule }, instructor.cookie);
    expect(started.statusCode).toBe(201);
    const sessionId = started.json().sessionId as string;
    const [{ secret }] = (await t.db.select({ secret: qrSessions.tokenSecret }).from(qrSessions).where(eq(qrSessions.sessionId, sessionId))) as [
      { secret: Buffer },
    ];
    const opened = await t.app.inject({ url: `/api/qr-sessions/public/${sessionId}?t=${tokenAt(secret, sessionId, clock.now()).token}` });
    const device = opened.cookies.find((c) => c.name === 'muster_device')?.value;
    const scan = (first: string, sis: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/attendance/submit',
        cookies: device ? { muster_device: device } : {},
        payload: { sessionId, studentId: sis, firstName: first, lastName: `Student${first}`, email: `${first}@x.edu`, pass: opened.json().pass },
      });
    const refused = await scan('S1', 'SIS-S1');
    const unknown = await scan('Nobody', 'SIS-NOBODY');
    expect(refused.statusCode).toBe(unknown.statusCode);
    expect(refused.json().message).toBe(unknown.json().message);
  });

  it('reverses a withdrawal made by mistake, with a reason', async () => {
    const url = `/api/students/${ids.S1}/withdrawal`;
    expect((await t.app.inject({ method: 'DELETE', url, headers: { cookie: admin } })).statusCode).toBe(400);
    expect((await t.app.inject({ method: 'DELETE', url, headers: { cookie: admin }, payload: { reason: 'Wrong student' } })).statusCode).toBe(204);
    const [row] = await t.db.select({ status: students.status }).from(students).where(eq(students.id, ids.S1!));
    expect(row!.status).toBe('enrolled');
    const { rows } = await t.db.execute<{ new_values: { reason: string } }>(
      sql`select new_values from audit_logs where table_name = 'student_withdrawals' and action = 'Delete'`,
    );
    expect(rows[0]!.new_values.reason).toBe('Wrong student');
  });
});

describe('reports', () => {
  it("gives the monthly hours with cumulative hours equal to the ledger's", async () => {
    const res = await get(`/api/reports/monthly-hours?month=2026-04&programId=${programP}`);
    expect(res.statusCode).toBe(200);
    const lines = res.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split(/\r?\n/);
    expect(lines[0]).toBe(
      'sisStudentId,firstName,lastName,programName,month,scheduledHours,attendedHours,makeUpHours,creditedHours,cumulativeCreditedHours,attendancePercent,status,lastDateOfAttendance,excusedCreditedHours,' +
        'rawHours,roundedHours,deductedHours,cappedHours,pendingExceptionHours,autoCheckOutHours',
    );
    const s6 = lines.find((l) => l.startsWith('SIS-S6'))!;
    const ledger = (await get(`/api/students/${ids.S6}/hours?asOf=2026-04-30`)).json();
    // April 2026 has 22 class days × 6 h = 132 h, all attended.
    // Paper-sheet records: no punch to round, deduct or cap (the time-clock columns, last).
    expect(s6).toBe(
      `SIS-S6,S6,StudentS6,Practical Nursing,2026-04,132,132,0,132,${ledger.totals.creditedMinutes / 60},100,enrolled,2026-04-30,0,132,132,0,0,0,0`,
    );
    expect(ledger.totals.creditedMinutes / 60).toBe(264); // March 22 class days + April 22 = 44 × 6 h
    expect((await get('/api/reports/monthly-hours?month=2026-13')).statusCode).toBe(400);
    const pdf = await get(`/api/reports/monthly-hours?month=2026-04&programId=${programP}&format=pdf`);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    expect((await get(`/api/reports/monthly-hours?month=2026-04`, instructor.cookie)).statusCode).toBe(403);
  });

  it('refuses a month outside the years a date may have (1900–2200) with a 400 naming month, never a 500', async () => {
    for (const month of ['0000-01', '1899-12', '2201-01', '9999-12']) {
      const res = await t.app.inject({ url: `/api/reports/monthly-hours?month=${month}`, headers: { cookie: admin, 'accept-encoding': 'gzip, br' } });
      expect(res.statusCode, month).toBe(400);
      // A small JSON error, sent as it is: no encoding header over a plain body, no file name.
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(res.headers['content-disposition']).toBeUndefined();
      expect(res.json()).toMatchObject({ code: 'VALIDATION', errors: [{ field: 'month', message: 'month must be between 1900-01 and 2200-12' }] });
    }
    for (const month of ['1900-01', '2200-12']) expect((await get(`/api/reports/monthly-hours?month=${month}`)).statusCode, month).toBe(200);
  });

  it('lists every SAP checkpoint per student', async () => {
    const res = await get(`/api/reports/sap?programId=${programP}`);
    expect(res.statusCode).toBe(200);
    const s6 = res.body.split(/\r?\n/).filter((l) => l.startsWith('SIS-S6'));
    // 300 h = 50 class days: 22 in March, 22 in April, then 1 and 4–8 May: reached on 8 May, at 100 %.
    expect(s6).toEqual([
      'SIS-S6,S6,StudentS6,Practical Nursing,2026-05-22,300,met,2026-05-08,100',
      'SIS-S6,S6,StudentS6,Practical Nursing,2026-05-22,600,pending,,',
    ]);
  });

  it('counts the compliance overview for the dashboard card', async () => {
    const o = (await get('/api/compliance/overview')).json();
    expect(o.counts).toMatchObject({ overdue: 2, watch: 2, due: 0 });
  });

  it("reads each student's records once for the overview, the watch's counts included", async () => {
    // Every statement the pool runs during the call, by its text.
    const pool = t.db.$client;
    const texts: string[] = [];
    const query = pool.query.bind(pool);
    pool.query = ((...args: Parameters<typeof pool.query>) => {
      const q = args[0] as string | { text: string };
      texts.push(typeof q === 'string' ? q : q.text);
      return query(...args);
    }) as typeof pool.query;
    try {
      expect((await get('/api/compliance/overview')).statusCode).toBe(200);
    } finally {
      pool.query = query;
    }
    // The ledger's read of the students' records (hours/queries.ts selectLedgerRecords).
    const recordReads = texts.filter((q) => /from "attendance_records"/.test(q) && /as "scanInMs"/.test(q));
    expect(recordReads).toHaveLength(1);
  });
});

describe('the attendance edit lock', () => {
  it('closes records older than the program’s attendanceEditLockDays to all but super_admin', async () => {
    const policy = await t.app.inject({
      method: 'PUT',
      url: `/api/programs/${programP}/policy`,
      headers: { cookie: admin },
      payload: { programHours: 600, programWeeks: 30, attendanceEditLockDays: 30 },
    });
    expect(policy.statusCode).toBe(200);
    expect(policy.json().attendanceEditLockDays).toBe(30);
    const { rows } = await t.db.execute<{ id: number; session_date: string }>(
      sql`select id, session_date::text from attendance_records where student_id = ${ids.S6} and session_date in ('2026-03-02', '2026-05-21') order by session_date`,
    );
    const change = (id: number, cookie: string) =>
      t.app.inject({
        method: 'PUT',
        url: `/api/attendance/${id}`,
        headers: { cookie },
        payload: { status: 'late', overrideReason: 'Arrived 09:10 per the sign-in sheet' },
      });
    const old = await change(rows[0]!.id, admin);
    expect(old.statusCode).toBe(403);
    expect(old.json().message).toContain('older than 30 days is locked');
    expect((await change(rows[1]!.id, admin)).statusCode).toBe(200); // yesterday: open
    const sa = (await t.signedIn('super_admin')).cookie;
    expect((await change(rows[0]!.id, sa)).statusCode).toBe(200);
  });
});
