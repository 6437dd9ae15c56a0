import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attendanceRecords, courses, programPolicies, programs, scheduleRosters, schedules, students } from '../../db/schema/index.ts';
import { createTestApp, fixedClock, sessionsRanFor, type TestApp } from '../../test/helpers.ts';
import { readPdf, type PdfPage } from '../../test/pdf-reader.ts';
import { renderMonthlyReport, MONTHLY_REPORT_TITLE, TIME_CLOCK_TABLE_TITLE, type MonthlyReport } from './monthly-report-pdf.ts';
import type { MonthlyHoursRow } from './monthly-hours.ts';

// Decision 045: the monthly board report fits its page, adds up (an Excused column) and prints
// names as written; without a school name it is titled neutrally.

const MARGIN = 36;
const student = (i: number, o: Partial<MonthlyHoursRow> = {}): MonthlyHoursRow => ({
  sisStudentId: `PN-2026-${1000 + i}`,
  firstName: 'Ana',
  lastName: 'Díaz',
  programName: 'Practical Nursing',
  month: '2026-04',
  scheduledHours: 132,
  attendedHours: 120.25,
  excusedCreditedHours: 6,
  makeUpHours: 4,
  creditedHours: 130.25,
  cumulativeCreditedHours: 1234.75,
  attendancePercent: 98.7,
  status: 'enrolled',
  lastDateOfAttendance: '2026-04-30',
  // Punched 121 h; rounded up to 121.25; an hour of meal deductions: 120.25 attended.
  rawHours: 121,
  roundedHours: 121.25,
  deductedHours: 1,
  cappedHours: 0,
  pendingExceptionHours: 0,
  autoCheckOutHours: 0,
  ...o,
});
const report = (o: Partial<MonthlyReport> = {}): MonthlyReport => ({
  schoolName: 'Lakeside Career College',
  month: '2026-04',
  programName: null,
  generatedAt: '2026-05-01 09:00 (America/Chicago)',
  rows: [student(1)],
  ...o,
});

/** Every run of text starts and ends inside the page's margins. */
function expectInsideMargins(page: PdfPage) {
  for (const r of page.runs) {
    expect(r.x, r.text).toBeGreaterThanOrEqual(MARGIN - 0.01);
    expect(r.x + r.width, `${r.text} ends at ${r.x + r.width}`).toBeLessThanOrEqual(page.width - MARGIN + 0.01);
  }
}

describe('the monthly report PDF', () => {
  it('has an Excused column, so Attended + Excused + Make-up = Credited on each line and in the totals', async () => {
    const pdf = readPdf(
      await renderMonthlyReport(
        report({ rows: [student(1), student(2, { attendedHours: 100, excusedCreditedHours: 0, makeUpHours: 0, creditedHours: 100 })] }),
      ),
    );
    const lines = pdf.pages[0]!.lines;
    expect(lines).toContain(
      'SIS id | Last name | First name | Program | Scheduled | Attended | Excused | Make-up | Credited | Cumulative | Att. % | Status | LDA',
    );
    expect(lines).toContain('PN-2026-1001 | Díaz | Ana | Practical Nursing | 132 | 120.25 | 6 | 4 | 130.25 | 1234.75 | 98.7 | enrolled | 2026-04-30');
    expect(lines).toContain('2 students | Totals | 264 | 220.25 | 6 | 4 | 230.25 | 2469.5');
    expect(lines.join('\n')).toContain('Credited = Attended + Excused + Make-up');
  });

  it('has a table of the time-clock lines, so Attended = Rounded − Deducted − Capped on each line and in the totals', async () => {
    const capped = student(2, {
      rawHours: 130,
      roundedHours: 130,
      deductedHours: 0,
      cappedHours: 10,
      attendedHours: 120,
      pendingExceptionHours: 3.5,
      autoCheckOutHours: 0.5,
    });
    const pdf = readPdf(await renderMonthlyReport(report({ rows: [student(1), capped] })));
    const lines = pdf.pages.flatMap((p) => p.lines);
    const at = lines.indexOf(TIME_CLOCK_TABLE_TITLE);
    expect(at).toBeGreaterThan(0);
    expect(lines.slice(at + 1, at + 5)).toEqual([
      'SIS id | Last name | First name | Program | Raw | Rounded | Deducted | Capped | Attended | Pending exception | Auto check-out',
      'PN-2026-1001 | Díaz | Ana | Practical Nursing | 121 | 121.25 | 1 | 0 | 120.25 | 0 | 0',
      'PN-2026-1002 | Díaz | Ana | Practical Nursing | 130 | 130 | 0 | 10 | 120 | 3.5 | 0.5',
      '2 students | Totals | 251 | 251.25 | 1 | 10 | 240.25 | 3.5 | 0.5',
    ]);
    expect(lines.join(' ').replace(/\s+/g, ' ')).toContain('Capped: over the daily or weekly cap, kept and shown but not counted.');
    for (const page of pdf.pages) expectInsideMargins(page);
    expect(lines.at(-1)).toBe('School official (signature) | Name and title | Date');
  });

  it('keeps every column, the title and the signature lines inside the page, whatever the names', async () => {
    const long = 'The Riverside Regional Career, Technical and Adult Education College of Cosmetology, Nursing and Health Sciences';
    const rows = [
      student(1, {
        firstName: 'Maximiliana Josefina Guadalupe',
        lastName: 'Hernández-Villalobos de la Cruz y Santamaría',
        programName: 'Practical Nursing (Evening, Extended Clinical Track with Pharmacology)',
      }),
      student(2, {
        scheduledHours: 1234.5,
        attendedHours: 1100.25,
        excusedCreditedHours: 100.25,
        makeUpHours: 12,
        creditedHours: 1212.5,
        cumulativeCreditedHours: 12345.75,
        status: 'withdrawn',
      }),
      ...Array.from({ length: 80 }, (_, i) => student(i + 3)),
    ];
    const pdf = readPdf(await renderMonthlyReport(report({ schoolName: long, rows })));
    expect(pdf.pages.length).toBeGreaterThan(1);
    for (const page of pdf.pages) {
      expect(page.width).toBe(792); // landscape letter
      expectInsideMargins(page);
      // The school's name wraps onto a second line instead of being cut; the title stays beside it.
      expect(page.lines[0]).toMatch(new RegExp(`^The Riverside .* \\| ${MONTHLY_REPORT_TITLE}$`));
      expect(page.lines.slice(0, 2).join(' ').replace(` | ${MONTHLY_REPORT_TITLE}`, '').replace(/\s+/g, ' ')).toBe(long);
    }
    // A long name wraps within its column rather than being cut.
    const text = pdf.pages[0]!.lines.join(' ').replace(/\s+/g, ' ');
    for (const part of ['Maximiliana', 'Guadalupe', 'Hernández-Villalobos', 'Santamaría', 'Pharmacology)']) expect(text).toContain(part);
    expect(text).not.toContain('…');
    expect(pdf.pages.at(-1)!.lines.at(-1)).toBe('School official (signature) | Name and title | Date');
  });

  it('prints names outside Latin-1 as written, in the embedded DejaVu Sans', async () => {
    const rows = [
      student(1, { firstName: 'Thị Ánh', lastName: 'Nguyễn' }),
      student(2, { firstName: 'Дмитрий', lastName: 'Παπαδόπουλος' }),
      student(3, { firstName: 'Wei', lastName: '李' }),
    ];
    const pdf = readPdf(await renderMonthlyReport(report({ rows })));
    const lines = pdf.pages[0]!.lines;
    expect(lines.some((l) => l.startsWith('PN-2026-1001 | Nguyễn | Thị Ánh |'))).toBe(true);
    expect(lines.some((l) => l.startsWith('PN-2026-1002 | Παπαδόπουλος | Дмитрий |'))).toBe(true);
    expect(lines.some((l) => l.startsWith('PN-2026-1003 | ? | Wei |'))).toBe(true); // DejaVu Sans has no CJK
    expect(pdf.fontNames.map((n) => n.replace(/^[A-Z]{6}\+/, '')).sort()).toEqual(['DejaVuSans', 'DejaVuSans-Bold']);
  });

  it('is titled without a school line when the school has no name', async () => {
    const lines = readPdf(await renderMonthlyReport(report({ schoolName: null }))).pages[0]!.lines;
    expect(lines[0]).toBe(MONTHLY_REPORT_TITLE);
    expect(lines[1]).toMatch(/^Month: 2026-04 · Program: all programs · Printed /);
  });
});

// Through the API: the Excused figure is the ledger's, and an unnamed school gets no staff hint.
describe('GET /api/reports/monthly-hours (Excused, no school name)', () => {
  const clock = fixedClock('2026-05-04T15:00:00Z');
  let t: TestApp;
  let admin: string;
  let programId: number;
  beforeAll(async () => {
    t = await createTestApp({ clock });
    const sa = (await t.signedIn('super_admin')).cookie;
    await t.app.inject({ method: 'PUT', url: '/api/settings', headers: { cookie: sa }, payload: { attendance: { timeZone: 'America/Chicago' } } });
    admin = (await t.signedIn('it_admin')).cookie;
    const instructor = await t.signedIn('instructor');
    [{ id: programId }] = (await t.db.insert(programs).values({ programName: 'Barbering' }).returning({ id: programs.id })) as [{ id: number }];
    await t.db.insert(programPolicies).values({ programId, programHours: '100', programWeeks: '8' });
    const [{ id: courseId }] = (await t.db
      .insert(courses)
      .values({ courseCode: 'BAR-101', courseName: 'Barbering I', programId, clockHours: '100' })
      .returning({ id: courses.id })) as [{ id: number }];
    const [{ id: studentId }] = (await t.db
      .insert(students)
      .values({ firstName: 'Thị Ánh', lastName: 'Nguyễn', sisStudentId: 'BAR-1', programId, enrollmentDate: '2026-04-06' })
      .returning({ id: students.id })) as [{ id: number }];
    // Monday 6 and Tuesday 7 April, 08:00–12:00: one present, one excused (within the cap).
    const ids: number[] = [];
    for (const day of [1, 2]) {
      const [{ id }] = (await t.db
        .insert(schedules)
        .values({
          courseId,
          instructorId: instructor.userId,
          cohortNumber: 1,
          termNumber: 1,
          courseStartDate: '2026-04-06',
          courseEndDate: '2026-04-07',
          startTime: '08:00',
          endTime: '12:00',
          dayOfWeek: day,
        })
        .returning({ id: schedules.id })) as [{ id: number }];
      ids.push(id);
      await t.db.insert(scheduleRosters).values({ scheduleId: id, studentId });
    }
    await sessionsRanFor(t.db, ids, '2026-04-06', '2026-04-07');
    await t.db.insert(attendanceRecords).values([
      { studentId, scheduleId: ids[0]!, sessionDate: '2026-04-06', status: 'present', source: 'manual', isManualOverride: true, overrideReason: 'Paper sheet' },
      { studentId, scheduleId: ids[1]!, sessionDate: '2026-04-07', status: 'excused', source: 'manual', isManualOverride: true, overrideReason: 'Doctor' },
    ]);
  });
  afterAll(() => t?.close());

  it('gives the excused credited hours, so the CSV line adds up too', async () => {
    const res = await t.app.inject({ url: `/api/reports/monthly-hours?month=2026-04&programId=${programId}`, headers: { cookie: admin } });
    const [head, line] = res.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split(/\r?\n/) as [string, string];
    const row = Object.fromEntries(head.split(',').map((k, i) => [k, line.split(',')[i]]));
    expect(row).toMatchObject({ scheduledHours: '8', attendedHours: '4', excusedCreditedHours: '4', makeUpHours: '0', creditedHours: '8' });
  });

  it('prints the same figures in the PDF, titled without a school line, with no hint for staff', async () => {
    const res = await t.app.inject({ url: `/api/reports/monthly-hours?month=2026-04&programId=${programId}&format=pdf`, headers: { cookie: admin } });
    expect(res.statusCode).toBe(200);
    const lines = readPdf(res.rawPayload).pages[0]!.lines;
    expect(lines[0]).toBe(MONTHLY_REPORT_TITLE);
    expect(lines).toContain('BAR-1 | Nguyễn | Thị Ánh | Barbering | 8 | 4 | 4 | 0 | 8 | 8 | 100 | enrolled | 2026-04-06');
    expect(lines.join('\n')).not.toMatch(/not set|Settings/);
  });
});
