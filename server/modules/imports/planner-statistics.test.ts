import { sql } from 'drizzle-orm';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createTestApp, fixedClock, type TestApp } from '../../test/helpers.ts';

import { csv, upload, uploadTemplates } from '../../test/import-support.ts';

// An import leaves the planner statistics of what it changed (decision 055): the morning's first
// check-in after a large import must not scan every student for want of them.
let t: TestApp;
let admin: string;

beforeAll(async () => {
  t = await createTestApp({ clock: fixedClock('2027-01-04T15:00:00Z') });
  admin = (await t.signedIn('super_admin')).cookie;
  await uploadTemplates(t, admin, ['programs', 'courses', 'instructors', 'schedules']);
});
afterAll(() => t.close());

const HEADER = ['sisStudentId', 'firstName', 'lastName', 'email', 'programId'];
const students = (n: number, prefix: string) =>
  Array.from({ length: n }, (_, k) => [`${prefix}-${k}`, 'Ana', `Lopez ${k}`, `${prefix.toLowerCase()}${k}@stu.example.edu`, 'SIS-PRG-PN']);

async function statistics(table: string) {
  const { rows } = await t.db.execute<{ analysed: boolean; reltuples: number; at: string | null }>(sql`
    select s.last_analyze is not null as analysed, c.reltuples::int as reltuples, s.last_analyze::text as at
      from pg_stat_user_tables s join pg_class c on c.oid = s.relid where s.relname = ${table}`);
  return rows[0]!;
}

describe('statistics after an import', () => {
  it('analyses the students and the rosters a large import wrote, before answering', async () => {
    expect((await statistics('students')).analysed).toBe(false);
    const res = await upload(t, admin, 'students', 'students.csv', csv(HEADER, students(600, 'BIG')));
    expect(res.statusCode, res.body).toBe(200);
    const after = await statistics('students');
    expect(after).toMatchObject({ analysed: true, reltuples: 600 });
    // The import put the enrolled students on their program's schedules: those rows are known too.
    const rosters = await statistics('schedule_rosters');
    expect(rosters.analysed).toBe(true);
    expect(rosters.reltuples).toBeGreaterThan(0);
  });

  it('leaves a table alone when an import changed only a few of its rows', async () => {
    const before = await statistics('students');
    const res = await upload(t, admin, 'students', 'few.csv', csv(HEADER, students(10, 'FEW')));
    expect(res.statusCode, res.body).toBe(200);
    expect(await statistics('students')).toEqual(before);
  });

  it('writes nothing and analyses nothing on a dry run', async () => {
    const before = await statistics('students');
    const res = await upload(t, admin, 'students', 'dry.csv', csv(HEADER, students(400, 'DRY')), '?dryRun=true');
    expect(res.statusCode, res.body).toBe(200);
    expect(JSON.parse(res.body)).toMatchObject({ dryRun: true, created: 400 });
    expect(await statistics('students')).toEqual(before);
  });
});
