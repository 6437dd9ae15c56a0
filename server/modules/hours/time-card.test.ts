import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attendanceRecords, courses, programPolicies, programs, scheduleRosters, schedules, students } from '../../db/schema/index.ts';
import { auditEntries, createTestApp, fixedClock, sessionsRanFor, type TestApp } from '../../test/helpers.ts';
import { printable } from '../../lib/pdf-text.ts';
import { pdfPages, readPdf } from '../../test/pdf-reader.ts';
import { timeCardDays } from './time-card-days.ts';
import type { AttendanceStatus } from '../../../common/constants.ts';

/*
 * A small hand-computed school for the time card. Chicago; a 100-hour, 8-week program (two payment
 * periods of 50 h / 4 weeks, excused cap 300 min each). Classes Mon–Thu 08:00–12:00 (240 min) from
 * Monday 2026-03-02; today is Friday 10 April. Rosa Nguyễn enrolled 2026-03-02:
 *   3/2 present (paper sheet, no times) 240 · 3/3 excused, credited (cap 300 → 60 left)
 *   3/4 incomplete 08:20–11:30 = 190 · 3/5 present 07:55–12:00 = 240 (the class starts at 08:00)
 *   3/9 late 09:00–12:00, corrected to 08:00 → 240 · 3/10 excused: 60 credited, 180 over the cap
 *   3/11 absent · 3/12 nothing recorded · 3/13 (Fri) make-up 13:00–15:00 = 120
 * 1–13 March: scheduled 8 × 240 = 1920 (32:00), attended 910 (15:10), excused 480 of which 300
 * credited (5:00) and 180 not (3:00), make-up 120 (2:00), credited 1330 (22:10), 69.3 %.
 * Period 1 needs 3000: 1670 min = 27.83 h remaining; its 4 weeks end 2026-03-29.
 */

const clock = fixedClock('2026-04-10T17:00:00Z');
let t: TestApp;
let admin: string;
let instructor: { cookie: string; userId: number };
let otherInstructor: string;
let studentId: number;
let longStudentId: number;
let offRosterStudentId: number;

beforeAll(async () => {
  t = await createTestApp({ clock });
  const sa = (await t.signedIn('super_admin')).cookie;
  await t.app.inject({
    method: 'PUT',
    url: '/api/settings',
    headers: { cookie: sa },
    payload: { attendance: { timeZone: 'America/Chicago' }, system: { schoolName: 'Riverside Career College' } },
  });
  admin = (await t.signedIn('it_admin')).cookie;
  instructor = await t.signedIn('instructor');
  otherInstructor = (await t.signedIn('instructor')).cookie;

  const [{ id: programId }] = (await t.db.insert(programs).values({ programName: 'Cosmetology' }).returning({ id: programs.id })) as [{ id: number }];
  await t.db.insert(programPolicies).values({ programId, programHours: '100', programWeeks: '8' });
  const [{ id: courseId }] = (await t.db
    .insert(courses)
    .values({ courseCode: 'COS-101', courseName: 'Cosmetology I', programId, clockHours: '100' })
    .returning({ id: courses.id })) as [{ id: number }];
  [{ id: studentId }] = (await t.db
    .insert(students)
    .values({ firstName: 'Rosa', lastName: 'Nguyễn', sisStudentId: 'COS-7', programId, enrollmentDate: '2026-03-02' })
    .returning({ id: students.id })) as [{ id: number }];
  const common = {
    courseId,
    instructorId: instructor.userId,
    cohortNumber: 1,
    termNumber: 1,
    courseStartDate: '2026-03-02',
    courseEndDate: '2026-05-31',
    startTime: '08:00',
    endTime: '12:00',
  };
  const scheduleOf = new Map<number, number>();
  for (const day of [1, 2, 3, 4]) {
    const [{ id }] = (await t.db
      .insert(schedules)
      .values({ ...common, dayOfWeek: day })
      .returning({ id: schedules.id })) as [{ id: number }];
    scheduleOf.set(day, id);
  }
  await t.db.insert(scheduleRosters).values([...scheduleOf.values()].map((scheduleId) => ({ scheduleId, studentId })));
  // The classes took place (attendance was taken): what Rosa has no record of, she missed.
  await sessionsRanFor(t.db, [...scheduleOf.values()], '2026-03-02', '2026-04-10');

  const weekday = (date: string) => new Date(`${date}T00:00:00Z`).getUTCDay();
  const record = (date: string, status: AttendanceStatus, times?: [string, string]) => ({
    studentId,
    scheduleId: scheduleOf.get(weekday(date))!,
    sessionDate: date,
    status,
    scanInTime: times ? new Date(times[0]) : null,
    scanOutTime: times ? new Date(times[1]) : null,
    source: times ? 'qr' : 'manual',
    isManualOverride: !times,
    overrideReason: times ? null : 'Paper sign-in sheet',
  });
  await t.db.insert(attendanceRecords).values([
    record('2026-03-02', 'present'),
    record('2026-03-03', 'excused'),
    record('2026-03-04', 'incomplete', ['2026-03-04T14:20:00Z', '2026-03-04T17:30:00Z']), // 08:20–11:30 CST
    record('2026-03-05', 'present', ['2026-03-05T13:55:00Z', '2026-03-05T18:00:00Z']), // 07:55–12:00 CST
    record('2026-03-09', 'late', ['2026-03-09T14:00:00Z', '2026-03-09T17:00:00Z']), // 09:00–12:00 CDT
    record('2026-03-10', 'excused'),
    record('2026-03-11', 'absent'),
  ]);
  const { rows } = await t.db.execute<{ id: number }>(sql`select id from attendance_records where student_id = ${studentId} and session_date = '2026-03-09'`);
  const corrected = await t.app.inject({
    method: 'PUT',
    url: `/api/attendance/${rows[0]!.id}`,
    headers: { cookie: admin },
    payload: { status: 'present', overrideReason: 'Badge reader down; on time per the sign-in sheet', scanInTime: '2026-03-09T13:00:00Z' },
  });
  expect(corrected.statusCode).toBe(200);
  const makeUp = await t.app.inject({
    method: 'POST',
    url: `/api/students/${studentId}/make-up-sessions`,
    headers: { cookie: admin },
    payload: { date: '2026-03-13', startTime: '13:00', endTime: '15:00', supervisorId: instructor.userId, courseId: null },
  });
  expect(makeUp.statusCode).toBe(201);

  // A student with a record in a class whose roster they are not on: attended, never scheduled.
  [{ id: offRosterStudentId }] = (await t.db
    .insert(students)
    .values({ firstName: 'Omar', lastName: 'Visitor', sisStudentId: 'COS-9', programId, enrollmentDate: '2026-03-02' })
    .returning({ id: students.id })) as [{ id: number }];
  const [{ id: friday }] = (await t.db
    .insert(schedules)
    .values({ ...common, dayOfWeek: 5, startTime: '13:00', endTime: '15:00' })
    .returning({ id: schedules.id })) as [{ id: number }];
  await t.db.insert(attendanceRecords).values({
    studentId: offRosterStudentId,
    scheduleId: friday,
    sessionDate: '2026-03-06',
    status: 'present',
    scanInTime: new Date('2026-03-06T19:05:00Z'), // 13:05 CST
    scanOutTime: new Date('2026-03-06T21:00:00Z'),
    source: 'qr',
  });

  // A student on classes every weekday since January 2025 with nothing recorded: a long card.
  [{ id: longStudentId }] = (await t.db
    .insert(students)
    .values({ firstName: 'Lee', lastName: 'Long', sisStudentId: null, programId, enrollmentDate: '2025-01-06' })
    .returning({ id: students.id })) as [{ id: number }];
  for (const day of [1, 2, 3, 4, 5]) {
    const [{ id }] = (await t.db
      .insert(schedules)
      .values({ ...common, dayOfWeek: day, courseStartDate: '2025-01-06', courseEndDate: '2026-12-31' })
      .returning({ id: schedules.id })) as [{ id: number }];
    await t.db.insert(scheduleRosters).values({ scheduleId: id, studentId: longStudentId });
    await sessionsRanFor(t.db, [id], '2025-01-06', '2026-04-10');
  }
});
afterAll(() => t?.close());

const get = (url: string, cookie = admin) => t.app.inject({ url, headers: { cookie } });

describe('the time card PDF', () => {
  it('prints each day with in/out times, minutes, status, make-up and corrections, and the totals', async () => {
    const res = await get(`/api/students/${studentId}/time-card.pdf?from=2026-03-01&to=2026-03-13`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toBe('attachment; filename="time-card-COS-7-2026-03-01-2026-03-13.pdf"');
    expect(res.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    const pages = pdfPages(res.rawPayload);
    expect(pages).toHaveLength(1);
    const lines = pages[0]!;
    expect(lines.slice(0, 4)).toEqual([
      'Riverside Career College | Student time card',
      'Student: Rosa Nguyễn (SIS id COS-7) | Program: Cosmetology',
      'Dates: 2026-03-01 to 2026-03-13 | Start: 2026-03-02 · times in America/Chicago',
      'Date | Course | In–out | Status | Scheduled | Raw | Rounded | Deducted | Capped | Attended | Excused | Make-up | Credited | Pending | Auto out',
    ]);
    const table = lines.slice(4, lines.indexOf('Totals, 2026-03-01 to 2026-03-13 | h:mm | minutes'));
    // Scheduled, raw, rounded, (deducted, capped), attended, (excused, make-up), credited, (pending, auto out): the
    // program has no rounding, deduction or caps, so raw = rounded = attended; the 07:55 check-in counts from 08:00.
    expect(table).toEqual([
      'Mon 2026-03-02 | COS-101 | present | 240 | 240 | 240 | 240 | 240',
      'Tue 2026-03-03 | COS-101 | excused | 240 | 0 | 0 | 0 | 240 | 240',
      'Wed 2026-03-04 | COS-101 | 08:20–11:30 | incomplete | 240 | 190 | 190 | 190 | 190',
      'Thu 2026-03-05 | COS-101 | 07:55–12:00 | present | 240 | 240 | 240 | 240 | 240',
      'Mon 2026-03-09 | COS-101 | 08:00–12:00 | present corrected* | 240 | 240 | 240 | 240 | 240',
      'Tue 2026-03-10 | COS-101 | excused | 240 | 0 | 0 | 0 | 240 | 60',
      'Wed 2026-03-11 | COS-101 | absent | 240 | 0 | 0 | 0 | 0',
      'Thu 2026-03-12 | no record | 240 | 0 | 0 | 0 | 0',
      'Fri 2026-03-13 | Make-up | 13:00–15:00 | make-up | 0 | 0 | 0 | 0 | 120 | 120',
      // The totals row: each column's sum over the days above.
      'Totals | 1920 | 910 | 910 | 910 | 480 | 120 | 1330',
      // The time-clock columns explained, then the corrections note, each wrapped to the table's width.
      'Minutes. Raw: the punches as recorded, inside the class times. Rounded: after the grace minutes, rounding and the missed-punch rule of the program. Deducted: the meal deduction. Capped: over the ',
      'daily or weekly cap, kept and shown but not counted. Attended = Rounded − Deducted − Capped. Pending: minutes of meetings without a check-out, not counted until an exception is approved. Auto out: ',
      'of Attended, minutes credited to the class end for a missing check-out, for review.',
      '* Corrected by staff after it was captured. The times shown are the corrected ones; the original times, who changed them, when and why are kept in the record history.',
    ]);
    const rest = lines.slice(lines.indexOf('Totals, 2026-03-01 to 2026-03-13 | h:mm | minutes') + 1);
    expect(rest).toEqual([
      'Scheduled | 32:00 | 1920',
      'Raw punches, inside the classes | 15:10 | 910',
      'Rounded (grace, rounding, missed-punch rule) | 15:10 | 910',
      'Deducted (meal) | 0:00 | 0',
      'Capped (over the daily or weekly cap; not counted) | 0:00 | 0',
      'Attended (rounded − deducted − capped) | 15:10 | 910',
      'Excused, credited (within the cap) | 5:00 | 300',
      'Excused, not credited (over the cap; to be made up) | 3:00 | 180',
      'Make-up | 2:00 | 120',
      'Credited (attended + make-up + excused within the cap) | 22:10 | 1330',
      'Pending an exception (a missing check-out; not counted) | 0:00 | 0',
      'Auto check-out (of attended; for review) | 0:00 | 0',
      "Since the student's start (2026-03-02) through 2026-03-13: 22:10 credited of 32:00 scheduled (69.3%)",
      'Payment period 1 of 2 (0–50 h, 4 weeks), in progress as of 2026-03-13:',
      '    22:10 credited, 27.83 hours remaining, its weeks end 2026-03-29.',
      'Student signature | Date | School official signature | Date',
      'Generated 2026-04-10 12:00 (America/Chicago) · Rosa Nguyễn, 2026-03-01 to 2026-03-13 | Page 1 of 1',
    ]);
  });

  it('totals only the dates asked for, and says where the student stands at their end', async () => {
    const lines = pdfPages((await get(`/api/students/${studentId}/time-card.pdf?from=2026-03-09&to=2026-03-13`)).rawPayload)[0]!;
    const totals = lines.slice(lines.indexOf('Totals, 2026-03-09 to 2026-03-13 | h:mm | minutes') + 1);
    expect(totals.slice(0, 13)).toEqual([
      'Scheduled | 16:00 | 960',
      'Raw punches, inside the classes | 4:00 | 240',
      'Rounded (grace, rounding, missed-punch rule) | 4:00 | 240',
      'Deducted (meal) | 0:00 | 0',
      'Capped (over the daily or weekly cap; not counted) | 0:00 | 0',
      'Attended (rounded − deducted − capped) | 4:00 | 240',
      'Excused, credited (within the cap) | 1:00 | 60',
      'Excused, not credited (over the cap; to be made up) | 3:00 | 180',
      'Make-up | 2:00 | 120',
      'Credited (attended + make-up + excused within the cap) | 7:00 | 420',
      'Pending an exception (a missing check-out; not counted) | 0:00 | 0',
      'Auto check-out (of attended; for review) | 0:00 | 0',
      "Since the student's start (2026-03-02) through 2026-03-13: 22:10 credited of 32:00 scheduled (69.3%)",
    ]);
  });

  it('defaults to this month up to today in the school time zone, and ends today at the latest', async () => {
    const res = await get(`/api/students/${studentId}/time-card.pdf`);
    expect(res.headers['content-disposition']).toBe('attachment; filename="time-card-COS-7-2026-04-01-2026-04-10.pdf"');
    const lines = pdfPages(res.rawPayload)[0]!;
    expect(lines.filter((l) => l.includes('no record'))).toHaveLength(6); // Apr 1, 2, 6, 7, 8, 9
    expect(lines).toContain('Scheduled | 24:00 | 1440');
    expect(lines).toContain("Since the student's start (2026-03-02) through 2026-04-10: 22:10 credited of 96:00 scheduled (23.1%)");
    const future = await get(`/api/students/${studentId}/time-card.pdf?from=2026-04-01&to=2026-12-31`);
    expect(future.headers['content-disposition']).toBe('attachment; filename="time-card-COS-7-2026-04-01-2026-04-10.pdf"');
  });

  it('runs over several pages with the header on each, named by the student id without a SIS id', async () => {
    const res = await get(`/api/students/${longStudentId}/time-card.pdf?from=2025-01-01&to=2026-04-10`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toBe(`attachment; filename="time-card-${longStudentId}-2025-01-01-2026-04-10.pdf"`);
    const pages = pdfPages(res.rawPayload);
    expect(pages.length).toBeGreaterThan(5);
    pages.forEach((lines, i) => {
      expect(lines[0]).toBe('Riverside Career College | Student time card');
      expect(lines[1]).toBe(`Student: Lee Long (Muster id ${longStudentId}) | Program: Cosmetology`);
      expect(lines.at(-1)).toMatch(new RegExp(`\\| Page ${i + 1} of ${pages.length}$`));
    });
    // Every weekday from Mon 6 Jan 2025 to Fri 10 Apr 2026 is scheduled and unrecorded: 330 days.
    expect(pages.flat().filter((l) => l.endsWith('| no record | 240 | 0 | 0 | 0 | 0'))).toHaveLength(330);
    // The totals and the signatures share the last page.
    expect(pages.at(-1)).toContain('Scheduled | 1320:00 | 79200');
    expect(pages.at(-1)).toContain('Student signature | Date | School official signature | Date');
  });

  it("counts a record in a class off the student's roster as attended, not scheduled", async () => {
    const h = (await get(`/api/students/${offRosterStudentId}/hours?asOf=2026-03-06&from=2026-03-06&to=2026-03-06`)).json();
    expect(h.days).toEqual([
      {
        date: '2026-03-06',
        scheduledMinutes: 0,
        attendedMinutes: 115,
        excusedMinutes: 0,
        makeUpMinutes: 0,
        creditedMinutes: 115,
        closed: false,
        onLeave: false,
        pendingMinutes: 0,
        unrecordedMinutes: 0,
        rawMinutes: 115,
        roundedMinutes: 115,
        deductedMinutes: 0,
        cappedMinutes: 0,
        pendingExceptionMinutes: 0,
        autoCheckOutMinutes: 0,
      },
    ]);
    const lines = pdfPages((await get(`/api/students/${offRosterStudentId}/time-card.pdf?from=2026-03-01&to=2026-03-06`)).rawPayload)[0]!;
    expect(lines).toContain('Fri 2026-03-06 | COS-101 | 13:05–15:00 | present | 0 | 115 | 115 | 115 | 115');
  });

  it('is audited as an export', async () => {
    const entries = await auditEntries(t.db, 'time_card');
    expect(entries.length).toBeGreaterThan(0);
    expect(entries[0]).toMatchObject({
      action: 'Export',
      record_id: String(studentId),
      new_values: { studentId, from: '2026-03-01', to: '2026-03-13', fileName: 'time-card-COS-7-2026-03-01-2026-03-13.pdf' },
    });
  });

  it('follows the hours need-to-know: instructors only for students on their rosters', async () => {
    expect((await get(`/api/students/${studentId}/time-card.pdf`, instructor.cookie)).statusCode).toBe(200);
    const denied = await get(`/api/students/${studentId}/time-card.pdf`, otherInstructor);
    expect(denied.statusCode).toBe(403);
    expect(denied.headers['content-type']).toContain('application/json');
    expect((await get(`/api/students/999999/time-card.pdf`, otherInstructor)).statusCode).toBe(403);
    expect((await get(`/api/students/999999/time-card.pdf`)).statusCode).toBe(404);
  });

  it('refuses a bad range with a 400 naming the field', async () => {
    const field = async (query: string) => {
      const res = await get(`/api/students/${studentId}/time-card.pdf?${query}`);
      expect(res.statusCode).toBe(400);
      return res.json().errors[0].field;
    };
    expect(await field('from=2026-02-30')).toBe('from');
    expect(await field('from=2026-04-02&to=2026-04-01')).toBe('to');
    expect(await field('from=2023-01-01&to=2026-01-01')).toBe('to');
    expect(await field('from=2024-01-01')).toBe('from'); // to = today: more than two years
    expect(await field('from=2026-04-11')).toBe('from'); // after today
  });
});

describe('names and the school on the time card', () => {
  it('prints names as they are written in an embedded Unicode font', async () => {
    const [{ id }] = (await t.db
      .insert(students)
      .values({
        firstName: 'Đặng Ελένη Maximiliana',
        lastName: 'Дмитриева-Łukasiewicz de la Santísima Trinidad',
        sisStudentId: 'COS-11',
        enrollmentDate: '2026-03-02',
      })
      .returning({ id: students.id })) as [{ id: number }];
    const pdf = readPdf((await get(`/api/students/${id}/time-card.pdf?from=2026-03-01&to=2026-03-13`)).rawPayload);
    // Too long to share its line with the program: each has a line of its own.
    expect(pdf.pages[0]!.lines.slice(1, 3)).toEqual([
      'Student: Đặng Ελένη Maximiliana Дмитриева-Łukasiewicz de la Santísima Trinidad (SIS id COS-11)',
      'Program: none',
    ]);
    // Only the embedded DejaVu Sans (a subset, hence the tag before '+'): no built-in Latin-1 font.
    expect(pdf.fontNames.map((n) => n.replace(/^[A-Z]{6}\+/, '')).sort()).toEqual(['DejaVuSans', 'DejaVuSans-Bold']);
  });

  it('is titled "Student time card" alone while the school has no name, never with a hint for staff', async () => {
    const sa = (await t.signedIn('super_admin')).cookie;
    const setName = (schoolName: string) => t.app.inject({ method: 'PUT', url: '/api/settings', headers: { cookie: sa }, payload: { system: { schoolName } } });
    expect((await setName('')).statusCode).toBe(200);
    try {
      const lines = pdfPages((await get(`/api/students/${studentId}/time-card.pdf?from=2026-03-01&to=2026-03-13`)).rawPayload)[0]!;
      expect(lines[0]).toBe('Student time card');
      expect(lines[1]).toBe('Student: Rosa Nguyễn (SIS id COS-7) | Program: Cosmetology');
      expect(lines.join('\n')).not.toMatch(/not set|Settings/);
    } finally {
      await setName('Riverside Career College');
    }
  });

  it('wraps a long school name instead of cutting it, with the title beside it', async () => {
    const sa = (await t.signedIn('super_admin')).cookie;
    const long = 'The Riverside Regional Career, Technical and Adult Education College of Cosmetology and Health Sciences';
    await t.app.inject({ method: 'PUT', url: '/api/settings', headers: { cookie: sa }, payload: { system: { schoolName: long } } });
    try {
      const page = readPdf((await get(`/api/students/${studentId}/time-card.pdf?from=2026-03-01&to=2026-03-13`)).rawPayload).pages[0]!;
      expect(page.lines[0]).toMatch(/^The Riverside .* \| Student time card$/);
      expect(page.lines.slice(0, 3).join(' ').replace(' | Student time card', '').replace(/\s+/g, ' ')).toContain(long);
      for (const r of page.runs) expect(r.x + r.width, r.text).toBeLessThanOrEqual(page.width - 36 + 0.01);
    } finally {
      await t.app.inject({ method: 'PUT', url: '/api/settings', headers: { cookie: sa }, payload: { system: { schoolName: 'Riverside Career College' } } });
    }
  });
});

describe('printable', () => {
  it('keeps every letter DejaVu Sans draws and replaces only what it lacks', () => {
    expect(printable('José Müller – Ørsted')).toBe('José Müller – Ørsted');
    expect(printable('Nguyễn Thị Ánh')).toBe('Nguyễn Thị Ánh');
    expect(printable('Nguye\u0302\u0303n')).toBe('Nguyễn'); // typed as letter + accents: composed
    expect(printable('Σοφία Петрова Արամ')).toBe('Σοφία Петрова Արամ');
    expect(printable('李 Wei 김')).toBe('? Wei ?'); // no CJK glyphs in DejaVu Sans
  });
});

describe('several punches on the card', () => {
  it('prints every punch pair of a record: the breaks between them, and a pair with no check-out', () => {
    const day = {
      date: '2026-04-07',
      closed: false,
      onLeave: false,
      scheduledMinutes: 540,
      attendedMinutes: 495,
      excusedMinutes: 0,
      makeUpMinutes: 0,
      creditedMinutes: 495,
      pendingMinutes: 0,
      unrecordedMinutes: 0,
      rawMinutes: 495,
      roundedMinutes: 495,
      deductedMinutes: 0,
      cappedMinutes: 0,
      pendingExceptionMinutes: 0,
      autoCheckOutMinutes: 0,
    };
    const record = (breaks: { startedAt: string; endedAt: string | null }[], out: string | null) => ({
      sessionDate: '2026-04-07',
      courseCode: 'PN-101',
      status: 'present',
      scanInTime: new Date('2026-04-07T12:58:00Z'),
      scanOutTime: out ? new Date(out) : null,
      corrected: false,
      breaks,
    });
    // Chicago (CDT): in 07:58, lunch 12:00–12:45, out 17:02.
    const lunch = [{ startedAt: '2026-04-07T17:00:00.000Z', endedAt: '2026-04-07T17:45:00.000Z' }];
    const [withLunch] = timeCardDays([day], [record(lunch, '2026-04-07T22:02:00Z')], [], 'America/Chicago');
    expect(withLunch!.lines.map((l) => l.inOut)).toEqual(['07:58–12:00, 12:45–17:02']);
    // Back from lunch, never checked out.
    const [noOut] = timeCardDays([day], [record(lunch, null)], [], 'America/Chicago');
    expect(noOut!.lines.map((l) => l.inOut)).toEqual(['07:58–12:00, 12:45–no out']);
  });
});
