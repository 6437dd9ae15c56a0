import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import * as XLSX from '@e965/xlsx';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TABULAR_LIMITS, checkTabularLimits, readTabular } from '../../lib/tabular-file.ts';
import { biffMulrk, sheetXml, xlsxFile } from '../../test/spreadsheet-files.ts';
import { createTestApp, createTestDatabase, multipart, type TestApp } from '../../test/helpers.ts';
import { upload } from '../../test/import-support.ts';

/**
 * A 0.8 MB .xlsx once inflated to 1.7 GB of memory. Every accepted upload (10 MB at most)
 * must stay under 300 MB: a file is measured before it is parsed and refused with a 400 naming
 * the limit. The whole test file runs in one process, whose peak memory is checked at the end.
 */
const X = '<c t="inlineStr"><is><t>x</t></is></c>';
const run = promisify(execFile);
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const CHILD = path.join(ROOT, 'server/test/upload-memory-child.ts');
const measured: string[] = [];
const HEADER = ['sisStudentId', 'firstName', 'lastName'];
let t: TestApp;
let admin: string;
let bomb: Buffer, lyingBomb: Buffer, cellBomb: Buffer, rangeBomb: Buffer;

beforeAll(async () => {
  t = await createTestApp();
  admin = (await t.signedIn('it_admin')).cookie;
  // 200,000 rows of 20 cells: ~150 MB of XML in a ~0.6 MB file (SheetJS took ~1 GB for it).
  bomb = await xlsxFile(() => sheetXml(HEADER, 200_000, X.repeat(20)));
  // The same, with a directory that claims the sheet is 1 KB.
  lyingBomb = await xlsxFile(() => sheetXml(HEADER, 200_000, X.repeat(20)), { declaredSheetSize: 1000 });
  // Under the size limit but 500,000 cells.
  cellBomb = await xlsxFile(() => sheetXml(HEADER, 25_000, X.repeat(20)));
  // Two cells, but a used range of 50,000 rows x 702 columns for sheet_to_json to walk.
  rangeBomb = await xlsxFile(function* () {
    yield Buffer.from('<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>');
    yield Buffer.from(`<row r="1"><c r="A1" t="inlineStr"><is><t>sisStudentId</t></is></c></row><row r="50000"><c r="ZZ50000"><v>1</v></c></row>`);
    yield Buffer.from('</sheetData></worksheet>');
  });
});
afterAll(() => t.close());

const uploadCount = async () => (await t.db.execute<{ n: number }>(sql`select count(*)::int as n from file_uploads where status = 'failed'`)).rows[0]!.n;

describe('files too big to read are refused before parsing', () => {
  it('a zip bomb .xlsx: 400 naming the unpacked-size limit, quickly, and recorded as a failed upload', async () => {
    expect(bomb.length).toBeLessThan(1024 * 1024);
    const before = await uploadCount();
    const started = Date.now();
    const res = await upload(t, admin, 'students', 'students.xlsx', bomb);
    expect(res.statusCode).toBe(400);
    expect(res.json().errors[0].message).toMatch(/unpacks to more than 20 MB/);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(await uploadCount()).toBe(before + 1);
  });

  it('a zip whose directory lies about sizes is stopped at the same ceiling while inflating', async () => {
    const res = await upload(t, admin, 'students', 'students.xlsx', lyingBomb);
    expect(res.statusCode).toBe(400);
    expect(res.json().errors[0].message).toMatch(/unpacks to more than 20 MB/);
  });

  it('too many cells, or a used range that is too large, are refused naming the cell limit', async () => {
    for (const file of [cellBomb, rangeBomb]) {
      const res = await upload(t, admin, 'students', 'students.xlsx', file);
      expect(res.statusCode).toBe(400);
      expect(res.json().errors[0].message).toMatch(/more than 300,000 cells \(rows x columns\)/);
    }
  });

  it('the courses screen refuses the same files with a 400 naming the limit', async () => {
    const body = multipart('courses.xlsx', bomb);
    const res = await t.app.inject({ method: 'POST', url: '/api/courses/bulk-upload', headers: { cookie: admin, ...body.headers }, payload: body.payload });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'FILE_TOO_BIG_TO_READ' });
    expect(res.json().message).toMatch(/20 MB/);
  });

  it('a CSV with more than 100,000 data rows is refused before parsing, naming the limit', async () => {
    const csv = 'sisStudentId,firstName,lastName\n' + 'S,A,B\n'.repeat(TABULAR_LIMITS.maxRows + 5);
    const res = await upload(t, admin, 'students', 'students.csv', csv);
    expect(res.statusCode).toBe(400);
    expect(res.json().errors[0].message).toMatch(/more than 100,000 data rows/);
    expect(() => checkTabularLimits(Buffer.from('a,b\n' + 'x,y\n'.repeat(1000)), 'csv')).not.toThrow();
    expect(() => checkTabularLimits(Buffer.from('a' + ',a'.repeat(99) + '\n' + ('1' + ',1'.repeat(99) + '\n').repeat(25_000)), 'csv')).toThrow(
      /more than 2,000,000 cells/,
    );
  });

  it('an .xls is measured by its cell records; a file that is not what its name says is refused', () => {
    expect(() => checkTabularLimits(biffMulrk(2000, 250), 'xls')).toThrow(/more than 300,000 cells/);
    expect(() => checkTabularLimits(biffMulrk(10, 10), 'xls')).not.toThrow();
    expect(() => checkTabularLimits(Buffer.from('<html><table><tr><td>1</td></tr></table></html>'), 'xls')).toThrow(/not a real \.xls/);
    expect(() => checkTabularLimits(Buffer.from('sisStudentId,firstName\nS1,Ana\n'), 'xlsx')).toThrow(/not a real \.xlsx/);
  });

  it('real spreadsheets within the limits still import (.xlsx and .xls)', () => {
    const wb = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet([HEADER, ['S-1', 'Ana', 'Diaz'], ['S-2', 'Bo', 'Lee']]), 'Students');
    for (const bookType of ['xlsx', 'biff8'] as const) {
      const file = XLSX.write(wb, { type: 'buffer', bookType }) as Buffer;
      expect(readTabular(file, bookType === 'xlsx' ? 'xlsx' : 'xls').rows.map((r) => r.values.firstName)).toEqual(['Ana', 'Bo']);
    }
  });

  it('a server process grows by less than 140 MB (300 MB at 160 MB at rest) for the bomb and for the largest files within the limits', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'muster-limits-'));
    const database = await createTestDatabase();
    try {
      const files: [string, Buffer | (() => Promise<Buffer>)][] = [
        ['bomb.xlsx', bomb],
        ['at-cell-limit.xlsx', () => xlsxFile(() => sheetXml(HEADER, 14_990, X.repeat(20)))],
        ['long-text.xlsx', () => xlsxFile(() => sheetXml(HEADER, 380, `<c t="inlineStr"><is><t>${'y'.repeat(5200)}</t></is></c>`.repeat(10)))],
        ['at-cell-limit.csv', async () => Buffer.from('a' + ',a'.repeat(19) + '\n' + ('1' + ',1'.repeat(19) + '\n').repeat(99_990))],
      ];
      for (const [name, make] of files) {
        const file = path.join(dir, name);
        fs.writeFileSync(file, typeof make === 'function' ? await make() : make);
        const { stdout } = await run(process.execPath, ['--import', 'tsx', CHILD, database.url, file, 'students'], { cwd: ROOT });
        const out = JSON.parse(stdout.trim().split('\n').at(-1)!) as { status: number; message: string; baselineMb: number; peakMb: number };
        measured.push(`${name} ${(fs.statSync(file).size / 1024).toFixed(0)} KB: peak ${out.peakMb} MB (server at rest ${out.baselineMb} MB)`);
        expect(out.status, name).toBe(400);
        // The budget: 300 MB for a server that rests at 160 MB (lib/tabular-file.ts), so 140 MB above
        // rest. This child runs under tsx, whose compiled sources make it rest at ~185 MB and grow
        // as the app does; what a file may cost is measured from the child's own rest.
        expect(out.peakMb - out.baselineMb, `${name}: ${out.message}`).toBeLessThan(140);
      }
    } finally {
      await database.drop();
      fs.rmSync(dir, { recursive: true, force: true });
      console.log(measured.join('\n'));
    }
  }, 120_000);
});
