import { sql } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { newPage, seriousViolations, useBrowserAndServer, usingPage, visible, type TestUser } from './support.ts';

// Decision 046: printing a list printed the pager's one page (25 of 120 students) with no sign
// that rows were missing, and cut the last column. Now Print list (and Ctrl+P) prints every row of
// the list as filtered and sorted, fetched page by page from the paged API; a list the browser
// holds prints all its rows whichever way printing starts; every column fits the paper.
//
// Rows printed are counted in Chromium's print layout (emulated print media): the rows of the
// list's tables that are displayed. PDF pages (page.pdf(), US Letter) are counted too.

const env = useBrowserAndServer();
let admin: TestUser;
const STUDENTS = 120;
const COURSES = 40;
/** US Letter (8.5 in at 96 px/in) less the 12 mm margins of base.css: the width a printed page lays out. */
const PAPER_WIDTH = 726;

beforeAll(async () => {
  const { db } = env.server;
  admin = await env.server.createUser('super_admin');
  const { id: programId } = (
    await db.execute<{ id: number }>(sql`insert into programs (program_name) values ('Practical Nursing and Long-Term Care Assistant') returning id`)
  ).rows[0]!;
  // Long names and addresses: the columns that overflowed the paper.
  await db.execute(sql`
    insert into students (first_name, last_name, email, phone, sis_student_id, program_id, enrollment_date, status)
    select 'Student' || n, 'Vander-Westhuizen-Montenegro ' || lpad(n::text, 3, '0'), 'student.number.' || n || '@practical-nursing.long-school-district.example',
           '(512) 555-01' || lpad((n % 100)::text, 2, '0'), 'SIS-' || (26000 + n), ${programId}, current_date - 30, 'enrolled'
      from generate_series(1, ${STUDENTS}) n`);
  await db.execute(sql`
    insert into courses (course_code, course_name, program_id, clock_hours)
    select 'PRT-' || lpad(n::text, 3, '0'), 'Printed course ' || n, ${programId}, 40 from generate_series(1, ${COURSES}) n`);
});

/** Signed in through the API (this is about lists, not the sign-in page), window.print recorded instead of opening a dialog. */
async function openList(page: Page, path: string): Promise<void> {
  await page.addInitScript(() => {
    (window as unknown as { printCalls: number }).printCalls = 0;
    window.print = () => {
      (window as unknown as { printCalls: number }).printCalls++;
    };
  });
  const res = await page.context().request.post('/api/auth/login', { data: { email: admin.email, password: admin.password } });
  expect(res.ok()).toBe(true);
  await page.goto(path);
  await visible(page.getByRole('button', { name: 'Print list' }));
}

/** The rows of the screen's lists that the print layout shows. */
const printedRows = (page: Page) =>
  page.evaluate(
    () =>
      [...document.querySelectorAll('main table tbody tr')].filter((tr) => tr.getClientRects().length > 0 && getComputedStyle(tr).visibility !== 'hidden')
        .length,
  );

/** Whether every printed list table fits the paper's width, with the widest's figures. */
const fitsThePaper = (page: Page) =>
  page.evaluate(() => {
    const main = document.querySelector('main')!.getBoundingClientRect();
    const tables = [...document.querySelectorAll('main table')].filter((t) => t.getClientRects().length > 0);
    const widest = Math.max(...tables.map((t) => Math.max(t.scrollWidth, t.getBoundingClientRect().right - main.left)));
    return { fits: widest <= main.width + 1, widest: Math.round(widest), paper: Math.round(main.width) };
  });

const pdfPages = async (page: Page) => ((await page.pdf({ format: 'Letter' })).toString('latin1').match(/\/Type\s*\/Page[^s]/g) ?? []).length;

describe('printed lists', () => {
  it(`Students (paged by the server): Print list and Ctrl+P print all ${STUDENTS} rows, every column on the paper`, async () => {
    await usingPage(newPage(env.browser, env.server.baseUrl, { width: 1366, height: 900 }), async ({ page, errors }) => {
      await openList(page, '/students');
      const screenRows = page.getByRole('table', { name: 'Students' }).locator('tbody tr');
      await visible(screenRows.nth(24));
      expect(await seriousViolations(page)).toEqual([]);

      // The browser's own print (its menu): one page, and the paper says so.
      await page.setViewportSize({ width: PAPER_WIDTH, height: 900 });
      await page.emulateMedia({ media: 'print' });
      const before = { rows: await printedRows(page), pdfPages: await pdfPages(page) };
      expect(before.rows).toBe(25);
      expect(await page.locator('[data-printed-count]').textContent()).toBe(
        `1–25 of ${STUDENTS} students: one page of the list. To print every row, use Print list under the list on screen.`,
      );

      // Print list: every row, fetched page by page, then the browser's print.
      await page.emulateMedia({ media: 'screen' });
      await page.setViewportSize({ width: 1366, height: 900 });
      await page.getByRole('button', { name: 'Print list' }).click();
      await page.waitForFunction(() => (window as unknown as { printCalls: number }).printCalls === 1);
      // On screen the pager's page stays.
      expect(await screenRows.count()).toBe(25);
      await page.setViewportSize({ width: PAPER_WIDTH, height: 900 });
      await page.emulateMedia({ media: 'print' });
      const after = { rows: await printedRows(page), fit: await fitsThePaper(page) };
      expect(after.rows).toBe(STUDENTS);
      expect(after.fit.fits, JSON.stringify(after.fit)).toBe(true);
      expect(await page.locator('[data-printed-count]').textContent()).toBe(`All ${STUDENTS} students.`);
      // Sorted as on screen (by name), the last student last; no row actions column.
      const printed = page.locator('[data-printed-list] tbody tr');
      expect(await printed.last().locator('th').textContent()).toContain('120');
      expect(await page.locator('[data-printed-list] thead th[data-row-actions]').count()).toBe(1);
      expect(await page.locator('[data-printed-list] thead th[data-row-actions]').isVisible()).toBe(false);
      // Chromium's PDF printing goes through beforeprint and afterprint, as printing from its menu
      // does: laid out with every row, then the list is the page again.
      const afterPdfPages = await pdfPages(page);
      expect(afterPdfPages).toBeGreaterThan(before.pdfPages);
      expect(await printedRows(page)).toBe(25);
      console.log(
        `rows printed: before ${before.rows} (${before.pdfPages} PDF pages), after ${after.rows} (${afterPdfPages} PDF pages); widest table ${after.fit.widest} px on ${after.fit.paper} px of paper`,
      );

      // Ctrl+P prints every row too, filtered: the search narrows what prints.
      await page.emulateMedia({ media: 'screen' });
      await page.setViewportSize({ width: 1366, height: 900 });
      await page.getByRole('searchbox', { name: 'Search students' }).fill('Student1');
      await page.waitForFunction(
        () =>
          document.querySelectorAll('main table tbody tr').length === 25 &&
          [...document.querySelectorAll('main table tbody tr')].every((r) => r.textContent?.includes('Student1')),
      );
      await page.keyboard.press('Control+P');
      await page.waitForFunction(() => (window as unknown as { printCalls: number }).printCalls === 2);
      await page.emulateMedia({ media: 'print' });
      // Student1, Student10–19, Student100–120: 32 students.
      expect(await printedRows(page)).toBe(32);
      expect(errors).toEqual([]);
    });
  });

  it(`Courses (kept in the browser): the browser's own print prints all ${COURSES} rows, not the page`, async () => {
    await usingPage(newPage(env.browser, env.server.baseUrl, { width: 1366, height: 900 }), async ({ page, errors }) => {
      await openList(page, '/courses');
      await visible(page.getByRole('table', { name: 'Course catalog' }).locator('tbody tr').nth(24));
      // What Chromium does as it prints from its menu: beforeprint, lay out for paper, afterprint.
      await page.evaluate(() => window.dispatchEvent(new Event('beforeprint')));
      await page.setViewportSize({ width: PAPER_WIDTH, height: 900 });
      await page.emulateMedia({ media: 'print' });
      expect(await printedRows(page)).toBe(COURSES);
      expect((await fitsThePaper(page)).fits).toBe(true);
      expect(await page.locator('[data-printed-count]').textContent()).toBe(`All ${COURSES} courses.`);
      await page.evaluate(() => window.dispatchEvent(new Event('afterprint')));
      await page.emulateMedia({ media: 'screen' });
      expect(await page.getByRole('table', { name: 'Course catalog' }).locator('tbody tr').count()).toBe(25);
      expect(errors).toEqual([]);
    });
  });
});
