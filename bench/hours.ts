// Benchmark: the clock-hour ledger over 2,000 students × one year of daily meetings (5 classes
// Mon–Fri, 4 h each, ~50 weeks: ≈ 490,000 records), through the real HTTP routes: one student's
// ledger, the program summary page and the hours export, each beside a plain
// `select student_id, sum(minutes_attended) … group by student_id` over the same records in the same run.
// Punches (decision 051): a quarter of the present meetings have a break, and the program has time-clock rules.
// Run: npm run bench -- hours   (prints tables and the targets; nothing is asserted)
// Env: BENCH_RUNS (default 20), BENCH_STUDENTS (2000), BENCH_WEEKS (50), BENCH_EXPLAIN=1 to print
//      EXPLAIN ANALYZE of the slowest statement of each measured call.
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { sql } from 'drizzle-orm';
import type pg from 'pg';
import { buildApp } from '../server/app.ts';
import { loadConfig } from '../server/config.ts';
import type { Db } from '../server/db/client.ts';
import { createFieldCipher } from '../server/lib/field-cipher.ts';
import { addDays, localDate, mondayOnOrBefore } from '../server/lib/school-time.ts';
import { createLoginSession } from '../server/plugins/login-sessions.ts';
import { withBenchDatabase } from './bench-database.ts';
import { instrument, type Statement } from './statement-log.ts';

const RUNS = Number(process.env.BENCH_RUNS ?? 20);
const STUDENTS = Number(process.env.BENCH_STUDENTS ?? 2000);
const WEEKS = Number(process.env.BENCH_WEEKS ?? 50);
const LEDGER_SAMPLE = 50;
const EXPORT_RUNS = 3;
const WARMUP = 3;
const TIME_ZONE = 'America/Chicago';
const TARGET_LEDGER_MS = 50;
const TARGET_SUMMARY_RATIO = 2;

export const pctl = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
export const ms = (v: number) => (v >= 100 ? v.toFixed(0) : v.toFixed(1));
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

export type Seeded = { programId: number; studentIds: number[]; from: string; today: string; timeZone: string };
/** The school's size: students, weeks of history up to yesterday, and classes a week (one a day from Monday, 4 h each). */
export type SeedSize = { students?: number; weeks?: number; classesPerWeek?: number };
const DAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri'];

export async function seed(db: Db, size: SeedSize = {}): Promise<Seeded> {
  const { students, weeks, classesPerWeek } = { students: STUDENTS, weeks: WEEKS, classesPerWeek: 5, ...size };
  const t0 = performance.now();
  const today = localDate(new Date(), TIME_ZONE);
  const from = mondayOnOrBefore(addDays(today, -7 * weeks));
  const breakStart = addDays(from, 7 * Math.floor(weeks / 2)); // a week's winter break mid-year
  const breakEnd = addDays(breakStart, 4);
  await db.execute(sql`select setseed(0.42)`);
  await db.execute(sql`update school_settings set time_zone = ${TIME_ZONE}`);
  const { rows: p } = await db.execute<{ id: number }>(
    sql`insert into programs (program_name, program_code, status) values ('Practical Nursing', 'PN', 'active') returning id`,
  );
  const programId = Number(p[0]!.id);
  // 1,000 hours over 50 weeks: payment periods of 450, 450 and 100 hours (900-hour, 26-week years).
  await db.execute(sql`insert into program_policies (program_id, program_hours, program_weeks) values (${programId}, 1000, 50)`);
  await db.execute(sql`
    insert into users (email, role, first_name, last_name)
    select 'instructor' || g || '@bench.edu', 'instructor', 'Instructor', 'No' || g from generate_series(1, ${classesPerWeek}::int) g`);
  await db.execute(sql`
    insert into courses (course_code, course_name, program_id, clock_hours)
    select 'PN-10' || g, 'Nursing ' || g, ${programId}::int, 150 from generate_series(1, ${classesPerWeek}::int) g`);
  // Five classes (or classesPerWeek), one per weekday from Monday, 08:00–12:00 school time; every student is on every roster.
  await db.execute(sql`
    insert into schedules (course_id, instructor_id, cohort_number, term_number, day_of_week, start_time, end_time, room_number, course_start_date, course_end_date)
    select c.id, (select id from users where role = 'instructor' order by id limit 1 offset c.rn - 1), 1, 1, c.rn, '08:00', '12:00', 'R' || (100 + c.rn),
           ${from}::date, ${addDays(today, 30)}::date
      from (select id, row_number() over (order by id)::int as rn from courses) c`);
  await db.execute(sql`
    insert into students (first_name, last_name, email, sis_student_id, program_id, status, enrollment_date)
    select (array['Ana','Ben','Chloe','Dev','Eli','Fatima','Gus','Hana','Ivan','Jada'])[1 + g % 10] || g,
           (array['Garcia','Smith','Nguyen','Patel','Kim','Lopez','Brown','Ali','Jones','Chen'])[1 + (g / 10) % 10],
           'student' || g || '@bench.edu', 'PN-' || lpad(g::text, 5, '0'), ${programId}::int, 'enrolled', ${from}::date
      from generate_series(1, ${students}::int) g`);
  await db.execute(sql`insert into schedule_rosters (schedule_id, student_id) select s.id, st.id from schedules s cross join students st`);
  await db.execute(sql`insert into calendar_closures (start_date, end_date, name) values (${breakStart}::date, ${breakEnd}::date, 'Winter break')`);
  // Every meeting up to yesterday has a record. Most attend; one student in 20 struggles.
  await db.execute(sql`
    insert into attendance_records (student_id, schedule_id, session_date, status, scan_in_time, scan_out_time, minutes_attended, scheduled_minutes, source, sync_status)
    select r.student_id, s.id, d, x.status,
           case when x.status in ('present', 'late', 'incomplete') then ((d + s.start_time) + case x.status when 'late' then interval '17 minutes' else interval '-3 minutes' end) at time zone ${TIME_ZONE} end,
           case when x.status in ('present', 'late') then (d + s.end_time) at time zone ${TIME_ZONE}
                when x.status = 'incomplete' then (d + s.end_time - interval '70 minutes') at time zone ${TIME_ZONE} end,
           case x.status when 'present' then 240 when 'late' then 223 when 'incomplete' then 170 else 0 end,
           240, case when x.status in ('absent', 'excused') then 'manual' else 'qr' end, 'synced'
      from schedules s
      join schedule_rosters r on r.schedule_id = s.id
      cross join generate_series(${from}::date, ${addDays(today, -1)}::date, interval '1 day') g
      cross join lateral (select g::date as d) dd
      cross join lateral (select random() as p) rnd
      cross join lateral (select case
               when r.student_id % 20 = 0 then (case when rnd.p < 0.25 then 'absent' when rnd.p < 0.33 then 'excused' when rnd.p < 0.45 then 'late' else 'present' end)
               else (case when rnd.p < 0.03 then 'absent' when rnd.p < 0.05 then 'excused' when rnd.p < 0.11 then 'late' when rnd.p < 0.13 then 'incomplete' else 'present' end)
             end as status) x
     where extract(dow from d)::int = s.day_of_week and d not between ${breakStart}::date and ${breakEnd}::date`);
  // The ledger with punches (decisions 050, 051): one present meeting in four has a break punched (out 10:00,
  // back 10:10), and the program rounds, gives grace, deducts a meal and caps the day and the week.
  await db.execute(sql`
    insert into attendance_breaks (record_id, kind, started_at, ended_at)
    select a.id, 'break', (a.session_date + time '10:00') at time zone ${TIME_ZONE}, (a.session_date + time '10:10') at time zone ${TIME_ZONE}
      from attendance_records a where a.status = 'present' and a.id % 4 = 0`);
  await db.execute(sql`
    insert into program_time_clock_versions (program_id, effective_from, missing_check_out, rounding, rounding_minutes, grace_minutes, meal_after_minutes, meal_minutes, daily_max_minutes, weekly_max_minutes)
    values (${programId}, null, 'no_credit', 'nearest', 15, 7, 300, 30, 600, 2880)`);
  // A make-up session for one student in ten.
  await db.execute(sql`
    insert into make_up_sessions (student_id, session_date, start_time, end_time, minutes, supervisor_id)
    select st.id, ${from}::date + (st.id % 300), '13:00', '15:00', 120, (select min(id) from users where role = 'instructor')
      from students st where st.id % 10 = 0`);
  await db.execute(sql`analyze`);
  const { rows } = await db.execute<{ records: number; size: string }>(
    sql`select (select count(*) from attendance_records)::int as records, pg_size_pretty(pg_database_size(current_database())) as size`,
  );
  const { rows: ids } = await db.execute<{ id: number }>(sql`select id from students order by id`);
  console.log(
    `Seeded ${rows[0]!.records.toLocaleString('en-US')} attendance records (${students} students × ${classesPerWeek} classes ${DAYS[0]}–${DAYS[classesPerWeek - 1]}, ${from} to ${addDays(today, -1)}, a week closed), ` +
      `database ${rows[0]!.size}, in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );
  return { programId, studentIds: ids.map((r) => Number(r.id)), from, today, timeZone: TIME_ZONE };
}

type Case = { name: string; calls: (() => Promise<unknown>)[] };
type Measured = { name: string; times: number[]; statements: Statement[]; statementCount: number; dbTimes: number[] };

/**
 * The cases measured in interleaved rounds (each round calls every case in turn, from a rotating
 * first case), so a change in the machine's load during the run weighs on all of them alike and
 * the ratios to the plain GROUP BY stay meaningful on a shared machine.
 */
async function measureInterleaved(cases: Case[], rounds: number, stmts: { take: () => Statement[] }): Promise<Measured[]> {
  for (let w = 0; w < WARMUP; w++) for (const c of cases) await c.calls[w % c.calls.length]!();
  stmts.take();
  const out = cases.map((c) => ({ name: c.name, times: [] as number[], statements: [] as Statement[], statementCount: 0, dbTimes: [] as number[], worst: -1 }));
  for (let r = 0; r < rounds; r++) {
    for (let k = 0; k < cases.length; k++) {
      const i = (r + k) % cases.length;
      const perRound = Math.ceil(cases[i]!.calls.length / rounds);
      for (let j = 0; j < perRound; j++) {
        const call = cases[i]!.calls[r * perRound + j];
        if (!call) continue;
        const t0 = performance.now();
        await call();
        const t = performance.now() - t0;
        const taken = stmts.take();
        const m = out[i]!;
        m.times.push(t);
        m.statementCount = taken.length;
        m.dbTimes.push(taken.reduce((n, st) => n + st.ms, 0));
        if (t > m.worst) [m.worst, m.statements] = [t, taken];
      }
    }
  }
  return out.map((m) => ({
    name: m.name,
    times: m.times.sort((a, b) => a - b),
    statements: m.statements,
    statementCount: m.statementCount,
    dbTimes: m.dbTimes.sort((a, b) => a - b),
  }));
}

/** A deterministic sample of ids (a small LCG; the same students every run). */
function sample<T>(list: T[], n: number): T[] {
  let x = 12345;
  return Array.from({ length: n }, () => {
    x = (x * 1103515245 + 12345) % 2 ** 31;
    return list[x % list.length]!;
  });
}

export async function run(): Promise<void> {
  await withBenchDatabase({ name: 'hours', port: 56610, poolSize: 10 }, async (db, url) => {
    const seeded = await seed(db);
    const load0 = os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ');
    const { rows: u } = await db.execute<{ id: number }>(sql`insert into users (email, role) values ('bench-admin@bench.edu', 'it_admin') returning id`);
    const token = await createLoginSession(db, Number(u[0]!.id), { ip: null, userAgent: null });
    const config = { ...loadConfig({ NODE_ENV: 'production' }), databaseUrl: url };
    const app = await buildApp({ db, config, cipher: createFieldCipher(randomBytes(32)) }, { webRoot: '/nonexistent', logger: false });
    await app.ready();
    const stmts = instrument(db);
    const get = (path: string) => async () => {
      const res = await app.inject({ url: path, cookies: { muster_session: token } });
      if (res.statusCode !== 200) throw new Error(`${path}: ${res.statusCode} ${res.body.slice(0, 300)}`);
      return res;
    };

    const groupBy = () => db.execute(sql`select student_id, sum(minutes_attended) from attendance_records group by student_id`);
    const repeat = (n: number, call: () => Promise<unknown>) => Array.from({ length: n }, () => call);
    const [baseline, ledger, summary, summaryDeep] = await measureInterleaved(
      [
        { name: 'plain GROUP BY student_id (all records)', calls: repeat(RUNS, groupBy) },
        {
          name: `GET /api/students/:id/hours (${LEDGER_SAMPLE} students)`,
          calls: sample(seeded.studentIds, LEDGER_SAMPLE).map((id) => get(`/api/students/${id}/hours`)),
        },
        { name: 'GET /api/hours page 1 of 50', calls: repeat(RUNS, get(`/api/hours?programId=${seeded.programId}&page=1&pageSize=50`)) },
        {
          name: 'GET /api/hours page 30 of 50, by SIS id desc',
          calls: repeat(RUNS, get(`/api/hours?programId=${seeded.programId}&page=30&pageSize=50&sort=sisStudentId&order=desc`)),
        },
      ],
      RUNS,
      stmts,
    );

    // The export: whole program, a few runs, with the process's resident memory sampled meanwhile.
    const exports: { ms: number; sqlMs: number; rssGrowth: number; heapGrowth: number; rows: number }[] = [];
    const exportStatements: Statement[][] = [];
    for (let i = 0; i < EXPORT_RUNS; i++) {
      (globalThis as { gc?: () => void }).gc?.();
      const rss0 = process.memoryUsage().rss;
      const heap0 = process.memoryUsage().heapUsed;
      let rssPeak = rss0;
      let heapPeak = heap0;
      const timer = setInterval(() => {
        const m = process.memoryUsage();
        rssPeak = Math.max(rssPeak, m.rss);
        heapPeak = Math.max(heapPeak, m.heapUsed);
      }, 5);
      stmts.take();
      const t0 = performance.now();
      const res = await get(`/api/export/hours?programId=${seeded.programId}`)();
      const t = performance.now() - t0;
      clearInterval(timer);
      exportStatements.push(stmts.take());
      exports.push({
        ms: t,
        sqlMs: exportStatements.at(-1)!.reduce((n, st) => n + st.ms, 0),
        rssGrowth: rssPeak - rss0,
        heapGrowth: heapPeak - heap0,
        rows: res.body.trim().split('\n').length - 1,
      });
    }
    await app.close();

    const b50 = pctl(baseline!.times, 50);
    const b95 = pctl(baseline!.times, 95);
    const head = ['measured', 'p50 ms', 'p95 ms', 'max ms', 'statements', 'in SQL p50 ms', 'p50 / GROUP BY', 'p95 / GROUP BY'];
    const rows = [baseline!, ledger!, summary!, summaryDeep!].map((r) => [
      r.name,
      ms(pctl(r.times, 50)),
      ms(pctl(r.times, 95)),
      ms(r.times.at(-1)!),
      String(r.statementCount),
      ms(pctl(r.dbTimes, 50)),
      `${(pctl(r.times, 50) / b50).toFixed(2)}×`,
      `${(pctl(r.times, 95) / b95).toFixed(2)}×`,
    ]);
    const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
    const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
    console.log(
      `\nOver ${seeded.studentIds.length} students; ${RUNS} interleaved rounds (the ledger: ${LEDGER_SAMPLE} different students) after ${WARMUP} warm-up rounds, app.inject. ` +
        `Load average before/after: ${load0} / ${os
          .loadavg()
          .map((l) => l.toFixed(1))
          .join(' ')} (${os.cpus().length} cores)`,
    );
    console.log(line(head));
    // "in SQL": the statements' times added up (those sent together overlap), including the rows' transfer and parsing.
    console.log(widths.map((w) => '-'.repeat(w)).join('  '));
    for (const r of rows) console.log(line(r));

    console.log(`\nGET /api/export/hours?programId= (the whole program, ${exports[0]!.rows} rows), ${EXPORT_RUNS} runs:`);
    for (const [i, e] of exports.entries()) {
      console.log(
        `  run ${i + 1}: ${ms(e.ms)} ms (${(e.ms / b50).toFixed(1)}× the GROUP BY p50), ${exportStatements[i]!.length} statements taking ${ms(e.sqlMs)} ms, ` +
          `peak RSS growth ${mb(e.rssGrowth)}, peak heap growth ${mb(e.heapGrowth)}`,
      );
    }

    const l95 = pctl(ledger!.times, 95);
    const s50 = pctl(summary!.times, 50);
    console.log('\nTargets:');
    console.log(
      `  one ledger under ${TARGET_LEDGER_MS} ms: p50 ${ms(pctl(ledger!.times, 50))} ms, p95 ${ms(l95)} ms — ${l95 < TARGET_LEDGER_MS ? 'met' : 'NOT met'} (at p95)`,
    );
    console.log(
      `  summary page within ${TARGET_SUMMARY_RATIO}× the plain aggregate: ${(s50 / b50).toFixed(2)}× at p50 — ${s50 <= TARGET_SUMMARY_RATIO * b50 ? 'met' : 'NOT met'}`,
    );

    console.log('\nSlowest statements of the slowest call of each:');
    for (const r of [ledger!, summary!]) {
      for (const s of [...r.statements].sort((a, b) => b.ms - a.ms).slice(0, 3))
        console.log(`  ${r.name.slice(0, 30).padEnd(30)} ${ms(s.ms).padStart(7)} ms  ${oneLine(s.text).slice(0, 110)}…`);
    }
    if (process.env.BENCH_EXPLAIN === '1') {
      for (const r of [ledger!, summary!]) {
        const [worst] = [...r.statements].sort((a, b) => b.ms - a.ms);
        if (!worst) continue;
        const client = await (db.$client as pg.Pool).connect();
        try {
          const plan = await client.query<{ 'QUERY PLAN': string }>({ text: `explain (analyze, buffers) ${worst.text}`, values: worst.values });
          console.log(`\nEXPLAIN ANALYZE, slowest statement of ${r.name} (${ms(worst.ms)} ms):\n${oneLine(worst.text).slice(0, 300)}…`);
          for (const row of plan.rows) console.log(`  ${row['QUERY PLAN']}`);
        } finally {
          client.release();
        }
      }
    }
  });
}

// Run directly: `npx tsx bench/hours.ts`.
if (import.meta.url === `file://${process.argv[1]}`) await run();
