// Benchmark: 1,000 rostered students check in concurrently against one server on the embedded
// database, beside the same server's throughput on a minimal endpoint doing one durable insert.
// Run: npm run bench -- checkin   (prints a table; nothing is asserted)
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import { Worker } from 'node:worker_threads';
import { sql } from 'drizzle-orm';
import { buildApp } from '../server/app.ts';
import { loadConfig } from '../server/config.ts';
import { createFieldCipher } from '../server/lib/field-cipher.ts';
import { ROTATE_MS, tokenAt } from '../server/modules/qr-sessions/tokens.ts';
import { withBenchDatabase } from './bench-database.ts';

const STUDENTS = Number(process.env.BENCH_STUDENTS ?? 1000);
// Students on the class's roster; STUDENTS of them check in. The issue asks for the same figures at
// 10,000 (BENCH_ROSTER=10000): a check-in's cost must not grow with the roster. (More check-ins than
// a few thousand from this one address would meet the public route's per-address limit instead.)
const ROSTER = Math.max(STUDENTS, Number(process.env.BENCH_ROSTER ?? STUDENTS));
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 100);
// BENCH_STATEMENTS=1: also print what the database spent on each statement of the measured check-ins.
const STATEMENTS = process.env.BENCH_STATEMENTS === '1';
// Check-ins of another class (and as many baseline inserts) sent first and not measured.
const WARM_UP = 300;

type Result = { ms: number[]; errors: number; statuses: Map<number, number>; seconds: number; serverCpu: number; databaseCpu: number };

// The phones run in a worker thread with its own event loop, not on the server's: a client in the
// server's thread took about 40% of it (CPU profile), charging the server for the requests' senders.
// Plain JavaScript, so the worker needs no TypeScript loader.
const PHONES = `
const { parentPort, workerData } = require('node:worker_threads');
const { base, count, concurrency, kind, cls } = workerData;
const send = kind === 'insert'
  ? async (i) => {
      const res = await fetch(base + '/bench/insert', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ v: 'row-' + i }) });
      await res.arrayBuffer();
      return res.status;
    }
  : async (i) => {
      // Every phone in the room carries the code the projector shows for the current step.
      const token = cls.tokens[String(Math.floor(Date.now() / cls.rotateMs))];
      const res = await fetch(base + '/api/attendance/submit', {
        method: 'POST',
        // Each phone its own browser signature, as a real class's phones differ: one shared signature
        // would flag every check-in as a possible proxy and measure that worst case instead.
        headers: { 'content-type': 'application/json', 'user-agent': 'BenchPhone/' + cls.prefix + i + ' (Mobile)', cookie: 'muster_device=bench-device-' + cls.prefix + i + '-abcdefgh' },
        body: JSON.stringify({ sessionId: cls.sessionId, studentId: cls.prefix + (i + 1), firstName: 'S' + (i + 1), lastName: 'Bench', email: 'x', token }),
      });
      await res.arrayBuffer();
      return res.status;
    };
(async () => {
  const ms = [];
  const statuses = {};
  let next = 0;
  const started = performance.now();
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (next < count) {
      const i = next++;
      const t0 = performance.now();
      let status = 0;
      try { status = await send(i); } catch { status = -1; }
      ms.push(performance.now() - t0);
      statuses[status] = (statuses[status] || 0) + 1;
    }
  }));
  parentPort.postMessage({ ms, statuses, seconds: (performance.now() - started) / 1000 });
})();
`;

type Phones = {
  base: string;
  count: number;
  concurrency: number;
  kind: 'checkin' | 'insert';
  cls?: { sessionId: string; prefix: string; rotateMs: number; tokens: Record<string, string> };
};

// CPU seconds of the database's processes (the embedded server and its backends), from /proc.
function databaseCpuSeconds(): number {
  let ticks = 0;
  for (const pid of fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      if (name !== 'postgres') continue;
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // gone meanwhile
    }
  }
  return ticks / 100;
}

function hammer(phones: Phones): Promise<Result> {
  const cpu0 = process.cpuUsage();
  const db0 = databaseCpuSeconds();
  return new Promise((resolve, reject) => {
    const worker = new Worker(PHONES, { eval: true, workerData: phones });
    worker.once('error', reject);
    worker.once('message', (r: { ms: number[]; statuses: Record<string, number>; seconds: number }) => {
      const statuses = new Map(Object.entries(r.statuses).map(([k, v]) => [Number(k), v] as [number, number]));
      const errors = [...statuses].reduce((n, [status, count]) => n + (status === 200 ? 0 : count), 0);
      const cpu = process.cpuUsage(cpu0);
      resolve({
        ms: r.ms.sort((a, b) => a - b),
        errors,
        statuses,
        seconds: r.seconds,
        serverCpu: (cpu.user + cpu.system) / 1e6,
        databaseCpu: databaseCpuSeconds() - db0,
      });
      void worker.terminate();
    });
  });
}

const pctl = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

export async function run(): Promise<void> {
  const settings = STATEMENTS ? ['shared_preload_libraries=pg_stat_statements', 'pg_stat_statements.track=all', 'pg_stat_statements.track_planning=on'] : [];
  await withBenchDatabase({ name: 'checkin', port: 56500, poolSize: 20, settings }, async (db, url) => {
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
    // As an import does after writing this many students (decision 055): without statistics the
    // roster lookup scans every student (0.43× the baseline at 10,000 rostered).
    await db.execute(sql`analyze students`);
    await db.execute(sql`analyze schedule_rosters`);

    const config = { ...loadConfig({ NODE_ENV: 'production' }), databaseUrl: url };
    const app = await buildApp({ db, config, cipher: createFieldCipher(randomBytes(32)) }, { webRoot: '/nonexistent' });
    // The baseline: the same server, one durable insert, nothing else.
    app.post('/bench/insert', { config: { public: true } }, async (req) => {
      await db.execute(sql`insert into bench_probe (v) values (${String((req.body as { v?: string })?.v ?? '')})`);
      return { ok: true };
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;

    // The codes the projector will show over the next ten minutes, worked out here, since the
    // session's secret stays on the server's side.
    const classOf = (cls: typeof measured) => {
      const tokens: Record<string, string> = {};
      for (let step = Math.floor(Date.now() / ROTATE_MS); step < Math.floor(Date.now() / ROTATE_MS) + 40; step++)
        tokens[String(step)] = tokenAt(cls.secret, cls.sessionId, new Date(step * ROTATE_MS)).token;
      return { sessionId: cls.sessionId, prefix: cls.prefix, rotateMs: ROTATE_MS, tokens };
    };
    const checkIn = (cls: typeof measured, count: number): Phones => ({ base, count, concurrency: CONCURRENCY, kind: 'checkin', cls: classOf(cls) });
    const insert = (count: number): Phones => ({ base, count, concurrency: CONCURRENCY, kind: 'insert' });
    // Both measured warm, as a server is after its first minute: the pool's connections open, the
    // code compiled. A cold start would charge whichever runs first for it.
    await hammer(checkIn(warmUp, WARM_UP));
    await hammer(insert(WARM_UP));
    if (STATEMENTS) await db.execute(sql`create extension if not exists pg_stat_statements`);
    if (STATEMENTS) await db.execute(sql`select pg_stat_statements_reset()`);
    const checkins = await hammer(checkIn(measured, STUDENTS));
    const { rows: statements } = STATEMENTS
      ? await db.execute<Record<string, unknown>>(sql`
          select calls, round(total_plan_time::numeric, 1) as "plan ms", round(total_exec_time::numeric, 1) as "run ms", rows,
                 left(regexp_replace(query, '[[:space:]]+', ' ', 'g'), 90) as statement
            from pg_stat_statements where calls > 0 order by total_exec_time + total_plan_time desc limit 12`)
      : { rows: [] };
    const baseline = await hammer(insert(STUDENTS));
    const { rows: stored } = await db.execute<{ n: number }>(
      sql`select count(*)::int as n from attendance_records a join qr_sessions q on q.id = a.qr_session_id where q.session_id = ${measured.sessionId}::uuid`,
    );
    const acknowledged = checkins.statuses.get(200) ?? 0;
    await app.close();

    const rps = (r: Result) => STUDENTS / r.seconds;
    console.log(
      `\nQR check-in benchmark: ${STUDENTS} check-ins from a roster of ${ROSTER}, ${CONCURRENCY} concurrent, one server, embedded PostgreSQL, ${os.cpus().length} cores`,
    );
    console.table({
      'check-in (POST /api/attendance/submit)': {
        'req/s': rps(checkins).toFixed(0),
        'p50 ms': pctl(checkins.ms, 50).toFixed(1),
        'p99 ms': pctl(checkins.ms, 99).toFixed(1),
        errors: checkins.errors,
      },
      'baseline (one durable insert)': {
        'req/s': rps(baseline).toFixed(0),
        'p50 ms': pctl(baseline.ms, 50).toFixed(1),
        'p99 ms': pctl(baseline.ms, 99).toFixed(1),
        errors: baseline.errors,
      },
    });
    const perRequest = (r: Result) =>
      `${((r.serverCpu * 1000) / STUDENTS).toFixed(2)} ms in this process (phones included), ${((r.databaseCpu * 1000) / STUDENTS).toFixed(2)} ms in PostgreSQL`;
    console.log(`CPU per check-in: ${perRequest(checkins)}; per baseline insert: ${perRequest(baseline)}`);
    if (STATEMENTS) {
      console.log('\nThe statements of the measured check-ins (pg_stat_statements), by time spent planning and running:');
      console.table(statements);
    }
    console.log(`statuses: ${JSON.stringify(Object.fromEntries(checkins.statuses))}`);
    if (checkins.errors > 0) console.log('(a check-in that was not answered 200 is a failure of the run, whatever the rate)');
    console.log(`acknowledged check-ins: ${acknowledged}, stored: ${stored[0]!.n}, lost: ${acknowledged - stored[0]!.n}`);
    const ratio = rps(checkins) / rps(baseline);
    const p99Ratio = pctl(checkins.ms, 99) / pctl(baseline.ms, 99);
    console.log(`check-in throughput is ${ratio.toFixed(2)}x the durable-insert baseline (target ≥ 0.70x: ${ratio >= 0.7 ? 'PASS' : 'FAIL'})`);
    console.log(
      `check-in p99 is ${p99Ratio.toFixed(2)}x the baseline's p99 (target ≤ 2.00x: ${p99Ratio <= 2 ? 'PASS' : 'FAIL'}); lost ${acknowledged - stored[0]!.n} (target 0)`,
    );
  });
}

// Run directly (tsx bench/checkin.ts) or through bench/run.ts.
if (import.meta.url === `file://${process.argv[1]}`) await run();
