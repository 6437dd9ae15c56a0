import { parse } from 'csv-parse/sync';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STUDENT_EXPORT_COLUMNS } from '../../../common/students.ts';
import { buildProgram, buildStudent } from '../../test/factories.ts';
import { auditEntries, createTestApp, fixedClock, type TestApp } from '../../test/helpers.ts';
import type { StudentStatus } from '../../../common/constants.ts';

// Decision 033: the Students screen's Program and Status filters, and its CSV export of the
// filtered list (no SSN, formula-safe, audited, need-to-know).

let t: TestApp;
let admin: string, support: string, instructor: string;
let nursing: number, welding: number;

const records = (body: string) => parse(body, { columns: true }) as Record<string, string>[];
const get = (cookie: string, url: string) => t.app.inject({ url, headers: { cookie } });
const lastNames = (res: { json: () => { lastName: string }[] }) =>
  res
    .json()
    .map((s) => s.lastName)
    .sort();

beforeAll(async () => {
  t = await createTestApp({ clock: fixedClock('2027-03-02T15:00:00Z') });
  admin = (await t.signedIn('it_admin')).cookie;
  support = (await t.signedIn('support_staff')).cookie;
  instructor = (await t.signedIn('instructor')).cookie;
  nursing = (await buildProgram(t.db, { programName: 'Practical Nursing' })).id;
  welding = (await buildProgram(t.db, { programName: 'Welding' })).id;
  // [last name, program, status, SIS id]; the SIS id of one starts like a spreadsheet formula.
  const rows: [string, number | null, StudentStatus, string][] = [
    ['Alpha', nursing, 'enrolled', 'N-1'],
    ['Bravo', nursing, 'loa', '=HYPERLINK("http://x","y")'],
    ['Charlie', welding, 'enrolled', 'W-1'],
    ['Delta', welding, 'withdrawn', '@SUM(1)'],
    ['Echo', null, 'enrolled', '-2+3'],
  ];
  for (const [last, programId, status, sis] of rows) {
    await buildStudent(t.db, {
      firstName: 'Filter',
      lastName: last,
      email: `${last.toLowerCase()}@filter.edu`,
      programId,
      status,
      sisStudentId: sis,
      ssnEncrypted: 'v1.secret',
      ssnLast4: '6789',
    });
  }
});
afterAll(() => t.close());

describe('GET /api/students filters', () => {
  it('narrows by program, by status, and by both with the search; the total follows', async () => {
    expect(lastNames(await get(support, `/api/students?programId=${nursing}`))).toEqual(['Alpha', 'Bravo']);
    expect(lastNames(await get(support, '/api/students?status=enrolled&search=Filter'))).toEqual(['Alpha', 'Charlie', 'Echo']);
    const both = await get(support, `/api/students?programId=${welding}&status=enrolled&search=filter&page=1&pageSize=10`);
    expect(lastNames(both)).toEqual(['Charlie']);
    expect(both.headers['x-total-count']).toBe('1');
    // The old name of the leave status still filters; a blank value is no filter.
    expect(lastNames(await get(support, '/api/students?status=on_leave'))).toEqual(['Bravo']);
    expect((await get(support, '/api/students?status=&programId=')).json()).toHaveLength(5);
  });

  it('refuses a bad value with a 400 naming the field, never a 500', async () => {
    for (const [query, field] of [
      ['status=dreaming', 'status'],
      ['programId=abc', 'programId'],
      ['programId=0', 'programId'],
      ['programId=99999999999', 'programId'],
    ] as const) {
      const res = await get(support, `/api/students?${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(
        res.json().errors.map((e: { field: string }) => e.field),
        query,
      ).toContain(field);
      expect((await get(admin, `/api/students/export?${query}`)).statusCode, `export ${query}`).toBe(400);
    }
  });

  it('keeps the SPEC list unchanged without filters', async () => {
    const res = await get(support, '/api/students');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toHaveLength(5);
    expect(Object.keys(res.json()[0]).sort()).toEqual(
      ['email', 'enrollmentDate', 'firstName', 'id', 'lastDateOfAttendance', 'lastName', 'phone', 'programId', 'programName', 'sisStudentId', 'status'].sort(),
    );
  });
});

describe('GET /api/students/export', () => {
  it('is the filtered list as CSV with the export columns, every page, never an SSN', async () => {
    const res = await get(admin, `/api/students/export?programId=${nursing}&sort=name&order=desc&pageSize=1`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe('attachment; filename="students_export_2027-03-02.csv"');
    expect(res.body.split(/\r?\n/)[0]).toBe(STUDENT_EXPORT_COLUMNS.join(','));
    const rows = records(res.body);
    // Sorted as asked; pageSize is not an export parameter and is ignored by its schema.
    expect(rows.map((r) => r.lastName)).toEqual(['Bravo', 'Alpha']);
    expect(rows[1]).toMatchObject({
      firstName: 'Filter',
      email: 'alpha@filter.edu',
      programId: String(nursing),
      programName: 'Practical Nursing',
      status: 'enrolled',
      sisStudentId: 'N-1',
    });
    expect(res.body).not.toMatch(/ssn|6789|secret/i);
    const enrolled = records((await get(support, '/api/students/export?status=enrolled&search=filter')).body);
    expect(enrolled.map((r) => r.lastName).sort()).toEqual(['Alpha', 'Charlie', 'Echo']);
  });

  it('writes a list longer than one read (2,000 rows) whole, in order, each student once', async () => {
    const big = (await buildProgram(t.db, { programName: 'Cosmetology' })).id;
    // 4,500 students in one statement: the volume is what this test is about.
    await t.db.execute(sql`
      insert into students (first_name, last_name, program_id, status, sis_student_id)
      select 'Many', 'Student ' || lpad(g::text, 5, '0'), ${big}, 'enrolled', 'MANY-' || g from generate_series(1, 4500) g`);
    const res = await get(admin, `/api/students/export?programId=${big}&sort=name&order=asc`);
    expect(res.statusCode).toBe(200);
    const rows = records(res.body);
    expect(rows).toHaveLength(4500);
    expect(new Set(rows.map((r) => r.sisStudentId)).size).toBe(4500);
    expect(rows.map((r) => r.lastName)).toEqual(Array.from({ length: 4500 }, (_, k) => `Student ${String(k + 1).padStart(5, '0')}`));
    expect((await auditEntries(t.db, 'students')).at(-1)).toMatchObject({ action: 'Export', new_values: { rows: 4500 } });
  });

  it('neutralises cells a spreadsheet would run as formulas', async () => {
    const rows = records((await get(admin, '/api/students/export?search=filter')).body);
    const sis = Object.fromEntries(rows.map((r) => [r.lastName, r.sisStudentId]));
    expect(sis).toMatchObject({ Bravo: `'=HYPERLINK("http://x","y")`, Delta: "'@SUM(1)", Echo: "'-2+3", Alpha: 'N-1' });
  });

  it('is audited with its filters and row count', async () => {
    await get(support, `/api/students/export?status=withdrawn`);
    expect((await auditEntries(t.db, 'students')).at(-1)).toMatchObject({
      action: 'Export',
      new_values: { filters: { status: 'withdrawn' }, rows: 1, fileName: 'students_export_2027-03-02.csv' },
    });
  });

  it('is refused to instructors (403) and to anyone signed out (401)', async () => {
    const before = (await auditEntries(t.db, 'students')).length;
    expect((await get(instructor, '/api/students/export')).statusCode).toBe(403);
    expect((await t.app.inject({ url: '/api/students/export' })).statusCode).toBe(401);
    expect(await auditEntries(t.db, 'students')).toHaveLength(before);
  });
});
