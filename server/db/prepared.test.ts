import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/helpers.ts';
import { executePrepared } from './prepared.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('executePrepared', () => {
  it('answers each call with its own values, as db.execute does, and prepares one named statement per text', async () => {
    const twice = (n: number) => sql`select ${n}::int * 2 as doubled, now() as at`;
    const answers = await Promise.all(
      [1, 2, 3, 4, 5, 6, 7, 8].map(async (n) => (await executePrepared<{ doubled: number; at: string }>(t.db, twice(n))).rows[0]!),
    );
    expect(answers.map((a) => a.doubled)).toEqual([2, 4, 6, 8, 10, 12, 14, 16]);
    // Timestamps arrive as text, as from db.execute (lib/sql-values.ts reads them).
    const plain = await t.db.execute<{ at: unknown }>(sql`select now() as at`);
    expect(typeof answers[0]!.at).toBe(typeof plain.rows[0]!.at);
    // On one connection, three calls prepare the text once: named, not one statement per call.
    const prepared = await t.db.transaction(async (tx) => {
      for (const n of [1, 2, 3]) await executePrepared(tx, twice(n));
      const { rows } = await tx.execute<{ n: number }>(
        sql`select count(*)::int as n from pg_prepared_statements where statement like 'select $1::int * 2 as doubled%'`,
      );
      return rows[0]!.n;
    });
    expect(prepared).toBe(1);
  });

  it('runs inside a transaction and sees its uncommitted rows', async () => {
    await t.db.transaction(async (tx) => {
      await tx.execute(sql`create temporary table prepared_probe (v int) on commit drop`);
      await tx.execute(sql`insert into prepared_probe values (41)`);
      const { rows } = await executePrepared<{ v: number }>(tx, sql`select v + ${1}::int as v from prepared_probe`);
      expect(rows).toEqual([{ v: 42 }]);
    });
  });
});
