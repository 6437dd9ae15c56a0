import fs from 'node:fs';
import { parse } from 'csv-parse/sync';
import { sql } from 'drizzle-orm';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STUDENT_EXPORT_COLUMNS } from '../common/students.ts';
import { seedDemoSchool, type SeedAccount } from '../server/seed/demo-school.ts';
import { hidden, newPage, screenshot, seriousViolations, signIn, useBrowserAndServer, visible } from './support.ts';

// Decision 033 on a 1366 × 900 desktop: every main table's row actions stay on the screen and
// work by keyboard (the actions column is pinned to the table's right edge), the Students screen
// filters by program and status and exports what it shows, and a dialog hands focus back to the
// button that opened it, whether closed with Escape or Cancel.

const VIEWPORT = { width: 1366, height: 900 };

const env = useBrowserAndServer();
let admin: SeedAccount;
let context: BrowserContext;
let page: Page;
let errors: string[];

beforeAll(async () => {
  const seeded = await seedDemoSchool(env.server.db, { today: new Date() });
  admin = seeded.accounts.find((a) => a.role === 'super_admin')!;
  ({ context, page, errors } = await newPage(env.browser, env.server.baseUrl, VIEWPORT));
  await signIn(page, admin);
});
afterAll(() => context?.close());

/** The button is inside the window and is what a click at its centre reaches (not covered, not clipped). */
async function expectOnScreen(button: Locator, what: string): Promise<void> {
  // Scrolled down to the row, and only down: scrolling sideways would hide what is being tested.
  await button.evaluate((el) => window.scrollBy(0, el.getBoundingClientRect().top - window.innerHeight / 2));
  const box = (await button.boundingBox())!;
  expect(box, what).not.toBeNull();
  expect(box.x, what).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width, what).toBeLessThanOrEqual(VIEWPORT.width);
  const hit = await button.evaluate((el) => {
    const r = el.getBoundingClientRect();
    return el.contains(document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2));
  });
  expect(hit, `${what} is not covered`).toBe(true);
}

/** Opens a dialog from `opener` by keyboard, closes it with Escape or Cancel, and expects focus back on the opener. */
async function expectFocusReturns(opener: Locator, close: 'Escape' | 'Cancel', what: string): Promise<void> {
  await opener.focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog');
  await visible(dialog);
  if (close === 'Escape') await page.keyboard.press('Escape');
  else await dialog.getByRole('button', { name: 'Cancel', exact: true }).click();
  await hidden(dialog);
  const handle = await opener.elementHandle();
  const back = await page
    .waitForFunction((el) => document.activeElement === el, handle, { timeout: 3_000 })
    .then(
      () => true,
      () => false,
    );
  expect(back, `${what}: focus back on the opener after ${close}`).toBe(true);
}

/** The first row's actions group of the screen's table, after the rows have loaded. */
async function firstRowActions(table: Locator): Promise<Locator> {
  const group = table.getByRole('group', { name: /^Actions for / }).first();
  await visible(group);
  return group;
}

const tableRows = (table: Locator) => table.locator('tbody tr');

describe('tables that fit a 1366 × 900 screen', () => {
  it('Students: row actions on screen and by keyboard, focus back after Add, Edit and Delete', async () => {
    await page.goto('/students');
    const table = page.getByRole('table', { name: 'Students' });
    const actions = await firstRowActions(table);
    const name = (await actions.getAttribute('aria-label'))!.replace('Actions for ', '');
    const edit = actions.getByRole('button', { name: `Edit ${name}` });
    const remove = actions.getByRole('button', { name: `Delete ${name}` });
    await expectOnScreen(edit, 'Edit');
    await expectOnScreen(remove, 'Delete');
    // Every row's actions, not only the first.
    for (const button of await table.getByRole('button', { name: /^Delete / }).all()) await expectOnScreen(button, 'a Delete button');
    // The table is wider than its card and scrolls sideways underneath the pinned column.
    expect(await table.evaluate((t) => t.parentElement!.scrollWidth > t.parentElement!.clientWidth)).toBe(true);

    // By keyboard: Tab from the row's name link reaches its Edit then Delete button.
    await table.getByRole('rowheader').first().getByRole('link').focus();
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe(`Edit ${name}`);
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe(`Delete ${name}`);

    await expectFocusReturns(page.getByRole('button', { name: 'Add Student' }), 'Escape', 'Add Student');
    await expectFocusReturns(page.getByRole('button', { name: 'Add Student' }), 'Cancel', 'Add Student');
    await expectFocusReturns(edit, 'Escape', 'Edit Student');
    await expectFocusReturns(edit, 'Cancel', 'Edit Student');
    await expectFocusReturns(remove, 'Escape', 'Delete student');
    await expectFocusReturns(remove, 'Cancel', 'Delete student');

    await screenshot(page, 'students-1366');
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('Students: after a student is deleted, focus goes to the page, not back to the top of the document', async () => {
    await env.server.db.execute(sql`insert into students (first_name, last_name, sis_student_id, status) values ('Zed', 'Focusworth', 'FOCUS-1', 'enrolled')`);
    await page.goto('/students');
    await page.getByRole('searchbox').fill('Focusworth');
    const table = page.getByRole('table', { name: 'Students' });
    const remove = table.getByRole('button', { name: 'Delete Zed Focusworth' });
    await visible(remove);
    await remove.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Delete', exact: true }).click();
    await hidden(dialog);
    await hidden(remove);
    // The opener is gone with its row: focus lands on the main region, where the next Tab continues.
    await page.waitForFunction(() => document.activeElement?.id === 'main-content', undefined, { timeout: 3_000 });
  });

  it('Students: Program and Status filters narrow the list, and Export downloads the filtered list', async () => {
    await page.goto('/students');
    const table = page.getByRole('table', { name: 'Students' });
    await firstRowActions(table);
    const rowsText = () => tableRows(table).allTextContents();
    const everyRow = (text: string, without: string) =>
      page.waitForFunction(
        ([w, wo]) => {
          const rows = [...document.querySelectorAll('table tbody tr')].map((r) => r.textContent ?? '');
          return rows.length > 0 && rows.every((r) => r.includes(w!) && !r.includes(wo!));
        },
        [text, without],
      );

    await page.getByLabel('Status', { exact: true }).selectOption({ label: 'Withdrawn' });
    await everyRow('Withdrawn', 'Enrolled');
    const withdrawn = (await rowsText()).length;
    await page.getByLabel('Program', { exact: true }).selectOption({ label: 'Medical Assistant' });
    await everyRow('Medical Assistant', 'Practical Nursing');
    const rows = await rowsText();
    expect(rows.every((r) => r.includes('Withdrawn'))).toBe(true);
    expect(rows.length).toBeLessThan(withdrawn);
    expect(await seriousViolations(page)).toEqual([]);

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export', exact: true }).click()]);
    expect(download.suggestedFilename()).toMatch(/^students_export_\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = parse(fs.readFileSync((await download.path())!, 'utf8'), { columns: true }) as Record<string, string>[];
    expect(Object.keys(csv[0]!)).toEqual([...STUDENT_EXPORT_COLUMNS]);
    expect(csv).toHaveLength(rows.length);
    expect(csv.every((r) => r.status === 'withdrawn' && r.programName === 'Medical Assistant')).toBe(true);
  });

  it('Users, Courses, Programs and Schedules: row actions on screen, by keyboard, focus back after their dialogs', async () => {
    const screens = [
      { path: '/users', table: 'Staff accounts', add: 'Add User' },
      { path: '/courses', table: 'Course catalog', add: 'Add Course' },
      { path: '/programs', table: 'Programs', add: 'Add Program' },
    ];
    for (const screen of screens) {
      await page.goto(screen.path);
      const table = page.getByRole('table', { name: screen.table });
      const actions = await firstRowActions(table);
      for (const button of await actions.getByRole('button').all()) await expectOnScreen(button, `${screen.path} ${await button.getAttribute('aria-label')}`);
      const edit = actions.getByRole('button', { name: /^Edit / });
      await expectFocusReturns(edit, 'Escape', `${screen.path} Edit`);
      await expectFocusReturns(edit, 'Cancel', `${screen.path} Edit`);
      await expectFocusReturns(page.getByRole('button', { name: screen.add }), 'Cancel', `${screen.path} ${screen.add}`);
      expect(await seriousViolations(page), screen.path).toEqual([]);
    }

    // Schedules are cards, not a table: their Edit buttons fit the screen and hand focus back too.
    await page.goto('/schedules');
    const edits = page.locator('main').getByRole('button', { name: /^Edit / });
    await visible(edits);
    for (const button of (await edits.all()).slice(0, 6)) await expectOnScreen(button, 'a schedule Edit button');
    await expectFocusReturns(edits.first(), 'Escape', 'Edit schedule');
    expect(await seriousViolations(page), '/schedules').toEqual([]);
    expect(errors).toEqual([]);
  });
});
