// Benchmark: the student's phone on a crowded classroom network. Chromium (/usr/bin/chromium)
// emulating a cheap phone (400 kbit/s down and up, 400 ms round trip, CPU slowed 4×, cold cache)
// opens the QR link, fills the form and submits; then opens the sign-in page. Three cold runs,
// median, each printed beside its budget. Then Lighthouse on the scan page (performance and
// accessibility), when bench's own tools are installed (npm install --prefix bench).
// Run: npm run bench -- scan-phone
import { randomBytes } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { chromium, type Browser, type CDPSession, type Page } from 'playwright-core';
import { buildApp } from '../server/app.ts';
import { loadConfig } from '../server/config.ts';
import { createFieldCipher } from '../server/lib/field-cipher.ts';
import { requireBrowser } from '../scripts/browser.mjs';
import { PROJECT_ROOT } from '../server/lib/project-root.ts';
import { tokenAt } from '../server/modules/qr-sessions/tokens.ts';
import { withBenchDatabase } from './bench-database.ts';

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
/** The classroom: 400 kbit/s each way, 400 ms round trip, a phone four times slower than this machine. */
const NETWORK = { offline: false, latency: 400, downloadThroughput: (400 * 1000) / 8, uploadThroughput: (400 * 1000) / 8 };
const CPU_SLOWDOWN = 4;
const BUDGET = { scanUsableMs: 2000, scanBytes: 30 * 1024, submitMs: 1000, signInUsableMs: 3000, lighthousePerformance: 95, lighthouseAccessibility: 100 };

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const verdict = (ok: boolean) => (ok ? 'PASS' : 'FAIL');

/** Bytes on the wire (headers included, compressed as sent) of every response so far. */
async function wireMeter(cdp: CDPSession) {
  const received = new Map<string, number>();
  cdp.on('Network.dataReceived', (e) => received.set(e.requestId, (received.get(e.requestId) ?? 0) + e.encodedDataLength));
  cdp.on('Network.loadingFinished', (e) => received.set(e.requestId, e.encodedDataLength));
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  await cdp.send('Network.emulateNetworkConditions', NETWORK);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
  return () => [...received.values()].reduce((a, b) => a + b, 0);
}

/** A fresh phone (no cache, no cookies) with the classroom's network. */
async function coldPhone(browser: Browser): Promise<{ page: Page; bytes: () => number; close: () => Promise<void> }> {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, isMobile: true, hasTouch: true, locale: 'en-US' });
  const page = await context.newPage();
  const bytes = await wireMeter(await context.newCDPSession(page));
  return { page, bytes, close: () => context.close() };
}

/**
 * Milliseconds from the start of the navigation until every named input and a submit button are
 * laid out on screen, enabled: checked in the page on every animation frame (frames wait for
 * render-blocking CSS), so the figure is not rounded up to a test driver's polling interval.
 */
async function timeUntilUsable(page: Page, url: string, inputs: readonly string[]): Promise<number> {
  // A string, not a function: tsx names inner functions with a helper the page does not have.
  await page.addInitScript({
    content: `(() => {
      const names = ${JSON.stringify(inputs)};
      const shown = (el) => el instanceof HTMLElement && el.getBoundingClientRect().height > 0 && !el.disabled;
      const check = () => {
        if (names.every((n) => shown(document.querySelector('input[name="' + n + '"]'))) && document.querySelector('button[type="submit"]')) window.usableAt = performance.now();
        else requestAnimationFrame(check);
      };
      requestAnimationFrame(check);
    })();`,
  });
  await page.goto(url, { waitUntil: 'commit', timeout: 60_000 });
  await page.waitForFunction(() => (window as unknown as { usableAt?: number }).usableAt !== undefined, undefined, { timeout: 60_000, polling: 100 });
  return page.evaluate(() => (window as unknown as { usableAt: number }).usableAt);
}

/** Milliseconds from pressing the submit button until the page says `done`, watched in the page. */
function timeUntilAnswered(page: Page, done: string): Promise<number> {
  return page.evaluate(
    (text) =>
      new Promise<number>((resolve) => {
        const t0 = performance.now();
        const observer = new MutationObserver(() => {
          if (!document.body.innerText.includes(text)) return;
          observer.disconnect();
          resolve(performance.now() - t0);
        });
        observer.observe(document.body, { childList: true, subtree: true, characterData: true });
        document.querySelector<HTMLButtonElement>('button[type="submit"]')!.click();
      }),
    done,
  );
}

const SCAN_FORM = ['studentId', 'firstName', 'lastName', 'email'];
const SIGN_IN_FORM = ['email', 'password'];

export async function run(): Promise<void> {
  // The production web build the server sends (built if missing or stale).
  const built = spawnSync(process.execPath, [path.join(PROJECT_ROOT, 'scripts', 'ensure-build.mjs'), 'web'], { stdio: 'inherit' });
  if (built.status !== 0) throw new Error('web build failed');
  await withBenchDatabase({ name: 'scan-phone', port: 56700, poolSize: 10 }, async (db, url) => {
    const now = new Date();
    const start = new Date(now.getTime() - 5 * 60_000).toISOString().slice(11, 16);
    const end = new Date(now.getTime() + 3 * 3_600_000).toISOString().slice(11, 16);
    const { rows } = await db.execute<{ schedule_id: number }>(sql`
      with p as (insert into programs (program_name) values ('Practical Nursing') returning id),
           c as (insert into courses (course_code, course_name, program_id) select 'NUR-101', 'Fundamentals of Nursing', id from p returning id),
           u as (insert into users (email, role, first_name, last_name) values ('bench.instructor@x.edu', 'instructor', 'Dana', 'Reyes') returning id)
      insert into schedules (course_id, instructor_id, cohort_number, term_number, day_of_week, start_time, end_time, course_start_date, course_end_date, room_number)
      select c.id, u.id, 1, 1, extract(dow from now())::int, ${start}::time, ${end}::time, current_date - 30, current_date + 30, 'B-204' from c, u
      returning id as schedule_id`);
    const scheduleId = rows[0]!.schedule_id;
    await db.execute(sql`
      with s as (insert into students (first_name, last_name, sis_student_id, email) select 'Student' || g, 'Bench', 'SIS-' || g, 'student' || g || '@x.edu' from generate_series(1, ${RUNS}) g returning id)
      insert into schedule_rosters (schedule_id, student_id) select ${scheduleId}, id from s`);
    const secret = randomBytes(32);
    const { rows: sess } = await db.execute<{ session_id: string }>(sql`
      insert into qr_sessions (schedule_id, token_secret, session_date, expires_at) values (${scheduleId}, ${secret}, current_date, now() + interval '1 hour') returning session_id::text`);
    const sessionId = sess[0]!.session_id;

    const config = { ...loadConfig({ NODE_ENV: 'production' }), databaseUrl: url };
    const app = await buildApp({ db, config, cipher: createFieldCipher(randomBytes(32)) }, { webRoot: path.join(PROJECT_ROOT, 'dist', 'web') });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
    const scanUrl = () => `${base}/attendance/scan/${sessionId}?t=${tokenAt(secret, sessionId, new Date()).token}`;

    const browser = await chromium.launch({ executablePath: requireBrowser(), args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] });
    const scan: { usable: number; bytes: number; submit: number }[] = [];
    const signIn: { usable: number; bytes: number }[] = [];
    try {
      for (let run = 1; run <= RUNS; run++) {
        const phone = await coldPhone(browser);
        const usable = await timeUntilUsable(phone.page, scanUrl(), SCAN_FORM);
        const bytes = phone.bytes();
        await phone.page.getByLabel('Student ID', { exact: true }).fill(`SIS-${run}`);
        await phone.page.getByLabel('First Name', { exact: true }).fill(`Student${run}`);
        await phone.page.getByLabel('Last Name', { exact: true }).fill('Bench');
        await phone.page.getByLabel('Email', { exact: true }).fill(`student${run}@x.edu`);
        // Typing four fields takes a student longer than the page's small script takes to arrive.
        await phone.page.waitForLoadState('networkidle');
        const submit = await timeUntilAnswered(phone.page, 'Attendance Marked!');
        scan.push({ usable, bytes, submit });
        await phone.close();

        const desk = await coldPhone(browser);
        const signInUsable = await timeUntilUsable(desk.page, `${base}/login`, SIGN_IN_FORM);
        signIn.push({ usable: signInUsable, bytes: desk.bytes() });
        await desk.close();
        console.log(
          `run ${run}: scan usable ${scan.at(-1)!.usable.toFixed(0)} ms with ${(scan.at(-1)!.bytes / 1024).toFixed(1)} KB, submit ${scan.at(-1)!.submit.toFixed(0)} ms; sign-in usable ${signInUsable.toFixed(0)} ms with ${(desk.bytes() / 1024).toFixed(1)} KB`,
        );
      }
    } finally {
      await browser.close();
    }

    const m = {
      scanUsable: median(scan.map((s) => s.usable)),
      scanBytes: median(scan.map((s) => s.bytes)),
      submit: median(scan.map((s) => s.submit)),
      signInUsable: median(signIn.map((s) => s.usable)),
      signInBytes: median(signIn.map((s) => s.bytes)),
    };
    console.log(`\nThe student's phone (400 kbit/s, 400 ms RTT, CPU ÷${CPU_SLOWDOWN}, cold cache), median of ${RUNS} runs:`);
    console.log(
      `scan page usable     ${m.scanUsable.toFixed(0).padStart(6)} ms   budget ≤ ${BUDGET.scanUsableMs} ms   ${verdict(m.scanUsable <= BUDGET.scanUsableMs)}`,
    );
    console.log(
      `scan page transfer   ${(m.scanBytes / 1024).toFixed(1).padStart(6)} KB   budget ≤ ${BUDGET.scanBytes / 1024} KB     ${verdict(m.scanBytes <= BUDGET.scanBytes)}`,
    );
    console.log(`submit answered      ${m.submit.toFixed(0).padStart(6)} ms   budget ≤ ${BUDGET.submitMs} ms   ${verdict(m.submit <= BUDGET.submitMs)}`);
    console.log(
      `sign-in usable       ${m.signInUsable.toFixed(0).padStart(6)} ms   budget ≤ ${BUDGET.signInUsableMs} ms   ${verdict(m.signInUsable <= BUDGET.signInUsableMs)}   (${(m.signInBytes / 1024).toFixed(1)} KB)`,
    );

    await lighthouseScores(scanUrl());
    await app.close();
  });
}

// Lighthouse and chrome-launcher are bench/package.json's (npm install --prefix bench), kept out of
// the app's install (bench/README.md): typed here by what this file reads of them.
type LighthouseAudit = { id: string; title: string; score: number | null; displayValue?: string; errorMessage?: string };
type LighthouseResult = {
  lhr: {
    categories: Record<string, { score: number | null; auditRefs: { id: string }[] } | undefined>;
    audits: Record<string, LighthouseAudit>;
    runtimeError?: { code: string; message: string };
  };
};
type RunLighthouse = (
  url: string,
  flags: { port: number; output: 'json'; logLevel: 'error'; onlyCategories: string[] },
) => Promise<LighthouseResult | undefined>;
type LaunchChrome = (o: { chromePath: string; chromeFlags: string[] }) => Promise<{ port: number; kill: () => void }>;
/** A bench tool by name: a name in a variable, so the app's typecheck does not look for it. */
const benchTool = (name: string): Promise<Record<string, unknown>> => import(name) as Promise<Record<string, unknown>>;

/** Lighthouse's mobile audit of the scan page (its own simulated slow phone), performance and accessibility. */
async function lighthouseScores(url: string): Promise<void> {
  let lighthouse: RunLighthouse;
  let launch: LaunchChrome;
  try {
    lighthouse = (await benchTool('lighthouse')).default as RunLighthouse;
    launch = (await benchTool('chrome-launcher')).launch as LaunchChrome;
  } catch {
    console.log('lighthouse: not installed (npm install --prefix bench); skipped');
    return;
  }
  const chrome = await launch({ chromePath: requireBrowser(), chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] });
  try {
    const result = await lighthouse(url, { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: ['performance', 'accessibility'] });
    const score = (c: string) => Math.round((result?.lhr.categories[c]?.score ?? 0) * 100);
    const performanceScore = score('performance');
    const accessibility = score('accessibility');
    console.log(
      `lighthouse performance ${String(performanceScore).padStart(4)}      budget ≥ ${BUDGET.lighthousePerformance}        ${verdict(performanceScore >= BUDGET.lighthousePerformance)}`,
    );
    console.log(
      `lighthouse accessibility ${String(accessibility).padStart(2)}      budget = ${BUDGET.lighthouseAccessibility}       ${verdict(accessibility >= BUDGET.lighthouseAccessibility)}`,
    );
    if (result?.lhr.runtimeError) console.log(`  lighthouse could not measure: ${result.lhr.runtimeError.code} ${result.lhr.runtimeError.message}`);
    const audits = result?.lhr.audits ?? {};
    if (audits['first-contentful-paint']?.errorMessage) console.log(`  ${audits['first-contentful-paint'].errorMessage}`);
    for (const id of ['first-contentful-paint', 'largest-contentful-paint', 'total-blocking-time', 'cumulative-layout-shift']) {
      if (audits[id]) console.log(`  ${audits[id].title}: ${audits[id].displayValue ?? ''}`);
    }
    const failing = Object.values(audits).filter(
      (a) => a.score !== null && a.score < 1 && result?.lhr.categories.accessibility?.auditRefs.some((r) => r.id === a.id),
    );
    for (const a of failing) console.log(`  accessibility: ${a.title}`);
  } finally {
    chrome.kill();
  }
}

// Run directly (tsx bench/scan-phone.ts) or through bench/run.ts.
if (import.meta.url === `file://${process.argv[1]}`) await run();
