import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UploadType } from '../../../common/constants.ts';
import { importType, templateRows } from '../../../common/import-columns.ts';
import { createTestApp, type TestApp } from '../../test/helpers.ts';
import { csv, dataFingerprint, upload } from '../../test/import-support.ts';

// Every SPEC §5 rule, refused with the row and the column, and nothing written.
let t: TestApp;
let admin: string;
beforeAll(async () => {
  t = await createTestApp();
  admin = (await t.signedIn('it_admin')).cookie;
  // References for the later types: the templates of programs, courses and instructors.
  for (const type of ['programs', 'courses', 'instructors'] as const) {
    const { header, rows } = templateRows(importType(type));
    const res = await upload(t, admin, type, `${type}.csv`, csv(header, rows));
    if (res.statusCode !== 200) throw new Error(res.body);
  }
});
afterAll(() => t.close());

/** The template with one cell of its first data row (file row 2) replaced. */
function withCell(type: UploadType, column: string, value: string): string {
  const { header, rows } = templateRows(importType(type));
  const j = header.indexOf(column);
  if (j < 0) throw new Error(`no column ${column}`);
  const first = [...rows[0]!];
  first[j] = value;
  // Fresh keys so the row would be a create, never clash with what beforeAll imported.
  const key = header.indexOf(importType(type).key);
  if (column !== importType(type).key) first[key] = `${first[key]}-RULE`;
  for (const unique of ['programCode', 'courseCode', 'email', 'username', 'employeeId']) {
    const u = header.indexOf(unique);
    if (u >= 0 && unique !== column && type !== 'students') first[u] = unique === 'email' ? `rule.${first[u]}` : `${first[u]}-R`;
  }
  return csv(header, [first]);
}

const CASES: [UploadType, string, string, RegExp][] = [
  ['programs', 'sisProgramId', '', /required/],
  ['programs', 'programName', '', /required/],
  ['programs', 'durationHours', '0.5', /between 1 and 10000/],
  ['programs', 'durationHours', '10000.5', /between 1 and 10000/],
  ['programs', 'durationHours', '1500.25', /steps of 0.5/],
  ['programs', 'durationHours', 'many', /number/],
  ['programs', 'credentialType', 'PhD', /Certificate, Diploma, Associate Degree/],
  ['programs', 'status', 'closed', /active, inactive, suspended/],
  ['programs', 'startDate', '2026/08/24', /YYYY-MM-DD/],
  ['programs', 'startDate', '2026-02-30', /YYYY-MM-DD/],
  ['programs', 'endDate', '2020-01-01', /before startDate/],
  ['programs', 'capacity', '1.5', /whole number/],
  ['programs', 'tuitionCost', 'free', /number/],
  ['programs', 'lastSyncDate', 'yesterday', /YYYY-MM-DD/],
  ['programs', 'syncStatus', 'done', /pending, synced, failed, manual/],
  ['programs', 'programCode', 'X'.repeat(51), /at most 50/],
  ['courses', 'clockHours', '0', /between 1 and 2000/],
  ['courses', 'clockHours', '2001', /between 1 and 2000/],
  ['courses', 'clockHours', '37.25', /steps of 0.5/],
  ['courses', 'prerequisiteIds', '[1,', /JSON array/],
  ['courses', 'prerequisiteIds', '{"a":1}', /JSON array/],
  ['courses', 'prerequisiteIds', '1,2', /JSON array/],
  ['courses', 'prerequisiteIds', '["SIS-CRS-NOPE"]', /No course with SIS ID SIS-CRS-NOPE/],
  ['courses', 'prerequisiteIds', '[999999]', /No course with id 999999/],
  ['courses', 'prerequisiteIds', '["SIS-CRS-NUR101-RULE"]', /cannot be its own prerequisite/],
  ['courses', 'category', 'Lab', /Core, Elective, Clinical/],
  ['courses', 'transferCredits', 'Maybe', /Yes or No/],
  ['courses', 'isActive', 'perhaps', /true or false/],
  ['courses', 'passingGrade', '101', /between 0 and 100/],
  ['courses', 'syllabusUrl', 'ftp://files.example.edu/x', /http/],
  ['courses', 'programId', 'SIS-PRG-NOPE', /No program with SIS ID or id SIS-PRG-NOPE/],
  ['courses', 'programId', '', /required/],
  ['courses', 'courseCode', 'NUR-102', /already belongs to another course/],
  ['instructors', 'email', 'not-an-email', /valid e-mail/],
  ['instructors', 'employmentType', 'Contract', /Full-time, Part-time, Adjunct/],
  // 12/01/2020 is read as month/day/year now (decision 047); a two-digit year is still refused.
  ['instructors', 'hireDate', '12/01/20', /YYYY-MM-DD/],
  ['instructors', 'salary', '-5', /between 0/],
  ['instructors', 'role', 'super_admin', /instructor/],
  ['instructors', 'phone', 'call me', /phone number/],
  ['instructors', 'email', 'marcus.reyes@example.edu', /login of the instructor with SIS user ID SIS-USR-1002/],
  ['students', 'email', 'someone@', /valid e-mail/],
  ['students', 'dateOfBirth', '2001-02-29', /YYYY-MM-DD/],
  ['students', 'status', 'dropped', /enrolled/],
  ['students', 'socialSecurityNumber', '12345', /nine digits/],
  ['students', 'veteranStatus', 'maybe', /true or false/],
  ['students', 'programId', 'SIS-PRG-NOPE', /No program/],
  ['students', 'programId', '424242', /No program with SIS ID or id 424242/],
  ['students', 'firstName', '', /required/],
  ['schedules', 'dayOfWeek', '7', /0 \(Sunday\) and 6 \(Saturday\)/],
  ['schedules', 'dayOfWeek', 'Funday', /Sunday/],
  ['schedules', 'cohortNumber', '0', /between 1 and 30/],
  ['schedules', 'cohortNumber', '31', /between 1 and 30/],
  ['schedules', 'termNumber', '5', /between 1 and 4/],
  ['schedules', 'termNumber', '0', /between 1 and 4/],
  ['schedules', 'startTime', '25:00', /HH:MM/],
  ['schedules', 'endTime', '08:00', /differ from startTime/],
  ['schedules', 'courseEndDate', '2026-01-01', /before courseStartDate/],
  ['schedules', 'courseStartDate', '', /required/],
  ['schedules', 'courseId', 'SIS-CRS-NOPE', /No course/],
  ['schedules', 'instructorId', 'nobody@example.edu', /No instructor/],
  ['schedules', 'holidayExceptions', '2027-01-18 tomorrow', /YYYY-MM-DD/],
  ['schedules', 'capacity', '-1', /between 0/],
];

describe('each rule is refused with its row and column, and nothing is written', () => {
  it.each(CASES)('%s %s = %j', async (type, column, value, message) => {
    const before = await dataFingerprint(t.db);
    const res = await upload(t, admin, type, 'bad.csv', withCell(type, column, value));
    expect(res.statusCode, res.body).toBe(400);
    const body = res.json();
    expect(body).toMatchObject({ code: 'IMPORT_INVALID', created: 0, updated: 0 });
    expect(body.errors.length, JSON.stringify(body.errors)).toBeGreaterThan(0);
    for (const e of body.errors) expect(e, JSON.stringify(body.errors)).toMatchObject({ row: 2, column });
    expect(body.errors[0].message).toMatch(message);
    if (column === 'socialSecurityNumber') expect(body.errors[0].value).toBeUndefined();
    else if (value !== '') expect(body.errors[0].value).toBe(value.slice(0, 200));
    expect(await dataFingerprint(t.db)).toBe(before);
  });
});

describe('the file as a whole', () => {
  it('lists every problem of every row, in row order', async () => {
    const { header, rows } = templateRows(importType('programs'));
    const bad = rows.map((r, i) =>
      r.map((v, j) =>
        header[j] === 'durationHours' ? String(20_000 + i) : header[j] === 'sisProgramId' ? `NEW-${i}` : header[j] === 'programCode' ? `NEW-${i}` : v,
      ),
    );
    const res = await upload(t, admin, 'programs', 'p.csv', csv(header, bad));
    expect(res.json().errors.map((e: { row: number; column: string }) => `${e.row}:${e.column}`)).toEqual([
      '2:durationHours',
      '3:durationHours',
      '4:durationHours',
    ]);
    expect(res.json().message).toBe('Nothing was imported: 3 problems in the file');
  });

  it('flags duplicates inside the file: SIS ids exactly, course codes without case', async () => {
    const { header, rows } = templateRows(importType('courses'));
    const dup = [rows[0]!, rows[2]!, [...rows[0]!]];
    dup[1] = dup[1]!.map((v, j) => (header[j] === 'courseCode' ? 'nur-101' : header[j] === 'sisCourseId' ? 'SIS-OTHER' : v));
    const res = await upload(t, admin, 'courses', 'c.csv', csv(header, dup));
    const found = res.json().errors.map((e: { row: number; column: string; message: string }) => `${e.row}:${e.column}:${e.message}`);
    expect(found).toContain('3:courseCode:Duplicate courseCode: also on row 2');
    expect(found).toContain('4:sisCourseId:Duplicate sisCourseId: also on row 2');
  });

  it('refuses a header with missing required, unknown or repeated columns before reading rows', async () => {
    const missing = await upload(t, admin, 'students', 's.csv', 'firstName,lastName\nA,B\n');
    expect(missing.json().errors).toEqual([
      { row: 1, column: 'sisStudentId', message: 'Missing required column sisStudentId' },
      { row: 1, column: 'programId', message: 'Missing required column programId' },
    ]);
    const unknown = await upload(t, admin, 'programs', 'p.csv', 'sisProgramId,programName,favouriteColour\nX,Y,blue\n');
    expect(unknown.json().errors).toEqual([
      { row: 1, column: 'favouriteColour', message: 'Unknown column "favouriteColour": not a column of the programs template' },
    ]);
    const twice = await upload(t, admin, 'programs', 'p.csv', 'sisProgramId,programName,program_name\nX,Y,Z\n');
    expect(twice.json().errors).toEqual([{ row: 1, column: 'program_name', message: 'Column programName appears twice (also as "programName")' }]);
    const empty = await upload(t, admin, 'programs', 'p.csv', 'sisProgramId,programName\n\n\n');
    expect(empty.json().errors).toEqual([{ row: 1, column: '', message: 'The file has a header row but no data rows' }]);
    const nothing = await upload(t, admin, 'programs', 'p.csv', '');
    expect(nothing.json().errors[0].message).toMatch(/empty/);
  });

  it('refuses cells beyond the header and unreadable files with a row', async () => {
    const extra = await upload(t, admin, 'programs', 'p.csv', 'sisProgramId,programName\nX,Y,,\nZ,W,surprise\n');
    expect(extra.json().errors).toEqual([
      { row: 3, column: '(column 3)', value: 'surprise', message: 'This row has more cells than the header row (2 columns)' },
    ]);
    const unclosed = await upload(t, admin, 'programs', 'p.csv', 'sisProgramId,programName\nX,"Y\n');
    expect(unclosed.statusCode).toBe(400);
    expect(unclosed.json().errors[0].message).toMatch(/CSV could not be read/);
    const latin1 = await upload(t, admin, 'programs', 'p.csv', Buffer.from('sisProgramId,programName\nX,Caf\xe9\n', 'latin1'));
    expect(latin1.json().errors[0].message).toMatch(/not valid UTF-8/);
  });

  it('answers at most 1,000 problems but counts them all', async () => {
    const rows = Array.from({ length: 1500 }, (_, i) => [`BULK-${i}`, 'Bulk', '', '20000']);
    const res = await upload(t, admin, 'programs', 'p.csv', csv(['sisProgramId', 'programName', 'programCode', 'durationHours'], rows));
    expect(res.json().errors).toHaveLength(1000);
    expect(res.json().errorCount).toBe(1500);
    expect(res.json().errors[999].row).toBe(1001);
  });
});
