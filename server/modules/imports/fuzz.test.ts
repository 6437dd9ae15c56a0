import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UPLOAD_TYPES, type UploadType } from '../../../common/constants.ts';
import { importType, templateRows } from '../../../common/import-columns.ts';
import { systemClock } from '../../lib/clock.ts';
import { createFieldCipher } from '../../lib/field-cipher.ts';
import { createTestApp, type TestApp } from '../../test/helpers.ts';
import { runImport, type ImportDeps } from './engine.ts';
import { csv, dataCounts, upload, writeStamp } from '../../test/import-support.ts';

// Thousands of malformed files thrown at the importer: never a 5xx (the engine never throws),
// never a partial write (a refused or dry-run file changes nothing; an accepted one adds exactly
// what it reported).
let t: TestApp;
let admin: string;
let deps: ImportDeps;
let actorId: number;
beforeAll(async () => {
  t = await createTestApp();
  const who = await t.signedIn('super_admin');
  admin = who.cookie;
  actorId = who.userId;
  deps = { db: t.db, clock: systemClock, cipher: createFieldCipher(randomBytes(32)) };
  for (const type of ['programs', 'courses', 'instructors'] as const) {
    const { header, rows } = templateRows(importType(type));
    const res = await upload(t, admin, type, `${type}.csv`, csv(header, rows));
    if (res.statusCode !== 200) throw new Error(res.body);
  }
});
afterAll(() => t.close());

const TABLE_OF: Record<UploadType, 'programs' | 'courses' | 'users' | 'students' | 'schedules'> = {
  programs: 'programs',
  courses: 'courses',
  instructors: 'users',
  students: 'students',
  schedules: 'schedules',
};

/** A cell: a real sample, a near miss, random text, quotes and separators, or a huge value. */
const cellArb = (type: UploadType): fc.Arbitrary<string> => {
  const samples = importType(type).columns.flatMap((c) => c.samples);
  return fc.oneof(
    { weight: 5, arbitrary: fc.constantFrom(...samples) },
    { weight: 2, arbitrary: fc.string({ maxLength: 20 }) },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 12 }) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        '',
        ' ',
        '"',
        '""',
        '","',
        '\n',
        '\r\n',
        'a"b',
        '\u0000',
        '[1,',
        '[]',
        '["SIS-CRS-NUR101"]',
        '-1',
        '1e309',
        '2027-02-30',
        '99:99',
        'NaN',
        'null',
        '\uFEFF',
        '😀',
        '=cmd()',
      ),
    },
    { weight: 1, arbitrary: fc.integer({ min: -5, max: 400 }).map(String) },
    { weight: 1, arbitrary: fc.nat({ max: 120_000 }).map((n) => 'x'.repeat(n)) },
  );
};

/** Quote a cell properly, not at all, or wrongly. */
const quoted = (cell: string, how: number) => (how === 0 ? cell : how === 1 ? `"${cell.replace(/"/g, '""')}"` : how === 2 ? `"${cell}` : `${cell}"`);

const fileArb = fc.constantFrom(...UPLOAD_TYPES).chain((type) => {
  const names = importType(type).columns.map((c) => c.name);
  const headerArb = fc.oneof(
    { weight: 4, arbitrary: fc.shuffledSubarray(names, { minLength: 1 }) },
    { weight: 2, arbitrary: fc.constant(names) },
    { weight: 1, arbitrary: fc.array(fc.oneof(fc.constantFrom(...names), fc.string({ maxLength: 10 })), { maxLength: 30 }) },
  );
  return fc.record({
    type: fc.constant(type),
    header: headerArb,
    rows: fc.array(fc.array(fc.tuple(cellArb(type), fc.nat({ max: 7 })), { maxLength: 30 }), { maxLength: 12 }),
    eol: fc.constantFrom('\n', '\r\n', '\r'),
    bom: fc.boolean(),
    dryRun: fc.boolean(),
  });
});

/** Template rows made new (unique keys) with a few cells swapped for noise: some pass, some do not. */
const UNIQUE_COLUMNS = ['programCode', 'courseCode', 'username', 'employeeId'];
const templateFileArb = fc.constantFrom(...UPLOAD_TYPES).chain((type) => {
  const { header, rows } = templateRows(importType(type));
  const key = importType(type).key;
  const mutation = fc.tuple(fc.nat({ max: rows.length - 1 }), fc.nat({ max: header.length - 1 }), cellArb(type));
  return fc
    .record({
      type: fc.constant(type),
      tag: fc.string({ unit: fc.constantFrom(...'ABCDEFGHJKLMNPQRSTUVWXYZ23456789'), minLength: 8, maxLength: 8 }),
      mutations: fc.array(mutation, { maxLength: 2 }),
      eol: fc.constantFrom('\n', '\r\n'),
      bom: fc.boolean(),
      dryRun: fc.boolean(),
    })
    .map((f) => {
      const fresh = rows.map((r) =>
        r.map((v, j) => {
          const name = header[j]!;
          if (name === key || UNIQUE_COLUMNS.includes(name)) return `${v}-${f.tag}`;
          if (name === 'email' && type === 'instructors') return `${f.tag.toLowerCase()}.${v}`;
          return v;
        }),
      );
      for (const [i, j, cell] of f.mutations) fresh[i]![j] = cell;
      return { type, header: [...header], rows: fresh.map((r) => r.map((c) => [c, 1] as [string, number])), eol: f.eol, bom: f.bom, dryRun: f.dryRun };
    });
});

const render = (f: { header: string[]; rows: [string, number][][]; eol: string; bom: boolean }) =>
  (f.bom ? '\uFEFF' : '') + [f.header.join(','), ...f.rows.map((r) => r.map(([c, how]) => quoted(c, how > 3 ? 1 : how)).join(','))].join(f.eol) + f.eol;

/** The imported tables' fingerprint and row counts, carried from one run to the next (nothing else writes). */
let last: { fp: string; counts: Record<string, number> } | null = null;
const state = async () => ({ fp: await writeStamp(t.db), counts: await dataCounts(t.db) });
let accepted = 0;

async function checkOne(type: UploadType, body: Buffer, dryRun: boolean) {
  const before = last ?? (await state());
  const outcome = await runImport(deps, { type, fileName: 'fuzz.csv', buffer: body, kind: 'csv', dryRun, actorId, ip: null });
  if (!outcome.ok || dryRun) {
    last = before;
    expect(await writeStamp(t.db)).toBe(before.fp);
    if (!outcome.ok) {
      expect([400, 409]).toContain(outcome.status);
      expect(outcome.result.errors.length).toBeGreaterThan(0);
      for (const e of outcome.result.errors) expect(JSON.stringify(e).length).toBeLessThan(2000);
    }
  } else {
    accepted += 1;
    last = await state();
    expect(last.counts[TABLE_OF[type]]! - before.counts[TABLE_OF[type]]!).toBe(outcome.result.created);
  }
}

describe('the importer under malformed input', () => {
  it('never throws and never writes part of a file: structured CSV noise, straight into the engine', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(fileArb, templateFileArb), async (f) => checkOne(f.type, Buffer.from(render(f), 'utf8'), f.dryRun)),
      { numRuns: 1100 },
    );
    // The noise must sometimes be a valid file, or "nothing partial" would be proven on refusals only.
    expect(accepted).toBeGreaterThan(20);
  }, 60_000);

  it('never throws on random bytes', async () => {
    const bytes = fc.oneof(
      fc.uint8Array({ maxLength: 3000 }),
      fc.string({ unit: 'binary', maxLength: 500 }).map((s) => new Uint8Array(Buffer.from(s, 'utf8'))),
    );
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...UPLOAD_TYPES), bytes, fc.boolean(), async (type, b, dryRun) => checkOne(type, Buffer.from(b), dryRun)),
      { numRuns: 500 },
    );
  }, 60_000);

  it('answers no 5xx through the HTTP API either', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(fileArb, templateFileArb), fc.constantFrom('csv', 'csv', 'xlsx', 'xls', 'txt'), async (f, ext) => {
        const before = await writeStamp(t.db);
        const res = await upload(t, admin, f.type, `fuzz.${ext}`, Buffer.from(render(f), 'utf8'), f.dryRun ? '?dryRun=true' : '');
        expect(res.statusCode, res.body.slice(0, 300)).toBeLessThan(500);
        expect(res.headers['content-type']).toMatch(/json/);
        if (res.statusCode !== 200 || f.dryRun) expect(await writeStamp(t.db)).toBe(before);
      }),
      { numRuns: 200 },
    );
  }, 60_000);
});
