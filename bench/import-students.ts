import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import v8 from 'node:v8';
import vm from 'node:vm';
import { pipeline } from 'node:stream/promises';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { MAX_UPLOAD_BYTES } from '../common/constants.ts';
import { createDb } from '../server/db/client.ts';
import { startEmbeddedDatabase } from '../server/db/embedded.ts';
import { migrateDatabase } from '../server/db/migrate.ts';
import { fixedClock } from '../server/lib/clock.ts';
import { createFieldCipher } from '../server/lib/field-cipher.ts';
import { runImport } from '../server/modules/imports/service.ts';

/**
 * 100,000 students (~10 MB of CSV, the upload limit) imported through the import engine into an
 * embedded PostgreSQL: rows per second and peak memory, against PostgreSQL's own COPY of the same
 * file into a scratch table in the same run. The program has two running schedules, so every
 * student also lands on two rosters (200,000 roster rows), as in a real import.
 */
const ROWS = Number(process.env.BENCH_ROWS ?? 100_000);
const HEADER = ['sisStudentId', 'firstName', 'lastName', 'email', 'phone', 'programId', 'enrollmentDate', 'dateOfBirth', 'socialSecurityNumber'];
const FIRST = ['Aaliyah', 'Tomás', 'Grace', 'Daniel', 'Maria', 'Jamal', 'Priya', 'Ethan', 'Sofia', 'Liam', 'Chloe', 'Noah'];
const LAST = ['Johnson', 'Herrera', 'Okafor', 'Kim', 'Nguyen', 'Smith', 'Patel', 'Garcia', 'Brown', 'Lee', 'Davis', 'Wilson'];

function studentsCsv(rows: number): Buffer {
  const lines = [HEADER.join(',')];
  for (let i = 1; i <= rows; i++) {
    const first = FIRST[i % FIRST.length]!;
    const last = LAST[(i * 7) % LAST.length]!;
    const n = String(i).padStart(6, '0');
    const month = String((i % 12) + 1).padStart(2, '0');
    lines.push(`S${n},${first},${last},${first[0]!.toLowerCase()}${last.toLowerCase()}${n}@stu.example.edu,555${n.slice(0, 3)}${n.slice(2)},PN,2026-08-24,199${i % 10}-${month}-15,900${n}`);
  }
  return Buffer.from(lines.join('\n') + '\n', 'utf8');
}

// A real garbage collection before measuring, so "before" is the live heap, not leftovers.
v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

export async function run(): Promise<void> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'muster-bench-'));
  fs.chmodSync(tmp, 0o755);
  const pgServer = await startEmbeddedDatabase({ dataDir: tmp, preferredPort: 56100, role: 'app', log: () => {} });
  const db = createDb(pgServer.url, 4);
  try {
    await migrateDatabase(db);
    await db.execute(sql`insert into programs (sis_program_id, program_name, program_code, duration_hours) values ('PN', 'Practical Nursing', 'PN-DIP', 320)`);
    await db.execute(sql`insert into courses (sis_course_id, program_id, course_code, course_name, clock_hours) select 'NUR-101', id, 'NUR-101', 'Fundamentals', 90 from programs`);
    await db.execute(sql`
      insert into schedules (sis_schedule_id, course_id, cohort_number, term_number, day_of_week, start_time, end_time, course_start_date, course_end_date)
      select 'SCH-' || d, id, 1, 1, d, '08:00', '12:00', '2027-01-11', '2027-05-07' from courses, generate_series(1, 2) d`);

    const file = studentsCsv(ROWS);
    console.log(`file: ${fmt(ROWS)} student rows, ${mb(file.length)} (upload limit ${mb(MAX_UPLOAD_BYTES)})`);
    if (file.length > MAX_UPLOAD_BYTES) console.log('  note: larger than the upload limit; the API would refuse it, the engine is measured anyway');

    const deps = { db, clock: fixedClock('2027-01-04T12:00:00Z'), cipher: createFieldCipher(randomBytes(32)) };
    gc();
    const rssBefore = process.memoryUsage().rss;
    const heapBefore = process.memoryUsage().heapUsed;
    let peakRss = rssBefore;
    let peakHeap = process.memoryUsage().heapUsed;
    const sampler = setInterval(() => {
      const m = process.memoryUsage();
      peakRss = Math.max(peakRss, m.rss);
      peakHeap = Math.max(peakHeap, m.heapUsed);
    }, 20);

    const importOnce = async (label: string) => {
      const t0 = performance.now();
      const outcome = await runImport(deps, { type: 'students', fileName: 'students.csv', buffer: file, kind: 'csv', dryRun: false, actorId: null, ip: null });
      const ms = performance.now() - t0;
      if (!outcome.ok) throw new Error(`import refused: ${outcome.message} ${JSON.stringify(outcome.result.errors.slice(0, 3))}`);
      console.log(
        `${label}: ${(ms / 1000).toFixed(2)} s, ${fmt((ROWS / ms) * 1000)} rows/s (created ${fmt(outcome.result.created)}, updated ${fmt(outcome.result.updated)})`,
      );
      return ms;
    };
    const importMs = await importOnce('import (new students)');
    await importOnce('re-import (same file: updates)');
    clearInterval(sampler);
    const { rows: [counts] } = await db.execute<{ students: number; rosters: number }>(sql`
      select (select count(*)::int from students) as students, (select count(*)::int from schedule_rosters) as rosters`);
    console.log(`database: ${fmt(counts!.students)} students, ${fmt(counts!.rosters)} roster rows`);
    console.log(
      `memory: peak RSS ${mb(peakRss)} (sampled every 20 ms; ${mb(rssBefore)} before the import), peak heap ${mb(peakHeap)} (${mb(heapBefore)} before), ` +
        `process maxRSS ${mb(process.resourceUsage().maxRSS * 1024)}`,
    );

    // PostgreSQL's own COPY of the same bytes into a scratch table of the same columns (no indexes, no checks).
    const client = new pg.Client({ connectionString: pgServer.url });
    await client.connect();
    try {
      await client.query(`create table scratch_students (sis_student_id text, first_name text, last_name text, email text, phone text,
                            program_id text, enrollment_date date, date_of_birth date, social_security_number text)`);
      const t0 = performance.now();
      await pipeline(Readable.from([file]), client.query(copyFrom('copy scratch_students from stdin with (format csv, header true)')));
      const copyMs = performance.now() - t0;
      const { rows } = await client.query<{ n: number }>('select count(*)::int as n from scratch_students');
      console.log(`COPY FROM STDIN: ${(copyMs / 1000).toFixed(2)} s, ${fmt((rows[0]!.n / copyMs) * 1000)} rows/s (${fmt(rows[0]!.n)} rows)`);
      console.log(`ratio: the import takes ${(importMs / copyMs).toFixed(1)}× as long as a bare COPY of the same file`);
      // The same COPY into a table carrying the students table's indexes, for a fairer floor.
      await client.query(`create table scratch_indexed (like scratch_students)`);
      await client.query(`create unique index on scratch_indexed (sis_student_id)`);
      await client.query(`create index on scratch_indexed (program_id)`);
      await client.query(`create index on scratch_indexed (lower(last_name), lower(first_name))`);
      await client.query(`create index on scratch_indexed (lower(email))`);
      const t1 = performance.now();
      await pipeline(Readable.from([file]), client.query(copyFrom('copy scratch_indexed from stdin with (format csv, header true)')));
      const indexedMs = performance.now() - t1;
      console.log(`COPY into a scratch table with the students table's 4 indexes: ${(indexedMs / 1000).toFixed(2)} s (import ${(importMs / indexedMs).toFixed(1)}× that)`);
    } finally {
      await client.end();
    }
  } finally {
    await db.$client.end().catch(() => {});
    await pgServer.stop();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
