import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { seedDemoSchool, type SeedAccount } from '../server/seed/demo-school.ts';
import { hidden, seedClassNow, seriousViolations, signedInApi, useBrowserAndServer, visible, watchedPage, type SeededClass, type TestUser } from './support.ts';

// Decision 046, screens that did not fit: the live roster (Override cut at 1366 px; status and
// every action hidden on a phone), the School Calendar (722 px wide on a 390 px phone), Settings ›
// System and Your sessions (wider than a phone), and two axe findings (scrollable-region-focusable
// on the student page at 390 px, link-in-text-block on Make-up owed). Each screen: nothing wider
// than the window at 390 and 1366 px, axe finds nothing serious, and a small screenshot of it is
// kept in docs/screenshots.

const SHOTS = path.resolve('docs/screenshots');
const DESKTOP = { width: 1366, height: 900 };
const PHONE = { width: 390, height: 844 };

const env = useBrowserAndServer();
let admin: SeedAccount;
let instructor: TestUser;
let klass: SeededClass;
let studentId: number;

const LONG_REASON = 'Arrived on time but the phone battery was flat; confirmed in person by the instructor at the door';

beforeAll(async () => {
  const { server } = env;
  const seeded = await seedDemoSchool(server.db, { today: new Date() });
  admin = seeded.accounts.find((a) => a.role === 'super_admin')!;
  instructor = await server.createUser('instructor', { firstName: 'Rosa', lastName: 'Roster' });
  klass = await seedClassNow(
    server.db,
    instructor.email,
    ['Ana Díaz-Montenegro', 'Ben Okafor', 'Chloe Van der Westhuizen', 'Dev Patel', 'Eli Nguyễn', 'Fay Kowalski'].map((name, i) => {
      const [firstName, ...rest] = name.split(' ') as [string, ...string[]];
      const lastName = rest.join(' ');
      return { firstName, lastName, email: `fit.${i}@student.example`, sisStudentId: `SIS-FIT-${1000 + i}` };
    }),
  );
  // A live session, and the rows that make the roster widest: a check-in, a check-out (Undo
  // check-out and History), an override with a long reason, an automatic absence.
  const api = await signedInApi(server.baseUrl, instructor);
  const started = await api.post('/api/qr-sessions', { data: { scheduleId: klass.scheduleId } });
  expect(started.ok()).toBe(true);
  await api.dispose();
  const [a, b, c, d] = klass.students;
  const today = sql`(now() at time zone (select time_zone from school_settings))::date`;
  await server.db.execute(sql`
    insert into attendance_records (student_id, schedule_id, session_date, status, scan_in_time, source)
    values (${a!.id}, ${klass.scheduleId}, ${today}, 'present', now() - interval '4 minutes', 'qr')`);
  await server.db.execute(sql`
    insert into attendance_records (student_id, schedule_id, session_date, status, scan_in_time, scan_out_time, minutes_attended, scheduled_minutes, source)
    values (${b!.id}, ${klass.scheduleId}, ${today}, 'incomplete', now() - interval '4 minutes', now() - interval '1 minute', 3, 120, 'qr')`);
  await server.db.execute(sql`
    insert into attendance_records (student_id, schedule_id, session_date, status, scan_in_time, source, is_manual_override, override_reason, overridden_at)
    values (${c!.id}, ${klass.scheduleId}, ${today}, 'late', now() - interval '2 minutes', 'manual', true, ${LONG_REASON}, now())`);
  await server.db.execute(sql`
    insert into attendance_records (student_id, schedule_id, session_date, status, source)
    values (${d!.id}, ${klass.scheduleId}, ${today}, 'absent', 'auto')`);
  // A two-day closure in this month's grid, never today (today's class must meet).
  await server.db.execute(sql`
    insert into calendar_closures (start_date, end_date, name)
    select d, d + 1, 'Thanksgiving and the day after (whole school)'
    from (select date_trunc('month', current_date)::date + case when extract(day from current_date) < 15 then 20 else 3 end as d) x`);
  studentId = (await server.db.execute<{ id: number }>(sql`select id from students order by id limit 1`)).rows[0]!.id;
});

/** A signed-in page (through the API: these screens are under test, not the sign-in page); a touch phone below 768 px. */
async function openContext(
  browser: Browser,
  viewport: { width: number; height: number },
  user: Pick<TestUser, 'email' | 'password'>,
): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const phone = viewport.width < 768;
  const context = await browser.newContext({ baseURL: env.server.baseUrl, viewport, ...(phone ? { isMobile: true, hasTouch: true } : {}) });
  const res = await context.request.post('/api/auth/login', { data: { email: user.email, password: user.password } });
  expect(res.ok()).toBe(true);
  return watchedPage(context);
}

/** What reaches past the window's right edge: the page scrolling sideways, or boxes in main wider than the window. */
async function overflow(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found: string[] = [];
    const root = document.documentElement;
    if (root.scrollWidth > window.innerWidth) found.push(`the page: ${root.scrollWidth} > ${window.innerWidth}`);
    const name = (el: Element) => `${el.tagName.toLowerCase()} "${(el.textContent ?? '').trim().slice(0, 40)}"`;
    for (const el of document.querySelectorAll('main *')) {
      const style = getComputedStyle(el);
      if (style.display === 'none' || el.closest('.sr-only')) continue;
      if (/auto|scroll/.test(style.overflowX) && el.scrollWidth > el.clientWidth + 1)
        found.push(`scrolls sideways: ${name(el)} ${el.scrollWidth} > ${el.clientWidth}`);
      const r = el.getBoundingClientRect();
      if (r.width > 0 && r.right > root.clientWidth + 0.5) found.push(`past the edge: ${name(el)} ${Math.round(r.left)}–${Math.round(r.right)}`);
    }
    return found.slice(0, 8);
  });
}

/** Fits the window, axe finds nothing serious, and a viewport screenshot (CSS pixels: small) goes to docs/screenshots. */
async function expectFits(page: Page, name: string): Promise<void> {
  const width = page.viewportSize()!.width;
  expect(await overflow(page), `${name} at ${width}`).toEqual([]);
  expect(await seriousViolations(page), `${name} at ${width}`).toEqual([]);
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.waitForTimeout(300); // entry animations
  await page.screenshot({ path: path.join(SHOTS, `${name}-${width}.png`), scale: 'css' });
}

/**
 * What a server that has run for a while tells Settings › System (a test server runs no jobs and has
 * made no backup): every background job with its last run, one failed with its error, and a backup
 * with its full path. These made the tab wider than a phone.
 */
async function withRunningServerFacts(page: Page): Promise<void> {
  const at = new Date(Date.now() - 3 * 60_000).toISOString();
  const run = (state: string, error: string | null = null) => ({ state, createdAt: at, startedAt: at, completedAt: at, retryCount: error ? 2 : 0, error });
  const jobs = [
    ['interrupted-uploads', '* * * * *'],
    ['rate-limit-counters', '*/10 * * * *'],
    ['login-session-cleanup', '7 * * * *'],
    ['students-at-risk-daily', '11 * * * *'],
    ['retention', '23 */6 * * *'],
    ['nightly-backup', '* * * * *'],
    ['low-attendance-alerts', '*/15 * * * *'],
    ['outbox-delivery', '* * * * *'],
  ].map(([name, schedule]) => ({
    name,
    schedule,
    runs: [name === 'outbox-delivery' ? run('failed', 'connect ECONNREFUSED 10.20.30.40:587 (smtp.mail-relay.school-district.example)') : run('completed')],
  }));
  await page.route('**/api/settings/jobs', (route) => route.fulfill({ json: jobs }));
  await page.route('**/api/settings/system-status', async (route) => {
    const status = (await (await route.fetch()).json()) as Record<string, unknown>;
    const lastBackup = {
      id: 7,
      status: 'completed',
      at,
      sizeBytes: 48_213_504,
      host: 'muster-app-01.campus.school-district.example',
      path: '/var/lib/muster/data/backups/muster-backup-2026-11-26T02-00-04-118Z.dump',
      error: null,
    };
    await route.fulfill({ json: { ...status, lastBackup } });
  });
}

// Axe on a whole screen takes a while on two shared cores.
describe.each([DESKTOP, PHONE])('at $width px', { timeout: 120_000 }, (viewport) => {
  it('the live roster: every student’s status and Override on the screen', async () => {
    const { context, page, errors } = await openContext(env.browser, viewport, instructor);
    try {
      await page.goto(`/attendance?schedule=${klass.scheduleId}`);
      const roster = page.getByRole('table', { name: /^Roster for / });
      await visible(roster);
      await visible(page.getByText(/Checked in 3 of 6/));
      for (const s of klass.students) {
        const name = `${s.firstName} ${s.lastName}`;
        const override = page.getByRole('button', { name: `Override attendance for ${name}` });
        await override.scrollIntoViewIfNeeded();
        const box = (await override.boundingBox())!;
        expect(box.x, name).toBeGreaterThanOrEqual(0);
        expect(box.x + box.width, name).toBeLessThanOrEqual(viewport.width);
        const hit = await override.evaluate((el) => {
          const r = el.getBoundingClientRect();
          return el.contains(document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2));
        });
        expect(hit, `${name}: Override not covered`).toBe(true);
      }
      // Status in the row of its student, visible.
      const ben = `${klass.students[1]!.firstName} ${klass.students[1]!.lastName}`;
      const benRow = roster.getByRole('row').filter({ has: page.getByRole('rowheader', { name: ben }) });
      expect(await benRow.getByText('Incomplete', { exact: true }).isVisible()).toBe(true);
      expect(await benRow.getByRole('button', { name: `Undo check-out for ${ben}` }).isVisible()).toBe(true);
      // Override opens its dialog.
      await page.getByRole('button', { name: `Override attendance for ${ben}` }).click();
      await visible(page.getByRole('dialog', { name: /Override/ }));
      await page.keyboard.press('Escape');
      await hidden(page.getByRole('dialog'));
      await page.evaluate(() => window.scrollTo(0, 0));
      await roster.scrollIntoViewIfNeeded();
      await expectFits(page, 'roster');
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('the School Calendar', async () => {
    const { context, page, errors } = await openContext(env.browser, viewport, admin);
    try {
      await page.goto('/calendar');
      await visible(page.getByRole('table', { name: /^Closures in / }));
      await visible(page.getByRole('list', { name: 'Closures' }));
      await expectFits(page, 'calendar');
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('Settings › System', async () => {
    const { context, page, errors } = await openContext(env.browser, viewport, admin);
    try {
      await withRunningServerFacts(page);
      await page.goto('/settings?tab=system');
      await visible(page.getByRole('heading', { name: 'Data & Uploads' }));
      await visible(page.getByTestId('last-backup'));
      await visible(page.getByRole('table', { name: 'Background jobs and their last run' }));
      await expectFits(page, 'settings-system');
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('Your sessions', async () => {
    // Two sign-ins: the list has another session to end.
    await signedInApi(env.server.baseUrl, admin).then((api) => api.dispose());
    const { context, page, errors } = await openContext(env.browser, viewport, admin);
    try {
      await page.goto('/sessions');
      await visible(page.getByRole('button', { name: /^End session: / }).first());
      await expectFits(page, 'sessions');
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('the student page, both tabs: axe finds nothing serious', async () => {
    const { context, page, errors } = await openContext(env.browser, viewport, admin);
    try {
      await page.goto(`/students/${studentId}`);
      await visible(page.getByRole('heading', { name: 'Satisfactory academic progress' }));
      await visible(page.getByRole('heading', { name: 'Make-up sessions' }));
      await page.waitForLoadState('networkidle');
      // Its wide tables (make-up sessions has seven columns) may scroll inside their cards, as
      // keyboard-reachable regions; the page itself does not.
      const pageFits = () => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
      expect(await pageFits()).toBe(true);
      expect(await seriousViolations(page)).toEqual([]);
      await page.getByRole('tab', { name: 'History' }).click();
      await page.waitForLoadState('networkidle');
      expect(await pageFits()).toBe(true);
      expect(await seriousViolations(page)).toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('Compliance › Make-up owed: axe finds nothing serious', async () => {
    const { context, page, errors } = await openContext(env.browser, viewport, admin);
    try {
      await page.goto('/compliance?tab=make-up');
      await visible(page.getByRole('table', { name: /make-up deadline/ }));
      await page.waitForLoadState('networkidle');
      expect(await seriousViolations(page)).toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
