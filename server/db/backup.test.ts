import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from './client.ts';
import { backupFileName, readBackupHeader, restoreBackup, writeBackup } from './backup.ts';
import { seedDemoSchool } from '../seed/demo-school.ts';
import { buildProgram } from '../test/factories.ts';
import { createTestDatabase } from '../test/helpers.ts';

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let db: Db;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'muster-backup-'));

beforeAll(async () => {
  database = await createTestDatabase();
  db = database.db;
  await seedDemoSchool(db, { today: new Date('2026-10-15T12:00:00Z') });
}, 120_000);
afterAll(async () => {
  await database.drop();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Every table's content as one fingerprint per table (order-independent). */
async function fingerprints(): Promise<Record<string, string>> {
  const { rows: tables } = await db.$client.query<{ t: string }>(
    `select tablename as t from pg_tables where schemaname = 'public' and tablename not in ('login_sessions', 'rate_limit_counters', 'setup_codes') order by 1`,
  );
  const out: Record<string, string> = {};
  for (const { t } of tables) {
    const { rows } = await db.$client.query<{ n: number; h: string | null }>(
      `select count(*)::int as n, md5(string_agg(md5(x::text), '' order by md5(x::text))) as h from "${t}" x`,
    );
    out[t] = `${rows[0]!.n}:${rows[0]!.h}`;
  }
  return out;
}

describe('backup and restore', () => {
  it('restores every table of a seeded school exactly as it was backed up', async () => {
    const before = await fingerprints();
    expect(Number(before.students!.split(':')[0])).toBeGreaterThan(100);
    const file = path.join(dir, backupFileName(new Date('2026-10-15T12:00:00Z')));
    const made = await writeBackup(db.$client, file);
    expect(made.tables).toBeGreaterThan(15);
    expect(made.bytes).toBeGreaterThan(1000);
    expect(fs.existsSync(`${file}.partial`)).toBe(false);
    const header = await readBackupHeader(file);
    expect(header.tables.find((t) => t.name === 'students')?.rows).toBe(Number(before.students!.split(':')[0]));

    // Change data after the backup: new rows, changed rows, deleted rows.
    await db.$client.query(`update students set first_name = 'Changed' where id in (select id from students order by id limit 5)`);
    await db.$client.query(`delete from attendance_records where id in (select id from attendance_records order by id limit 50)`);
    await buildProgram(db, { programName: 'Added after the backup' });
    expect(await fingerprints()).not.toEqual(before);

    const restored = await restoreBackup(db.$client, file);
    expect(restored.tables).toBe(made.tables);
    expect(await fingerprints()).toEqual(before);

    // Ids continue after the restored ones.
    const added = await buildProgram(db, { programName: 'After restore' });
    const { rows: max } = await db.$client.query<{ m: number }>(`select max(id)::int as m from programs where program_name <> 'After restore'`);
    expect(added.id).toBeGreaterThan(max[0]!.m);
  }, 120_000);

  it('refuses a file that is not a backup and changes nothing', async () => {
    const bogus = path.join(dir, 'bogus.backup.gz');
    fs.writeFileSync(bogus, 'not a backup');
    const before = await fingerprints();
    await expect(restoreBackup(db.$client, bogus)).rejects.toThrow(/not a Muster backup/);
    expect(await fingerprints()).toEqual(before);
  });

  it('a backup cut short fails the restore and leaves the database as it was', async () => {
    const file = path.join(dir, 'whole.backup.gz');
    await writeBackup(db.$client, file);
    const zlib = await import('node:zlib');
    const text = zlib.gunzipSync(fs.readFileSync(file)).toString();
    const cut = path.join(dir, 'cut.backup.gz');
    fs.writeFileSync(cut, zlib.gzipSync(text.slice(0, Math.floor(text.length * 0.6))));
    const before = await fingerprints();
    await expect(restoreBackup(db.$client, cut)).rejects.toThrow();
    expect(await fingerprints()).toEqual(before);
  });
});
