import { parse } from 'csv-parse/sync';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importType, templateRows } from '../../../common/import-columns.ts';
import { csvText } from '../../lib/csv.ts';
import { readTabular } from '../../lib/tabular-file.ts';
import { readImportFile } from '../imports/read-file.ts';
import { upload } from '../../test/import-support.ts';
import { buildAttendanceRecord, buildCourse, buildProgram, buildSchedule, buildStudent } from '../../test/factories.ts';
import { createTestApp, fixedClock, multipart, type TestApp } from '../../test/helpers.ts';

/**
 * Decision 007: text a student, an instructor or an SIS put in a record must never reach a
 * staff member's spreadsheet as a formula, in any CSV Muster writes.
 */
const FORMULAS = ['=1+2', '=HYPERLINK("http://x","y")', '@SUM(1)', '-2+3', '\t=1'];

/** A cell a spreadsheet would run: starts with = + @ tab CR, or with - and is not a plain number. */
const runsAsFormula = (cell: string) => /^[=+@\t\r]/.test(cell) || (cell.startsWith('-') && !/^-\d+(\.\d+)?$/.test(cell));
const cells = (body: string) => (parse(body.replace(/^\uFEFF/, ''), { relax_column_count: true }) as string[][]).flat();
const records = (body: string) => parse(body, { columns: true }) as Record<string, string>[];

let t: TestApp;
let admin: string;
let scheduleId: number;
const studentIds: number[] = [];

beforeAll(async () => {
  t = await createTestApp({ clock: fixedClock('2027-01-20T18:00:00Z') });
  // The audit log names the acting user: this one's name is a formula too.
  admin = (await t.signedIn('super_admin', { firstName: '=1+2', lastName: '@SUM(1)' })).cookie;
  const program = await buildProgram(t.db, { programName: '-2+3', sisProgramId: '=1+2' });
  const course = await buildCourse(t.db, {
    courseCode: '=1+2',
    courseName: '=HYPERLINK("http://x","y")',
    description: '-2+3',
    sisCourseId: '@SUM(1)',
    programId: program.id,
    clockHours: '60',
  });
  scheduleId = (
    await buildSchedule(t.db, {
      courseId: course.id,
      startTime: '09:00',
      endTime: '12:00',
      courseStartDate: '2027-01-01',
      courseEndDate: '2027-06-30',
      sisScheduleId: '\t=1',
    })
  ).id;
  // Students as an SIS or a form may deliver them: the SIS id, names and phone start like formulas.
  for (const [i, v] of FORMULAS.entries()) {
    const s = await buildStudent(t.db, { sisStudentId: v, firstName: v, lastName: FORMULAS[(i + 1) % 5]!, email: `s${i}@x.edu`, phone: v, programId: null });
    studentIds.push(s.id);
    await buildAttendanceRecord(t.db, {
      studentId: s.id,
      scheduleId,
      sessionDate: '2027-01-11',
      status: 'present',
      minutesAttended: 180,
      scheduledMinutes: 180,
      isManualOverride: true,
      overrideReason: v,
      source: 'manual',
    });
  }
});
afterAll(() => t.close());

describe('CSV exports neutralise formula-like text', () => {
  it('attendance export: SIS ids, names, schedule ids and override reasons get a leading apostrophe; numbers and dates do not', async () => {
    const res = await t.app.inject({ url: '/api/export/attendance', headers: { cookie: admin } });
    expect(res.statusCode).toBe(200);
    const rows = records(res.body);
    expect(rows).toHaveLength(5);
    for (const [i, v] of FORMULAS.entries()) {
      const row = rows.find((r) => r.studentId === String(studentIds[i]))!;
      expect(row).toMatchObject({ sisStudentId: `'${v}`, firstName: `'${v}`, lastName: `'${FORMULAS[(i + 1) % 5]}`, overrideReason: `'${v}` });
      expect(row).toMatchObject({ sisCourseId: "'@SUM(1)", courseCode: "'=1+2", courseName: `'=HYPERLINK("http://x","y")`, sisScheduleId: "'\t=1" });
      expect(row).toMatchObject({ sessionDate: '2027-01-11', minutesAttended: '180', isManualOverride: 'true' });
    }
    expect(cells(res.body).filter(runsAsFormula)).toEqual([]);
  });

  it('course export: every text column, and the file imports back to the same values', async () => {
    const res = await t.app.inject({ url: '/api/courses/export', headers: { cookie: admin } });
    expect(res.statusCode).toBe(200);
    expect(records(res.body)[0]).toMatchObject({
      courseCode: "'=1+2",
      courseName: `'=HYPERLINK("http://x","y")`,
      description: "'-2+3",
      sisCourseId: "'@SUM(1)",
      clockHours: '60',
    });
    expect(cells(res.body).filter(runsAsFormula)).toEqual([]);

    const back = multipart('courses.csv', res.body);
    const again = await t.app.inject({ method: 'POST', url: '/api/courses/bulk-upload', headers: { cookie: admin, ...back.headers }, payload: back.payload });
    expect(again.json()).toMatchObject({ imported: 1, errors: [] });
    const { rows } = await t.db.execute(sql`select course_code, course_name, description, sis_course_id from courses`);
    expect(rows).toEqual([{ course_code: '=1+2', course_name: '=HYPERLINK("http://x","y")', description: '-2+3', sis_course_id: '@SUM(1)' }]);
  });

  it('audit log export: user names and the JSON of changes', async () => {
    await t.app.inject({
      method: 'POST',
      url: '/api/students',
      headers: { cookie: admin },
      payload: { firstName: '=1+2', lastName: '-2+3', phone: '@SUM(1)' },
    });
    const res = await t.app.inject({ url: '/api/audit-logs/export', headers: { cookie: admin } });
    expect(res.statusCode).toBe(200);
    const rows = records(res.body);
    expect(rows.find((r) => r.action === 'Create' && r.tableName === 'students')).toMatchObject({ user: "'=1+2 @SUM(1)" });
    expect(cells(res.body).filter(runsAsFormula)).toEqual([]);
  });

  it('import templates are written by the same writer', async () => {
    for (const type of ['programs', 'courses', 'instructors', 'students', 'schedules']) {
      const res = await t.app.inject({ url: `/api/templates/${type}`, headers: { cookie: admin } });
      expect(res.statusCode).toBe(200);
      expect(res.body.startsWith('\uFEFF')).toBe(true);
      expect(cells(res.body).filter(runsAsFormula)).toEqual([]);
    }
  });
});

describe('reading a neutralised file back', () => {
  const header = ['sisStudentId', 'firstName', 'lastName', 'phone'];
  const written = csvText([header, ...FORMULAS.map((v) => [v, v, v, v]), ["'kept", "'12", 'Ana', '-3']]);

  it('both readers drop exactly the apostrophe the writer added', () => {
    const expected = [...FORMULAS.map((v) => [v, v, v, v]), ["'kept", "'12", 'Ana', '-3']];
    // The wizard's reader keeps cells as written (the sheet trims them later); the course reader trims.
    expect(readImportFile(Buffer.from(written), 'csv').records).toEqual(expected);
    expect(readTabular(Buffer.from(written), 'csv').rows.map((r) => header.map((h) => r.values[h]))).toEqual(expected.map((r) => r.map((c) => c.trim())));
  });

  it('a students import of an exported-style file stores the original text', async () => {
    const programs = templateRows(importType('programs'));
    expect((await upload(t, admin, 'programs', 'programs.csv', csvText([programs.header, ...programs.rows]))).statusCode).toBe(200);
    const { header: h, rows } = templateRows(importType('students'));
    const col = (name: string) => h.indexOf(name);
    const row = [...rows[0]!];
    row[col('sisStudentId')] = '@SUM(1)-import';
    row[col('firstName')] = '=HYPERLINK("http://x","y")';
    row[col('lastName')] = '-2+3';
    const res = await upload(t, admin, 'students', 'students.csv', csvText([h, row], { bom: true }));
    expect(res.statusCode, res.body).toBe(200);
    const { rows: stored } = await t.db.execute(sql`select first_name, last_name from students where sis_student_id = '@SUM(1)-import'`);
    expect(stored).toEqual([{ first_name: '=HYPERLINK("http://x","y")', last_name: '-2+3' }]);
  });
});
