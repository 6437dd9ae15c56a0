import * as XLSX from '@e965/xlsx';
import { sql } from 'drizzle-orm';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createTestApp, fixedClock, type TestApp } from '../../test/helpers.ts';

import { csv, dataFingerprint, upload, uploadTemplates } from '../../test/import-support.ts';

import { readImportFile, readImportFileInParts } from './read-file.ts';

// A students file is read and staged 5,000 rows at a time (engine.ts, decision 028): the rules
// that look across rows must hold across parts exactly as within one.
let t: TestApp;
let admin: string;

beforeAll(async () => {
  t = await createTestApp({ clock: fixedClock('2027-01-04T15:00:00Z') });
  admin = (await t.signedIn('super_admin')).cookie;
  await uploadTemplates(t, admin, ['programs', 'courses', 'instructors', 'schedules']);
});
afterAll(() => t.close());

const HEADER = ['sisStudentId', 'firstName', 'lastName', 'email', 'programId', 'socialSecurityNumber'];
const NAMES = ['Tomás', 'Zoë', 'Łukasz', 'Ana'];
/** Row k of the file is data row k + 2 (the header is row 1). */
const rows = (n: number, prefix: string, program = 'SIS-PRG-PN') =>
  Array.from({ length: n }, (_, k) => [
    `${prefix}-${String(k).padStart(5, '0')}`,
    NAMES[k % NAMES.length]!,
    `Nguyễn ${k}`,
    `${prefix.toLowerCase()}${k}@stu.example.edu`,
    program,
    `90${String(k).padStart(7, '0')}`,
  ]);

describe('a students file of many parts', () => {
  it('reads the same cells, accented names included, whether in parts or whole', async () => {
    const file = Buffer.from(csv(HEADER, rows(12_345, 'READ')), 'utf8');
    const whole = readImportFile(file, 'csv');
    const parts = [];
    for await (const part of readImportFileInParts(file, 'csv', 5000)) parts.push(part);
    expect(parts.map((p) => p.size)).toEqual([5000, 5000, 2345]);
    expect(parts.flatMap((p) => p.records)).toEqual(whole.records);
    expect(parts.flatMap((p) => p.rows)).toEqual(whole.rows);
  });

  it('reads a spreadsheet in parts too, blank rows skipped and row numbers kept', async () => {
    const sheet = [HEADER, ...rows(5_000, 'SHEET').slice(0, 2_500), [], ...rows(5_000, 'SHEET').slice(2_500)];
    const book = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet(sheet), 'Students');
    const file = XLSX.write(book, { type: 'buffer', bookType: 'xlsx' }) as Buffer;
    const whole = readImportFile(file, 'xlsx');
    const parts = [];
    for await (const part of readImportFileInParts(file, 'xlsx', 2_000)) parts.push(part);
    expect(parts.map((p) => p.size)).toEqual([2000, 2000, 1000]);
    expect(parts.flatMap((p) => p.records)).toEqual(whole.records);
    // The blank row (row 2,502) is skipped; the next row keeps its own number.
    expect(parts.flatMap((p) => p.rows).slice(2_499, 2_501)).toEqual([2_501, 2_503]);
  });

  it('imports 12,000 students with their rosters, then counts a re-import as updates', async () => {
    const file = csv(HEADER, rows(12_000, 'PARTS'));
    const first = await upload(t, admin, 'students', 'parts.csv', file);
    expect(first.statusCode, first.body.slice(0, 300)).toBe(200);
    expect(first.json()).toMatchObject({ rows: 12_000, created: 12_000, updated: 0 });
    const {
      rows: [stored],
    } = await t.db.execute<{ students: number; rostered: number; ssn: number; tomas: string }>(sql`
      select count(*)::int as students,
             (select count(distinct r.student_id)::int from schedule_rosters r join students s on s.id = r.student_id where s.sis_student_id like 'PARTS-%') as rostered,
             count(*) filter (where ssn_encrypted like 'v1.%' and ssn_last4 ~ '^[0-9]{4}$')::int as ssn,
             (select first_name || ' ' || last_name from students where sis_student_id = 'PARTS-08000') as tomas
        from students where sis_student_id like 'PARTS-%'`);
    expect(stored).toEqual({ students: 12_000, rostered: 12_000, ssn: 12_000, tomas: 'Tomás Nguyễn 8000' });
    const again = await upload(t, admin, 'students', 'parts.csv', file, '?dryRun=true');
    expect(again.json()).toMatchObject({ rows: 12_000, created: 0, updated: 12_000, dryRun: true });
  });

  it('refuses a key repeated in a later part, and a bad program there, naming the rows, and writes nothing', async () => {
    const data = rows(11_000, 'DUP');
    data[10_500]![0] = 'DUP-00003';
    data[7_000]![4] = 'NO-SUCH-PROGRAM';
    const before = await dataFingerprint(t.db);
    const res = await upload(t, admin, 'students', 'dup.csv', csv(HEADER, data));
    expect(res.statusCode).toBe(400);
    expect(res.json().errorCount).toBe(2);
    expect(res.json().errors).toEqual([
      expect.objectContaining({ row: 7_002, column: 'programId', message: 'No program with SIS ID or id NO-SUCH-PROGRAM' }),
      expect.objectContaining({ row: 10_502, column: 'sisStudentId', message: 'Duplicate sisStudentId: also on row 5' }),
    ]);
    expect(await dataFingerprint(t.db)).toBe(before);
  });

  it('refuses data under no header even when it first appears in a later part', async () => {
    const data = rows(6_000, 'NOHEAD').map((r) => [...r, '']);
    data[5_500]![HEADER.length] = 'stray';
    const res = await upload(t, admin, 'students', 'stray.csv', csv([...HEADER, ''], data));
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual([expect.objectContaining({ row: 5_502, column: '(column 7)', message: 'This cell is in a column with no header' })]);
  });
});
