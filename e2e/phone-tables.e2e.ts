import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { seedDemoSchool, type SeedAccount } from '../server/seed/demo-school.ts';
import { newPhonePage, screenshot, seriousViolations, signIn, useBrowserAndServer, visible } from './support.ts';

// Data Management and the wide tables on a 390 × 844 phone. Nothing
// may scroll sideways: not the page, not a tab strip, not a table inside its card, and nothing
// may be cut off by a card's edge. The tabs stay ARIA tabs (arrow keys, Home, End); the tables
// become cards but stay tables for screen readers; axe finds nothing serious.

const env = useBrowserAndServer();
let admin: SeedAccount;

beforeAll(async () => {
  const seeded = await seedDemoSchool(env.server.db, { today: new Date() });
  admin = seeded.accounts.find((a) => a.role === 'super_admin')!;
});

/**
 * Everything in the main landmark that is wider than the screen: the page scrolling sideways, a box
 * scrolling sideways inside it, or an element reaching past the screen's edge (clipped by a card).
 */
async function sidewaysOverflow(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found: string[] = [];
    const root = document.documentElement;
    if (root.scrollWidth > root.clientWidth) found.push(`the page: ${root.scrollWidth} > ${root.clientWidth}`);
    const describe = (el: Element) => `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''} "${(el.textContent ?? '').trim().slice(0, 40)}"`;
    for (const el of document.querySelectorAll('main *')) {
      const style = getComputedStyle(el);
      // Visually hidden text (the card layout's header row) is 1 px wide, whatever its contents.
      if (style.display === 'none' || style.visibility === 'hidden' || el.closest('.sr-only')) continue;
      if (/auto|scroll/.test(style.overflowX) && el.scrollWidth > el.clientWidth + 1)
        found.push(`scrolls sideways: ${describe(el)} ${el.scrollWidth} > ${el.clientWidth}`);
      const rect = el.getBoundingClientRect();
      if (rect.width > 0 && (rect.left < -0.5 || rect.right > root.clientWidth + 0.5))
        found.push(`past the edge: ${describe(el)} ${Math.round(rect.left)}–${Math.round(rect.right)}`);
    }
    return found;
  });
}

/** The screen as a phone shows it: fits the width, no serious axe finding, a screenshot for the docs. */
async function expectFitsThePhone(page: Page, name: string): Promise<void> {
  expect(await sidewaysOverflow(page), name).toEqual([]);
  expect(await seriousViolations(page), name).toEqual([]);
  await screenshot(page, `phone-${name}`);
}

const focusedTab = (page: Page) => page.evaluate(() => (document.activeElement?.getAttribute('role') === 'tab' ? document.activeElement.textContent : null));

describe('on a 390 × 844 phone', () => {
  it('fits Data Management: its four tabs by keyboard, and each tab with its tables', async () => {
    const { context, page, errors } = await newPhonePage(env.browser, env.server.baseUrl);
    try {
      await signIn(page, admin);
      await page.goto('/data-management');
      await visible(page.getByRole('heading', { level: 1, name: 'Data Management & SIS Integration' }));

      // All four tabs on the screen (two rows), each a 44 px target.
      const names = ['Upload Wizard', 'CSV Templates', 'Data Export', 'SIS Integration'];
      for (const name of names) {
        const box = (await page.getByRole('tab', { name }).boundingBox())!;
        expect(box.x, name).toBeGreaterThanOrEqual(0);
        expect(box.x + box.width, name).toBeLessThanOrEqual(390);
        expect(box.height, name).toBeGreaterThanOrEqual(44);
      }

      // The ARIA tabs pattern by keyboard: arrows move and select (wrapping around), Home and End jump.
      await page.getByRole('tab', { name: 'Upload Wizard' }).focus();
      const press = async (key: string, expected: string, tab: string) => {
        await page.keyboard.press(key);
        await page.waitForURL((u) => u.searchParams.get('tab') === tab);
        await page.waitForFunction((name) => document.querySelector('[role="tab"][aria-selected="true"]')?.textContent === name, expected);
        expect(await focusedTab(page), key).toBe(expected);
      };
      await press('ArrowRight', 'CSV Templates', 'templates');
      await press('ArrowRight', 'Data Export', 'export');
      await press('End', 'SIS Integration', 'sync');
      await press('Home', 'Upload Wizard', 'wizard');
      await press('ArrowLeft', 'SIS Integration', 'sync');
      await press('ArrowRight', 'Upload Wizard', 'wizard');

      // Upload Wizard: a refused file's problems and the recent uploads, as cards. (The demo school
      // has done every step; back to step 1.)
      await page.getByRole('button', { name: 'Reset Wizard' }).click();
      await visible(page.getByRole('heading', { level: 2, name: 'Step 1: Programs' }));
      await page.getByLabel('Programs CSV file').setInputFiles({
        name: 'programs-bad.csv',
        mimeType: 'text/csv',
        buffer: Buffer.from('sisProgramId,programName,durationHours\nP-1,Nursing,20000\nP-2,,100\n'),
      });
      await page.getByRole('button', { name: 'Upload Programs' }).click();
      const problems = page.getByRole('table', { name: 'Problems found in the file' });
      await visible(problems);
      expect(await problems.getByRole('row').count()).toBe(3); // its header row, then one per problem
      expect(await problems.getByRole('columnheader').allTextContents()).toEqual(['Row', 'Column', 'Value', 'Problem']);
      expect(await problems.getByRole('rowheader').first().textContent()).toBe('Row 2');
      await visible(problems.getByText('durationHours'));
      const recent = page.getByRole('table', { name: 'Recent uploads' });
      await visible(recent.getByRole('row').filter({ hasText: 'programs-bad.csv' }));
      // Sorting without the header buttons: the card layout's Sort by select.
      await recent.locator('..').getByLabel('Sort by').selectOption({ label: 'File, descending' });
      expect(await recent.getByRole('columnheader', { name: 'File' }).getAttribute('aria-sort')).toBe('descending');
      await expectFitsThePhone(page, 'data-management-wizard');

      // CSV Templates, with every "Every column with its rule" table open.
      await page.getByRole('tab', { name: 'CSV Templates' }).click();
      await visible(page.getByRole('heading', { name: 'Required upload sequence' }));
      const summaries = await page.getByText('Every column with its rule').all();
      for (const summary of summaries) await summary.click();
      const scheduleColumns = page.getByRole('table', { name: 'Schedules columns' });
      await visible(scheduleColumns.getByRole('rowheader', { name: /^courseStartDate/ }));
      expect(await sidewaysOverflow(page)).toEqual([]);
      expect(await seriousViolations(page)).toEqual([]);
      // The screenshot with only the widest of them (schedules) open.
      for (const summary of summaries.slice(0, -1)) await summary.click();
      await screenshot(page, 'phone-data-management-templates');

      await page.getByRole('tab', { name: 'Data Export' }).click();
      await visible(page.getByRole('button', { name: 'Export Attendance' }));
      await expectFitsThePhone(page, 'data-management-export');

      await page.getByRole('tab', { name: 'SIS Integration' }).click();
      const syncTable = page.getByRole('table', { name: 'Sync status counts per table' });
      await visible(syncTable.getByRole('row', { name: /^Students/ }));
      expect(await syncTable.getByRole('row', { name: /^All/ }).count()).toBe(1);
      await expectFitsThePhone(page, 'data-management-sis');
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('shows Students and Users as cards that keep their table headers, sorting and touch-sized row actions', async () => {
    const { context, page, errors } = await newPhonePage(env.browser, env.server.baseUrl);
    try {
      await signIn(page, admin);
      await page.goto('/students');
      const students = page.getByRole('table', { name: 'Students' });
      await visible(students.getByRole('rowheader').first());
      await page.getByLabel('Rows per page').selectOption('10');
      await page.waitForFunction(() => document.querySelectorAll('main tbody tr').length === 10);
      expect(await students.getByRole('columnheader', { name: 'E-mail' }).count()).toBe(1);
      await page.getByLabel('Sort by').selectOption({ label: 'E-mail, descending' });
      await page.waitForFunction(() => document.querySelector('th[aria-sort="descending"]')?.textContent === 'E-mail');
      // The sorted page comes from the server: wait for its rows.
      const edit = (await (await visible(students.getByRole('button', { name: /^Edit / }))).first().boundingBox())!;
      expect(Math.min(edit.width, edit.height)).toBeGreaterThanOrEqual(44);
      // The pager's controls are touch-sized too.
      for (const control of [
        page.getByLabel('Rows per page'),
        page.getByRole('button', { name: 'Previous page' }),
        page.getByRole('button', { name: 'Next page' }),
      ]) {
        const box = (await control.boundingBox())!;
        expect(Math.min(box.width, box.height)).toBeGreaterThanOrEqual(44);
      }
      await expectFitsThePhone(page, 'students');

      await page.goto('/users');
      const users = page.getByRole('table', { name: 'Staff accounts' });
      await visible(users.getByRole('rowheader').first());
      expect(await users.getByRole('columnheader', { name: 'Role' }).count()).toBe(1);
      await expectFitsThePhone(page, 'users');

      // Back on a wide screen the same table is a table again, with its sortable header buttons.
      await page.setViewportSize({ width: 1280, height: 800 });
      await visible(users.getByRole('columnheader', { name: 'Role' }).getByRole('button'));
      expect(await page.getByLabel('Sort by').count()).toBe(0);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
  it('fits the other wide tables too: Courses, Programs, Audit Logs and Hours as cards', async () => {
    const { context, page, errors } = await newPhonePage(env.browser, env.server.baseUrl);
    try {
      await signIn(page, admin);
      for (const [path, name] of [
        ['/courses', 'courses'],
        ['/programs', 'programs'],
        ['/audit-logs', 'audit-logs'],
        ['/hours', 'hours'],
      ] as const) {
        await page.goto(path);
        await visible(page.locator('main table').getByRole('rowheader').first());
        await expectFitsThePhone(page, name);
      }
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
