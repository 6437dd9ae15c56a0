// Benchmark: the Students screen's list calls over 10,000 students (server-side search, sort and
// paging), beside a plain indexed primary-key page read measured in the same run.
// Run: npm run bench -- students-list
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { buildApp } from '../server/app.ts';
import { loadConfig } from '../server/config.ts';
import { createFieldCipher } from '../server/lib/field-cipher.ts';
import { createLoginSession } from '../server/plugins/login-sessions.ts';
import { withBenchDatabase } from './bench-database.ts';

const STUDENTS = 10_000;
const RUNS = 40;
const pctl = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

async function time(run: () => Promise<unknown>): Promise<number[]> {
  for (let i = 0; i < 3; i++) await run();
  const ms: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    await run();
    ms.push(performance.now() - t0);
  }
  return ms.sort((a, b) => a - b);
}

export async function run(): Promise<void> {
  await withBenchDatabase({ name: 'list', port: 56600, poolSize: 10 }, async (db, url) => {
    await db.execute(sql`insert into programs (program_name) values ('Practical Nursing'), ('Medical Assistant')`);
    await db.execute(sql`
      insert into students (first_name, last_name, email, sis_student_id, program_id, status)
      select (array['Ana','Ben','Chloe','Dev','Eli','Fatima','Gus','Hana','Ivan','Jada'])[1 + g % 10] || g,
             (array['Garcia','Smith','Nguyen','Patel','Kim','Lopez','Brown','Ali','Jones','Chen'])[1 + (g / 10) % 10] || (g % 97),
             'student' || g || '@school.example', 'SIS-' || lpad(g::text, 6, '0'), 1 + g % 2,
             (array['enrolled','enrolled','enrolled','withdrawn'])[1 + g % 4]
        from generate_series(1, ${STUDENTS}) g`);
    await db.execute(sql`analyze students`);
    const { rows: u } = await db.execute<{ id: number }>(sql`insert into users (email, role) values ('bench@x.edu', 'it_admin') returning id`);
    const token = await createLoginSession(db, u[0]!.id, { ip: null, userAgent: null });
    const config = { ...loadConfig({ NODE_ENV: 'production' }), databaseUrl: url };
    const app = await buildApp({ db, config, cipher: createFieldCipher(randomBytes(32)) }, { webRoot: '/nonexistent' });
    await app.ready();
    const list = (query: string) => async () => {
      const res = await app.inject({ url: `/api/students?${query}`, cookies: { muster_session: token } });
      if (res.statusCode !== 200) throw new Error(`${res.statusCode} ${res.body}`);
    };
    const cases: Record<string, () => Promise<unknown>> = {
      'plain SQL: 25 rows by primary key': () => db.execute(sql`select * from students order by id limit 25 offset 5000`),
      'first page, sorted by name': list('sort=name&page=1&pageSize=25'),
      'page 200, sorted by name desc': list('sort=name&order=desc&page=200&pageSize=25'),
      'search "garcia", sorted by e-mail': list('search=garcia&sort=email&page=1&pageSize=25'),
      'search SIS id "SIS-004242"': list('search=SIS-004242&page=1&pageSize=25'),
      'search with no match': list('search=zzzz&page=1&pageSize=25'),
    };
    const results: Record<string, { 'p50 ms': string; 'p95 ms': string; 'p50 / plain SQL': string }> = {};
    let base = 0;
    for (const [name, runCase] of Object.entries(cases)) {
      const ms = await time(runCase);
      if (!base) base = pctl(ms, 50);
      results[name] = { 'p50 ms': pctl(ms, 50).toFixed(1), 'p95 ms': pctl(ms, 95).toFixed(1), 'p50 / plain SQL': `${(pctl(ms, 50) / base).toFixed(1)}x` };
    }
    await app.close();
    console.log(`\nStudents list over ${STUDENTS.toLocaleString('en-US')} students, ${RUNS} runs each (app.inject, embedded PostgreSQL)`);
    console.table(results);
  });
}

// Run directly (tsx bench/students-list.ts) or through bench/run.ts.
if (import.meta.url === `file://${process.argv[1]}`) await run();
