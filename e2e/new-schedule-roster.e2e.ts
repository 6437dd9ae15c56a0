import { sql } from 'drizzle-orm';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newPage, screenshot, seriousViolations, startServer, usingPage, visible, type E2eServer, type TestUser } from './support.ts';

/**
 * docs/decisions/047: a new schedule silently received 56 students of other
 * cohorts. The create form now shows who its roster will start with (the cohort, the whole
 * program, or nobody), with the count of each choice and the names, before anything is saved;
 * and a cohort can be named ('PN-26A'). At 1366 px and on a 390 px phone, axe clean.
 * E2E_SCREENSHOTS=docs/screenshots keeps the screenshots.
 */

let browser: Browser;
let server: E2eServer;
let admin: TestUser;

beforeAll(async () => {
  [browser, server] = await Promise.all([launchBrowser(), startServer()]);
  admin = await server.createUser('it_admin', { firstName: 'Morgan', lastName: 'Registrar' });
  const one = async (q: ReturnType<typeof sql>) => (await server.db.execute<{ id: number }>(q)).rows[0]!.id;
  const pn = await one(sql`insert into programs (program_name) values ('Practical Nursing') returning id`);
  await one(sql`insert into courses (course_code, course_name, program_id) values ('PN-120', 'Pharmacology', ${pn}) returning id`);
  const fundamentals = await one(sql`insert into courses (course_code, course_name, program_id) values ('PN-101', 'Fundamentals', ${pn}) returning id`);
  const student = (first: string, last: string) =>
    one(sql`insert into students (first_name, last_name, program_id) values (${first}, ${last}, ${pn}) returning id`);
  // Cohort 7 (Ann, Bea) and cohort 6 (Cal, Dot, Eve) already have classes; Fay is in none yet.
  for (const [cohort, members] of [
    [
      7,
      [
        ['Ann', 'Avery'],
        ['Bea', 'Brooks'],
      ],
    ],
    [
      6,
      [
        ['Cal', 'Cruz'],
        ['Dot', 'Diaz'],
        ['Eve', 'Evans'],
      ],
    ],
  ] as const) {
    const sc =
      await one(sql`insert into schedules (course_id, cohort_number, term_number, day_of_week, start_time, end_time, course_start_date, course_end_date)
      values (${fundamentals}, ${cohort}, 1, 1, '08:00', '12:00', current_date - 30, current_date + 90) returning id`);
    for (const [first, last] of members)
      await server.db.execute(sql`insert into schedule_rosters (schedule_id, student_id) values (${sc}, ${await student(first, last)})`);
  }
  await student('Fay', 'Fisher');
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** Signed in through the API (the context shares its cookies): this journey is about the schedule form, not the sign-in page. */
async function signIn(page: Page, user: TestUser) {
  const res = await page.request.post('/api/auth/login', { data: { email: user.email, password: user.password } });
  expect(res.status()).toBe(200);
}

const toasts = (page: Page) => page.getByRole('region', { name: /Notification/, includeHidden: true });

async function openCreateForm(page: Page) {
  await page.goto('/schedules');
  await visible(page.getByRole('heading', { level: 1, name: 'Schedules' }));
  await page.getByRole('button', { name: 'Create Schedule' }).click();
  const form = page.getByRole('dialog', { name: 'Create Schedule' });
  await visible(form);
  return form;
}

async function fillMeeting(form: ReturnType<Page['getByRole']>) {
  await form.getByLabel('Term number').selectOption({ label: 'Term 2' });
  await form.getByLabel('Day of week').selectOption({ label: 'Wednesday' });
  await form.getByLabel('Start time').fill('13:00');
  await form.getByLabel('End time').fill('16:00');
  await form.getByLabel('Course start date').fill('2026-09-02');
  await form.getByLabel('Course end date').fill('2026-12-16');
}

describe('a new schedule’s starting roster', () => {
  it('shows the roster each choice gives, with counts and names, and creates the cohort’s (1366 px)', async () => {
    await usingPage(newPage(browser, server.baseUrl, { width: 1366, height: 900 }), async ({ page, errors }) => {
      await signIn(page, admin);
      const form = await openCreateForm(page);
      const roster = form.getByRole('group', { name: 'Starting roster' });
      await visible(roster.getByText('Choose a course to see who joins the roster.'));

      await form.getByLabel('Course', { exact: true }).selectOption({ label: 'PN-120 — Pharmacology' });
      await form.getByLabel('Cohort number').fill('7');
      const cohort = roster.getByRole('radio', { name: 'Cohort 7 only — 3 students' });
      await visible(cohort);
      expect(await cohort.isChecked()).toBe(true);
      const program = roster.getByRole('radio', { name: 'Everyone enrolled in Practical Nursing — 6 students' });
      await visible(program);
      await visible(roster.getByText('2 students already in the cohort’s classes, and 1 student of Practical Nursing in no class yet.'));
      await visible(roster.getByText('Includes 3 students of other cohorts.'));
      await roster.getByText('Show the 3 students').click();
      const names = roster.getByRole('list', { name: 'Students on the starting roster' });
      expect(await names.getByRole('listitem').allTextContents()).toEqual(['Avery, Ann', 'Brooks, Bea', 'Fisher, Fay']);
      // The whole program is there to choose, with its names: the admin sees the other cohorts.
      await program.check();
      await visible(roster.getByText('Show the 6 students'));
      await cohort.check();
      await fillMeeting(form);
      await screenshot(page, 'new-schedule-roster-1366');
      expect(await seriousViolations(page)).toEqual([]);

      await form.getByRole('button', { name: 'Create schedule' }).click();
      await visible(toasts(page).getByText('Schedule created', { exact: true }));
      const card = page
        .getByRole('list', { name: 'Schedules' })
        .getByRole('listitem')
        .filter({ has: page.getByRole('heading', { name: 'Pharmacology' }) });
      await visible(card);
      await expect.poll(() => card.textContent()).toContain('3 students');
      expect(await card.textContent()).toContain('Cohort 7 · Term 2');
      expect(errors).toEqual([]);
    });
  });

  it('names a cohort and starts its roster empty on a 390 px phone', async () => {
    await usingPage(newPage(browser, server.baseUrl, { width: 390, height: 844 }), async ({ page, errors }) => {
      await signIn(page, admin);
      const form = await openCreateForm(page);
      await form.getByLabel('Course', { exact: true }).selectOption({ label: 'PN-120 — Pharmacology' });
      await form.getByLabel('Cohort name').fill('PN-26A');
      const roster = form.getByRole('group', { name: 'Starting roster' });
      // A new cohort, and every student of the program is in a class now: nobody would join.
      await visible(roster.getByRole('radio', { name: 'Cohort PN-26A only — 0 students' }));
      await roster.getByRole('radio', { name: 'Nobody yet — add students from the roster later' }).check();
      await fillMeeting(form);
      await roster.scrollIntoViewIfNeeded();
      await screenshot(page, 'new-schedule-roster-390');
      expect(await seriousViolations(page)).toEqual([]);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

      await form.getByRole('button', { name: 'Create schedule' }).click();
      await visible(toasts(page).getByText('Schedule created', { exact: true }));
      const card = page.getByRole('list', { name: 'Schedules' }).getByRole('listitem').filter({ hasText: 'Cohort PN-26A' });
      await visible(card);
      expect(await card.textContent()).toContain('0 students');
      expect(errors).toEqual([]);
    });
  });
});
