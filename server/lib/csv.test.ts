import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'csv-parse/sync';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { csvStream, csvText, neutraliseCell, restoreCell } from './csv.ts';

/** The values of the outside review and the issue: each would run as a formula if written raw. */
const FORMULA_VALUES = ['=1+2', '=HYPERLINK("http://x","y")', '@SUM(1)', '-2+3', '\t=1', '+1 555 0100', '\r=1'];

async function streamed(columns: string[], records: Record<string, unknown>[]): Promise<string> {
  const csv = csvStream(columns);
  const chunks: Buffer[] = [];
  csv.on('data', (c: Buffer) => chunks.push(Buffer.from(c)));
  const done = new Promise((resolve, reject) => csv.on('end', resolve).on('error', reject));
  for (const r of records) csv.write(r);
  csv.end();
  await done;
  return Buffer.concat(chunks).toString('utf8');
}

describe('CSV cells that a spreadsheet would run as formulas', () => {
  it('get a leading apostrophe', () => {
    for (const v of FORMULA_VALUES) expect(neutraliseCell(v)).toBe(`'${v}`);
    expect(neutraliseCell('\uFF1D1+2')).toBe("'\uFF1D1+2");
  });

  it('leave plain numbers, ISO dates and ordinary text alone', () => {
    for (const v of [
      '-3',
      '12.5',
      '+4',
      '-0.5',
      '-1.5e3',
      '2026-02-03',
      '2026-02-03T14:00:00.000Z',
      'Ana',
      'a=b',
      ' =1',
      '(555) 010-0100',
      '',
      "'",
      "'abc",
      "'-3",
    ]) {
      expect(neutraliseCell(v)).toBe(v);
    }
  });

  it('restoreCell undoes exactly what neutraliseCell added, for any text', () => {
    for (const v of [...FORMULA_VALUES, "'=1", "''=1", "'abc", "'-3", '-3']) expect(restoreCell(neutraliseCell(v))).toBe(v);
    expect(restoreCell("'abc")).toBe("'abc");
    expect(restoreCell("'12")).toBe("'12");
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom("'", '=', '+', '-', '@', '\t', '\r', '1', '.', 'e', 'a', ' ') }),
        (v) => restoreCell(neutraliseCell(v)) === v,
      ),
      { numRuns: 5000 },
    );
  });

  it('the streamed writer neutralises text (also inside JSON objects) but not numbers, booleans or instants', async () => {
    const body = await streamed(
      ['name', 'n', 'flag', 'at', 'json', 'none'],
      [
        ...FORMULA_VALUES.map((v) => ({ name: v, n: -3, flag: true, at: new Date('2026-02-03T14:00:00Z'), json: null, none: undefined })),
        { name: 'Ana', n: 12.5, flag: false, at: null, json: ['=1+2'], none: null },
      ],
    );
    const rows = parse(body, { columns: true }) as Record<string, string>[];
    expect(rows.map((r) => r.name)).toEqual([...FORMULA_VALUES.map((v) => `'${v}`), 'Ana']);
    expect(rows[0]).toMatchObject({ n: '-3', flag: 'true', at: '2026-02-03T14:00:00.000Z', json: '', none: '' });
    expect(rows.at(-1)).toMatchObject({ n: '12.5', flag: 'false', json: '["=1+2"]' });
    // Every cell of the file, as a spreadsheet would see it: none starts a formula.
    for (const r of parse(body) as string[][]) for (const cell of r) expect(cell).not.toMatch(/^[=+@\t\r]|^-(?!\d+(\.\d+)?$)/);
  });

  it('the whole-file writer does the same, with CRLF and an optional byte-order mark', () => {
    const text = csvText(
      [
        ['sisStudentId', 'phone'],
        ['=1+2', '@SUM(1)'],
        ['S-1', '-3'],
      ],
      { bom: true },
    );
    expect(text).toBe("\uFEFFsisStudentId,phone\r\n'=1+2,'@SUM(1)\r\nS-1,-3\r\n");
  });
});

describe('one home for the CSV writer', () => {
  it('no other server file uses csv-stringify', () => {
    const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
    const users = (fs.readdirSync(root, { recursive: true }) as string[])
      .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
      .filter((f) => /from 'csv-stringify/.test(fs.readFileSync(path.join(root, f), 'utf8')));
    expect(users).toEqual([path.join('lib', 'csv.ts')]);
  });
});
