import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { eq } from 'drizzle-orm';
import {
  chromium,
  request,
  type APIRequestContext,
  type Browser,
  type BrowserContext,
  type BrowserContextOptions,
  type Locator,
  type Page,
} from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import type { Role } from '../common/roles.ts';
import { requireBrowser } from '../scripts/browser.mjs';
import { buildApp } from '../server/app.ts';
import type { Config } from '../server/config.ts';
import type { Clock } from '../server/lib/clock.ts';
import { loadConfig } from '../server/config.ts';
import type { Db } from '../server/db/client.ts';
import { courses, scheduleRosters, schedules, students, users } from '../server/db/schema/index.ts';
import { insertUser } from '../server/modules/auth/service.ts';
import { createTestDatabase } from '../server/test/helpers.ts';

export type TestUser = { email: string; password: string; firstName: string; lastName: string; role: Role };

export type E2eServer = {
  baseUrl: string;
  db: Db;
  createUser: (role: Role, overrides?: Partial<Omit<TestUser, 'role'>>) => Promise<TestUser>;
  close: () => Promise<void>;
};

/** The real app (API + built web app from dist/web) on a free loopback port, with its own database. */
export async function startServer(opts: { config?: Partial<Config>; port?: number; clock?: Clock } = {}): Promise<E2eServer> {
  const database = await createTestDatabase();
  // A scratch data directory: the app may write files there (e.g. a generated encryption key).
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'muster-e2e-data-'));
  const config = { ...loadConfig({ NODE_ENV: 'test' }), databaseUrl: database.url, dataDir, ...opts.config };
  const app = await buildApp({ db: database.db, config, clock: opts.clock });
  await app.listen({ host: '127.0.0.1', port: opts.port ?? 0 });
  const { port } = app.server.address() as AddressInfo;
  let counter = 0;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    db: database.db,
    createUser: async (role, o = {}) => {
      counter += 1;
      const user: TestUser = {
        role,
        email: o.email ?? `${role.replace('_', '.')}.${counter}.${randomBytes(3).toString('hex')}@school.example`,
        password: o.password ?? 'correct horse battery staple',
        firstName: o.firstName ?? 'Alex',
        lastName: o.lastName ?? `Tester${counter}`,
      };
      await insertUser(database.db, user);
      return user;
    },
    close: async () => {
      await app.close();
      await database.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Chromium and a server for the whole test file: started before its tests, closed after them.
 * Read `browser` and `server` from the returned object inside hooks and tests.
 */
export function useBrowserAndServer(opts?: Parameters<typeof startServer>[0]): { browser: Browser; server: E2eServer } {
  const env = {} as { browser: Browser; server: E2eServer };
  beforeAll(async () => {
    [env.browser, env.server] = await Promise.all([launchBrowser(), startServer(opts)]);
  });
  afterAll(async () => {
    await env.browser?.close();
    await env.server?.close();
  });
  return env;
}

/** The machine's Chromium (scripts/browser.mjs): Playwright cannot download its own browser on these machines. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: requireBrowser(),
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-dev-shm-usage',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}

/**
 * Report every Content-Security-Policy violation of the context's pages as a console error, so the
 * `errors` lists below catch it: Chromium tells a blocked eval (zod's JIT probe was one, on every
 * admin page) only to the page's securitypolicyviolation event, not to the console API.
 */
export async function reportCspViolations(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => console.error(`CSP violation: ${e.violatedDirective} blocked ${e.blockedURI || 'inline'}`));
  });
}

/**
 * A new page in `context`. `errors` collects uncaught exceptions and console errors such as
 * Content-Security-Policy refusals; failed requests (an expected 401) are left out.
 */
export async function watchedPage(context: BrowserContext): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  await reportCspViolations(context);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (err) => errors.push(`pageerror: ${err.message}`));
  page.on('console', (msg) => {
    if (msg.type() === 'error' && !msg.text().startsWith('Failed to load resource')) errors.push(`console: ${msg.text()}`);
  });
  return { context, page, errors };
}

/** A fresh browser context (no cookies) and a watched page (see watchedPage). */
export async function newPage(
  browser: Browser,
  baseUrl: string,
  viewport = { width: 1280, height: 800 },
): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await browser.newContext({ baseURL: baseUrl, viewport });
  return watchedPage(context);
}

/** Wait until the locator is visible (vitest's expect does not retry like Playwright's). */
export async function visible(locator: Locator, timeout = 10_000): Promise<Locator> {
  await locator.first().waitFor({ state: 'visible', timeout });
  return locator;
}

export async function hidden(locator: Locator, timeout = 10_000): Promise<void> {
  await locator.first().waitFor({ state: 'hidden', timeout });
}

/** Assert the tab title, waiting briefly: screens set it in an effect, just after they render. */
export async function expectTitle(page: Page, expected: string): Promise<void> {
  await page.waitForFunction((t) => document.title === t, expected, { timeout: 5_000 }).catch(() => {});
  expect(await page.title()).toBe(expected);
}

/** Sign in through the real sign-in page and wait for the signed-in dashboard. */
export async function signIn(page: Page, user: Pick<TestUser, 'email' | 'password'>): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('E-mail').fill(user.email);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await page.waitForURL((url) => url.pathname === '/');
  await visible(page.getByRole('heading', { level: 1, name: 'System Dashboard' }));
}

/** Axe violations of impact serious or critical, as "rule: target" lines for a readable failure. */
export async function seriousViolations(page: Page): Promise<string[]> {
  // Let entry animations finish: a dialog fading in is half-transparent, and axe would measure
  // the contrast of that passing frame.
  // Infinite ones (spinners, pulsing dots) never finish and are left out.
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((a) => Number.isFinite(Number(a.effect?.getComputedTiming().endTime ?? Infinity)))
        .map((a) => a.finished.catch(() => undefined)),
    ),
  );
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) => v.nodes.map((n) => `${v.id} (${v.impact}): ${n.target.join(' ')} — ${v.help}`));
}

/** Set E2E_SCREENSHOTS=<dir> to keep full-page screenshots of the journeys for a visual review. */
export async function screenshot(page: Page, name: string): Promise<void> {
  const dir = process.env.E2E_SCREENSHOTS;
  if (!dir) return;
  fs.mkdirSync(dir, { recursive: true });
  await page.waitForTimeout(400); // let entry animations (menu slide-in, toasts) finish
  await page.screenshot({ path: path.join(dir, `${name}.png`), fullPage: true });
}

/** Runs `use` on an opened page and closes its context afterwards, whether it passed or failed. */
export async function usingPage(
  opening: Promise<{ context: BrowserContext; page: Page; errors: string[] }>,
  use: (p: { page: Page; errors: string[] }) => Promise<void>,
): Promise<void> {
  const { context, page, errors } = await opening;
  try {
    await use({ page, errors });
  } finally {
    await context.close();
  }
}

/** Runs `use` on a fresh page (see newPage), then closes it. */
export function withNewPage(browser: Browser, baseUrl: string, use: (p: { page: Page; errors: string[] }) => Promise<void>): Promise<void> {
  return usingPage(newPage(browser, baseUrl), use);
}

/** A phone-sized touch context (390×844, like a mid-range phone), for the public scan page; with JavaScript off when asked. */
export async function newPhonePage(
  browser: Browser,
  baseUrl: string,
  opts: { javaScriptEnabled?: boolean } = {},
): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await browser.newContext({
    baseURL: baseUrl,
    viewport: { width: 390, height: 844 },
    isMobile: true,
    hasTouch: true,
    deviceScaleFactor: 2,
    ...opts,
  });
  return watchedPage(context);
}

export type SeededStudent = { id: number; sisStudentId: string; firstName: string; lastName: string; email: string };
export type SeededClass = {
  scheduleId: number;
  otherScheduleId: number;
  programId: number;
  courseName: string;
  courseCode: string;
  roomNumber: string;
  students: SeededStudent[];
};

/** 'HH:MM' of an instant in a time zone. */
function wallClock(at: Date, timeZone: string): { hhmm: string; minutes: number; weekday: number } {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', { timeZone, hour: '2-digit', minute: '2-digit', weekday: 'short', hourCycle: 'h23' })
      .formatToParts(at)
      .map((p) => [p.type, p.value]),
  );
  const minutes = Number(parts.hour) * 60 + Number(parts.minute);
  const weekday = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'].indexOf(parts.weekday ?? '');
  return { hhmm: `${parts.hour}:${parts.minute}`, minutes, weekday };
}

const hhmm = (minutes: number) => `${String(Math.floor(minutes / 60) % 24).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;

/**
 * A class happening now for an instructor: program, course, a schedule for today that started
 * five minutes ago in the school's time zone (default UTC), its roster, and a second schedule of
 * the same instructor on another day (so the picker has a real choice).
 */
export async function seedClassNow(db: Db, instructorEmail: string, roster: Omit<SeededStudent, 'id'>[], lengthMinutes = 120): Promise<SeededClass> {
  const { sql } = await import('drizzle-orm');
  const one = async <T>(q: ReturnType<typeof sql>) => (await db.execute<T & Record<string, unknown>>(q)).rows[0] as T;
  const { time_zone: timeZone } = await one<{ time_zone: string }>(sql`select time_zone from school_settings`);
  const { id: instructorId } = await one<{ id: number }>(sql`select id from users where lower(email) = lower(${instructorEmail})`);
  const now = wallClock(new Date(), timeZone);
  // Five minutes ago, kept on today's date just after midnight; two hours long unless told (may cross midnight).
  const start = Math.max(0, now.minutes - 5);
  const tag = randomBytes(3).toString('hex').toUpperCase();
  const courseName = 'Fundamentals of Nursing';
  const courseCode = `NUR-${tag}`;
  const roomNumber = 'B-204';
  const { id: programId } = await one<{ id: number }>(sql`insert into programs (program_name) values (${`Practical Nursing ${tag}`}) returning id`);
  const { id: courseId } = await one<{ id: number }>(
    sql`insert into courses (course_code, course_name, program_id, clock_hours) values (${courseCode}, ${courseName}, ${programId}, 120) returning id`,
  );
  const insertSchedule = (day: number, from: string, to: string, room: string) =>
    one<{ id: number }>(sql`
      insert into schedules (course_id, instructor_id, cohort_number, term_number, day_of_week, start_time, end_time, room_number, course_start_date, course_end_date)
      values (${courseId}, ${instructorId}, 1, 1, ${day}, ${from}, ${to}, ${room}, current_date - 30, current_date + 60) returning id`);
  const { id: scheduleId } = await insertSchedule(now.weekday, hhmm(start), hhmm(start + lengthMinutes), roomNumber);
  const { id: otherScheduleId } = await insertSchedule((now.weekday + 3) % 7, '13:00', '15:00', 'C-110');
  const students: SeededStudent[] = [];
  for (const s of roster) {
    const { id } = await one<{ id: number }>(sql`
      insert into students (first_name, last_name, email, sis_student_id, program_id) values (${s.firstName}, ${s.lastName}, ${s.email}, ${s.sisStudentId}, ${programId}) returning id`);
    await db.execute(sql`insert into schedule_rosters (schedule_id, student_id) values (${scheduleId}, ${id})`);
    students.push({ id, ...s });
  }
  return { scheduleId, otherScheduleId, programId, courseName, courseCode, roomNumber, students };
}

/**
 * An HTTP client signed in as `user` (its own cookie jar), for seeding data through the real API
 * and for checking what the API answers a role. Dispose it when done.
 */
export async function signedInApi(baseUrl: string, user: Pick<TestUser, 'email' | 'password'>): Promise<APIRequestContext> {
  const api = await request.newContext({ baseURL: baseUrl });
  const res = await api.post('/api/auth/login', { data: { email: user.email, password: user.password } });
  if (!res.ok()) throw new Error(`sign-in for seeding failed: ${res.status()} ${await res.text()}`);
  return api;
}

/** POST/PUT JSON through `api` and return the parsed answer, failing loudly on a non-2xx status. */
export async function apiSend<T>(api: APIRequestContext, method: 'POST' | 'PUT' | 'PATCH', url: string, data?: unknown): Promise<T> {
  const res = await api.fetch(url, { method, data });
  if (!res.ok()) throw new Error(`${method} ${url} → ${res.status()}: ${await res.text()}`);
  return (await res.json()) as T;
}

/** Ends what a test file started, in order, passing over what never started: API clients, Chromium, servers. */
export async function closeAll(...started: ({ dispose: () => Promise<void> } | { close: () => Promise<void> } | undefined)[]): Promise<void> {
  for (const one of started) {
    if (!one) continue;
    await ('dispose' in one ? one.dispose() : one.close());
  }
}

/** A browser sign-in's cookies (Playwright's storage state): a context made with them starts signed in. */
export type SignedInState = Awaited<ReturnType<BrowserContext['storageState']>>;

/**
 * Signs `user` in once through the real sign-in page and keeps the cookies, so the file's pages open
 * signed in instead of each signing in (sign-in is rate-limited).
 */
export async function signInOnce(browser: Browser, baseUrl: string, user: Pick<TestUser, 'email' | 'password'>): Promise<SignedInState> {
  const context = await browser.newContext({ baseURL: baseUrl });
  const page = await context.newPage();
  await signIn(page, user);
  const state = await context.storageState();
  await context.close();
  return state;
}

/**
 * How most administrator journeys start: Chromium and a server, an it_admin (Morgan Admin), and an
 * API client signed in as them, to seed through the real API. Seed, then signInOnce for the pages.
 */
export async function startAdminJourney(): Promise<{ browser: Browser; server: E2eServer; admin: TestUser; api: APIRequestContext }> {
  const [browser, server] = await Promise.all([launchBrowser(), startServer()]);
  try {
    const admin = await server.createUser('it_admin', { firstName: 'Morgan', lastName: 'Admin' });
    const api = await signedInApi(server.baseUrl, admin);
    return { browser, server, admin, api };
  } catch (err) {
    await closeAll(browser, server);
    throw err;
  }
}

/** A watched page (see watchedPage) in a new context, 1280×900 unless `options` say otherwise, signed in with `state` when given. */
export async function openSignedIn(
  browser: Browser,
  baseUrl: string,
  state: SignedInState | undefined,
  options: BrowserContextOptions = {},
): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  return watchedPage(await browser.newContext({ baseURL: baseUrl, viewport: { width: 1280, height: 900 }, storageState: state, ...options }));
}

/** openSignedIn, then `path`, once its h1 `heading` shows. */
export async function openSignedInAt(
  browser: Browser,
  baseUrl: string,
  state: SignedInState,
  path: string,
  heading: string,
  options: BrowserContextOptions = {},
): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const opened = await openSignedIn(browser, baseUrl, state, options);
  await opened.page.goto(path);
  await visible(opened.page.getByRole('heading', { level: 1, name: heading }));
  return opened;
}

/**
 * The toast viewport. Radix renders a second, visually hidden copy for screen readers elsewhere, and
 * while a modal dialog is open the page behind it, toasts included, is aria-hidden: include hidden.
 */
export const toasts = (page: Page): Locator => page.getByRole('region', { name: /Notification/, includeHidden: true });

/** Today as YYYY-MM-DD on the school's clock. */
export function schoolToday(timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());
}

/** Starts a QR session of the class as `staff` (its instructor's API client) and answers the session's id. */
async function startQrSession(staff: APIRequestContext, scheduleId: number): Promise<string> {
  return (await apiSend<{ sessionId: string }>(staff, 'POST', '/api/qr-sessions', { scheduleId })).sessionId;
}

/** The scan URL the classroom screen shows now: its token is fresh for 15 to 30 seconds. */
export async function scanUrlNow(staff: APIRequestContext, sessionId: string): Promise<string> {
  return ((await (await staff.get(`/api/qr-sessions/${sessionId}/qr-image`)).json()) as { attendanceUrl: string }).attendanceUrl;
}

/**
 * A class of `instructor` happening now (seedClassNow), its QR session started, and the
 * instructor's API client (`staff`), which reads the classroom screen and the roster. Dispose `staff`.
 */
export async function seedClassInSession(
  server: E2eServer,
  instructor: TestUser,
  roster: Omit<SeededStudent, 'id'>[],
): Promise<{ cls: SeededClass; staff: APIRequestContext; sessionId: string }> {
  const cls = await seedClassNow(server.db, instructor.email, roster);
  const staff = await signedInApi(server.baseUrl, instructor);
  return { cls, staff, sessionId: await startQrSession(staff, cls.scheduleId) };
}

/**
 * Straight into the database: a new instructor's weekly class of a program (a course, and a schedule
 * on the weekday of `meets` between `courseStartDate` and `courseEndDate`) and one student of the
 * program, on the class's roster when `rostered`. Attendance is the caller's to add.
 */
export async function seedWeeklyClass(
  server: E2eServer,
  c: {
    programId: number;
    course: { courseCode: string; courseName: string; clockHours: string };
    meets: string;
    startTime: string;
    endTime: string;
    courseStartDate: string;
    courseEndDate: string;
    student: Omit<typeof students.$inferInsert, 'programId'>;
    rostered?: boolean;
  },
): Promise<{ scheduleId: number; studentId: number }> {
  const instructor = await server.createUser('instructor');
  const [{ id: instructorId }] = (await server.db.select({ id: users.id }).from(users).where(eq(users.email, instructor.email))) as [{ id: number }];
  const [{ id: courseId }] = (await server.db
    .insert(courses)
    .values({ ...c.course, programId: c.programId })
    .returning({ id: courses.id })) as [{ id: number }];
  const [{ id: scheduleId }] = (await server.db
    .insert(schedules)
    .values({
      courseId,
      instructorId,
      cohortNumber: 1,
      termNumber: 1,
      dayOfWeek: new Date(`${c.meets}T00:00:00Z`).getUTCDay(),
      startTime: c.startTime,
      endTime: c.endTime,
      courseStartDate: c.courseStartDate,
      courseEndDate: c.courseEndDate,
    })
    .returning({ id: schedules.id })) as [{ id: number }];
  const [{ id: studentId }] = (await server.db
    .insert(students)
    .values({ ...c.student, programId: c.programId })
    .returning({ id: students.id })) as [{ id: number }];
  if (c.rostered) await server.db.insert(scheduleRosters).values({ scheduleId, studentId });
  return { scheduleId, studentId };
}

/** The texts of the elements a field's aria-describedby names, joined: its hint and its messages. */
export async function describedBy(field: Locator): Promise<string> {
  const ids = (await field.getAttribute('aria-describedby')) ?? '';
  const texts = await Promise.all(
    ids
      .split(' ')
      .filter(Boolean)
      .map((id) => field.page().locator(`[id="${id}"]`).textContent()),
  );
  return texts.join(' ');
}
