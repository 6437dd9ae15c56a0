// Benchmark: 1,000 rostered students check in concurrently against one server on the embedded
// database, beside the same server's throughput on a minimal endpoint doing one durable insert.
// Run: npm run bench -- checkin   (prints a table; nothing is asserted)
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { sql } from 'drizzle-orm';
import { buildApp } from '../server/app.ts';
import { loadConfig } from '../server/config.ts';
import { createFieldCipher } from '../server/lib/field-cipher.ts';
import { tokenAt } from '../server/modules/qr-sessions/tokens.ts';
import { withBenchDatabase } from './bench-database.ts';

const STUDENTS = Number(process.env.BENCH_STUDENTS ?? 1000);
// Students on the class's roster; STUDENTS of them check in. The issue asks for the same figures at
// 10,000 (BENCH_ROSTER=10000): a check-in's cost must not grow with the roster. (More check-ins than
// a few thousand from this one address would meet the public route's per-address limit instead.)
const ROSTER = Math.max(STUDENTS, Number(process.env.BENCH_ROSTER ?? STUDENTS));
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 100);
// Check-ins of another class (and as many baseline inserts) sent first and not measured.
const WARM_UP = 300;

type Result = { ms: number[]; errors: number; statuses: Map<number, number>; seconds: number };

async function hammer(count: number, concurrency: number, send: (i: number) => Promise<number>): Promise<Result> {
  const ms: number[] = [];
  const statuses = new Map<number, number>();
  let errors = 0;
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        const i = next++;
        const t0 = performance.now();
        let status = 0;
        try {
          status = await send(i);
        } catch {
          status = -1;
        }
        ms.push(performance.now() - t0);
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
        if (status !== 200) errors++;
      }
    }),
  );
  return { ms: ms.sort((a, b) => a - b), errors, statuses, seconds: (performance.now() - started) / 1000 };
}

const pctl = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

export async function run(): Promise<void> {
  await withBenchDatabase({ name: 'checkin', port: 56500, poolSize: 20 }, async (db, url) => {
    const now = new Date();
    const start = new Date(now.getTime() - 5 * 60_000).toISOString().slice(11, 16);
    const end = new Date(now.getTime() + 3 * 3_600_000).toISOString().slice(11, 16);
    await db.execute(sql`
      with p as (insert into programs (program_name) values ('Bench') returning id),
           c as (insert into courses (course_code, course_name, program_id) select 'B-1', 'Bench Course', id from p returning id)
      insert into users (email, role, first_name, last_name) values ('bench@x.edu', 'instructor', 'B', 'I')`);
    // A class, its roster of `size` students (SIS ids prefix-1..size) and an open QR session.
    const openClass = async (prefix: string, size: number) => {
      const { rows: ids } = await db.execute<{ schedule_id: number }>(sql`
        insert into schedules (course_id, instructor_id, cohort_number, term_number, day_of_week, start_time, end_time, course_start_date, course_end_date)
        select (select id from courses limit 1), (select id from users limit 1), 1, 1, extract(dow from now())::int, ${start}::time, ${end}::time, current_date - 30, current_date + 30
        returning id as schedule_id`);
      const scheduleId = ids[0]!.schedule_id;
      await db.execute(sql`
        with s as (insert into students (first_name, last_name, sis_student_id) select 'S' || g, 'Bench', ${prefix} || g from generate_series(1, ${size}) g returning id)
        insert into schedule_rosters (schedule_id, student_id) select ${scheduleId}, id from s`);
      const secret = randomBytes(32);
      const { rows: sess } = await db.execute<{ session_id: string }>(sql`
        insert into qr_sessions (schedule_id, token_secret, session_date, expires_at) values (${scheduleId}, ${secret}, current_date, now() + interval '1 hour') returning session_id::text`);
      return { sessionId: sess[0]!.session_id, secret, prefix };
    };
    const measured = await openClass('SIS-', ROSTER);
    const warmUp = await openClass('WARM-', WARM_UP);
    await db.execute(sql`create table bench_probe (id bigserial primary key, v text not null, at timestamptz not null default now())`);

    const config = { ...loadConfig({ NODE_ENV: 'production' }), databaseUrl: url };
    const app = await buildApp({ db, config, cipher: createFieldCipher(randomBytes(32)) }, { webRoot: '/nonexistent' });
    // The baseline: the same server, one durable insert, nothing else.
    app.post('/bench/insert', { config: { public: true } }, async (req) => {
      await db.execute(sql`insert into bench_probe (v) values (${String((req.body as { v?: string })?.v ?? '')})`);
      return { ok: true };
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;

    // Every phone in the room carries the code the projector shows: worked out once a second, not per phone.
    let code = { sessionId: '', at: 0, token: '' };
    const codeOf = (cls: typeof measured) => {
      const second = Math.floor(Date.now() / 1000);
      if (code.at !== second || code.sessionId !== cls.sessionId) code = { sessionId: cls.sessionId, at: second, token: tokenAt(cls.secret, cls.sessionId, new Date()).token };
      return code.token;
    };
    const checkIn = (cls: typeof measured) => async (i: number) => {
      const res = await fetch(`${base}/api/attendance/submit`, {
        method: 'POST',
        // Each phone its own browser signature, as a real class's phones differ: one shared signature
        // would flag every check-in as a possible proxy and measure that worst case instead.
        headers: { 'content-type': 'application/json', 'user-agent': `BenchPhone/${cls.prefix}${i} (Mobile)`, cookie: `muster_device=bench-device-${cls.prefix}${i}-abcdefgh` },
        body: JSON.stringify({ sessionId: cls.sessionId, studentId: `${cls.prefix}${i + 1}`, firstName: `S${i + 1}`, lastName: 'Bench', email: 'x', token: codeOf(cls) }),
      });
      await res.arrayBuffer();
      return res.status;
    };
    const insert = async (i: number) => {
      const res = await fetch(`${base}/bench/insert`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ v: `row-${i}` }) });
      await res.arrayBuffer();
      return res.status;
    };
    // Both measured warm, as a server is after its first minute: the pool's connections open, the
    // code compiled. A cold start would charge whichever runs first for it.
    await hammer(WARM_UP, CONCURRENCY, checkIn(warmUp));
    await hammer(WARM_UP, CONCURRENCY, insert);
    const checkins = await hammer(STUDENTS, CONCURRENCY, checkIn(measured));
    const baseline = await hammer(STUDENTS, CONCURRENCY, insert);
    const { rows: stored } = await db.execute<{ n: number }>(sql`select count(*)::int as n from attendance_records a join qr_sessions q on q.id = a.qr_session_id where q.session_id = ${measured.sessionId}::uuid`);
    const acknowledged = checkins.statuses.get(200) ?? 0;
    await app.close();

    const rps = (r: Result) => STUDENTS / r.seconds;
    console.log(`\nQR check-in benchmark: ${STUDENTS} check-ins from a roster of ${ROSTER}, ${CONCURRENCY} concurrent, one server, embedded PostgreSQL, ${os.cpus().length} cores`);
    console.table({
      'check-in (POST /api/attendance/submit)': { 'req/s': rps(checkins).toFixed(0), 'p50 ms': pctl(checkins.ms, 50).toFixed(1), 'p99 ms': pctl(checkins.ms, 99).toFixed(1), errors: checkins.errors },
      'baseline (one durable insert)': { 'req/s': rps(baseline).toFixed(0), 'p50 ms': pctl(baseline.ms, 50).toFixed(1), 'p99 ms': pctl(baseline.ms, 99).toFixed(1), errors: baseline.errors },
    });
    console.log(`statuses: ${JSON.stringify(Object.fromEntries(checkins.statuses))}`);
    if (checkins.errors > 0) console.log('(a check-in that was not answered 200 is a failure of the run, whatever the rate)');
    console.log(`acknowledged check-ins: ${acknowledged}, stored: ${stored[0]!.n}, lost: ${acknowledged - stored[0]!.n}`);
    const ratio = rps(checkins) / rps(baseline);
    const p99Ratio = pctl(checkins.ms, 99) / pctl(baseline.ms, 99);
    console.log(`check-in throughput is ${ratio.toFixed(2)}x the durable-insert baseline (target ≥ 0.70x: ${ratio >= 0.7 ? 'PASS' : 'FAIL'})`);
    console.log(`check-in p99 is ${p99Ratio.toFixed(2)}x the baseline's p99 (target ≤ 2.00x: ${p99Ratio <= 2 ? 'PASS' : 'FAIL'}); lost ${acknowledged - stored[0]!.n} (target 0)`);
  });
}

// Run directly (tsx bench/checkin.ts) or through bench/run.ts.
if (import.meta.url === `file://${process.argv[1]}`) await run();
