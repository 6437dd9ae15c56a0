import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  hidden,
  newPage,
  seedClassNow,
  seriousViolations,
  signIn,
  useBrowserAndServer,
  usingPage,
  visible,
  type SeededClass,
  type TestUser,
} from './support.ts';

// Decision 032 in Chromium: an instructor prints the sign-in sheet / roster of a meeting (the
// paper fallback when the network is down), axe finds nothing on it, it prints as a PDF; any list
// screen prints without the app's frame, under a title line, its header row repeating on each page.

// E2E_SCREENSHOTS=docs/screenshots keeps the printed roster (PDF and PNG) for the docs, as support.ts's screenshot() does.
const SHOTS = process.env.E2E_SCREENSHOTS;
const VIEWPORT = { width: 1366, height: 900 };

const env = useBrowserAndServer();
let instructor: TestUser;
let admin: TestUser;
let klass: SeededClass;
let othersClass: SeededClass;

const roster = Array.from({ length: 32 }, (_, i) => ({
  firstName: ['Ana', 'Ben', 'Chloe', 'Dev', 'Eli', 'Fay', 'Gus', 'Hana'][i % 8]!,
  lastName: `${['Garcia', 'Nguyen', 'Okafor', 'Patel', 'Smith', 'Kowalski', 'Haddad', 'Lee'][Math.floor(i / 4) % 8]!}-${i + 1}`,
  email: `student${i + 1}@school.example`,
  sisStudentId: `SIS-${String(26_000 + i)}`,
}));

beforeAll(async () => {
  const { server } = env;
  instructor = await server.createUser('instructor', { firstName: 'Irene', lastName: 'Instructor' });
  admin = await server.createUser('super_admin');
  const other = await server.createUser('instructor', { firstName: 'Oscar', lastName: 'Other' });
  klass = await seedClassNow(server.db, instructor.email, roster);
  othersClass = await seedClassNow(
    server.db,
    other.email,
    roster.slice(0, 1).map((s) => ({ ...s, sisStudentId: 'SIS-OTHER', email: 'other@school.example' })),
  );
  // Today's meeting already has a few records: the roster variant shows them.
  const statuses = ['present', 'late', 'absent', 'present'] as const;
  for (const [i, status] of statuses.entries()) {
    await server.db.execute(sql`
      insert into attendance_records (student_id, schedule_id, session_date, status, scan_in_time, source)
      values (${klass.students[i]!.id}, ${klass.scheduleId}, (now() at time zone 'UTC')::date, ${status}, ${status === 'absent' ? null : new Date().toISOString()}, 'qr')`);
  }
});

describe('printed sheets', () => {
  it('an instructor opens the sign-in sheet from Take Attendance, prints the roster, and axe finds nothing', async () => {
    await usingPage(newPage(env.browser, env.server.baseUrl, VIEWPORT), async ({ page, errors }) => {
      await signIn(page, instructor);
      await page.goto(`/attendance?schedule=${klass.scheduleId}`);
      await (await visible(page.getByRole('link', { name: 'Print sign-in sheet' }))).click();
      await page.waitForURL((u) => u.pathname === '/attendance/sheet' && u.searchParams.get('scheduleId') === String(klass.scheduleId));

      // The meeting has records: the roster with each recorded status.
      await visible(page.getByRole('heading', { level: 1, name: 'Class roster' }));
      const sheet = page.locator('[data-print-sheet]');
      expect(await sheet.getByText(`${klass.courseCode} — ${klass.courseName}`).count()).toBe(1);
      expect(await sheet.getByText('Irene Instructor').count()).toBe(1);
      expect(await sheet.getByText(klass.roomNumber).count()).toBe(1);
      const rows = sheet.locator('tbody tr');
      expect(await rows.count()).toBe(roster.length);
      const statusOf = async (sis: string) => (await sheet.locator('tbody tr', { hasText: sis }).locator('td').nth(2).textContent())?.trim();
      expect(await statusOf(klass.students[1]!.sisStudentId)).toBe('Late');
      expect(await statusOf(klass.students[2]!.sisStudentId)).toBe('Absent');
      expect(await statusOf(klass.students[10]!.sisStudentId)).toBe('No record');
      expect(await seriousViolations(page)).toEqual([]);

      // Printed: no controls, the frame gone, the header row on each of the pages.
      await page.emulateMedia({ media: 'print' });
      expect(await page.getByRole('button', { name: 'Print' }).isVisible()).toBe(false);
      expect(await page.locator('aside[aria-label="Sidebar"]').isVisible()).toBe(false);
      expect(await sheet.locator('thead').evaluate((el) => getComputedStyle(el).display)).toBe('table-header-group');
      const pdf = await page.pdf({ format: 'Letter', printBackground: false });
      if (SHOTS) {
        fs.mkdirSync(SHOTS, { recursive: true });
        fs.writeFileSync(path.join(SHOTS, 'printed-roster.pdf'), pdf);
      }
      expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
      // 32 students at 44 px a row do not fit one Letter page.
      expect(pdf.toString('latin1').match(/\/Type\s*\/Page[^s]/g)?.length ?? 0).toBeGreaterThanOrEqual(2);
      if (SHOTS) {
        await page.setViewportSize({ width: 816, height: 1056 });
        await page.screenshot({ path: path.join(SHOTS, 'printed-roster.png'), fullPage: true });
        await page.setViewportSize(VIEWPORT);
      }
      await page.emulateMedia({ media: 'screen' });

      // The blank sign-in variant: columns to fill in by hand, and lines for students not on the roster.
      await page.getByLabel('Sheet').selectOption('sign-in');
      await visible(page.getByRole('heading', { level: 1, name: 'Sign-in sheet' }));
      const headers = await sheet.locator('thead th').allTextContents();
      expect(headers).toEqual(['#', 'Student', 'Student ID', 'Time in', 'Time out', 'Signature']);
      expect(await rows.count()).toBe(roster.length + 3);
      expect(await seriousViolations(page)).toEqual([]);
      expect(errors).toEqual([]);
    });
  });

  it("another instructor's class does not print", async () => {
    await usingPage(newPage(env.browser, env.server.baseUrl, VIEWPORT), async ({ page }) => {
      await signIn(page, instructor);
      await page.goto(`/attendance/sheet?scheduleId=${othersClass.scheduleId}`);
      await visible(page.getByText('This class could not be loaded.'));
      expect(await page.locator('[data-print-sheet]').count()).toBe(0);
    });
  });

  it('a list screen prints without the sidebar, under its name and the print date', async () => {
    await usingPage(newPage(env.browser, env.server.baseUrl, VIEWPORT), async ({ page, errors }) => {
      await signIn(page, admin);
      await page.goto('/students');
      await visible(page.getByRole('heading', { level: 1, name: 'Students' }));
      await visible(page.getByRole('table').getByText(roster[0]!.sisStudentId));
      const sidebar = page.locator('aside[aria-label="Sidebar"]');
      const title = page.locator('[data-print-title]');
      expect(await sidebar.isVisible()).toBe(true);
      expect(await title.isVisible()).toBe(false);

      await page.emulateMedia({ media: 'print' });
      await hidden(sidebar);
      await visible(title);
      expect(await title.textContent()).toMatch(/^StudentsPrinted /);
      const table = page.getByRole('table').first();
      expect(await table.locator('thead').evaluate((el) => getComputedStyle(el).display)).toBe('table-header-group');
      expect(
        await table
          .locator('tbody tr')
          .first()
          .evaluate((el) => getComputedStyle(el).breakInside),
      ).toBe('avoid');
      // Row actions and the page's buttons do not print; the table takes the page's width.
      expect(
        await page
          .getByRole('main')
          .getByRole('button', { name: /^(Add|Edit|Export)/ })
          .first()
          .isVisible(),
      ).toBe(false);
      const [tableWidth, mainWidth] = await page.evaluate(() => [
        document.querySelector('main table')!.getBoundingClientRect().width,
        document.querySelector('main')!.getBoundingClientRect().width,
      ]);
      expect(tableWidth).toBeGreaterThanOrEqual(mainWidth - 48);
      expect(errors).toEqual([]);
    });
  });

  it("the Analytics tab's Export CSV downloads its figures", async () => {
    await usingPage(newPage(env.browser, env.server.baseUrl, VIEWPORT), async ({ page, errors }) => {
      await signIn(page, admin);
      await page.getByRole('tab', { name: 'Analytics' }).click();
      const button = await visible(page.getByRole('button', { name: 'Export CSV' }));
      const [download] = await Promise.all([page.waitForEvent('download'), button.click()]);
      expect(download.suggestedFilename()).toMatch(/^analytics_export_\d{4}-\d{2}-\d{2}\.csv$/);
      const text = fs.readFileSync((await download.path())!, 'utf8');
      expect(text.replace(/^\uFEFF/, '').split('\r\n')[0]).toBe('section,item,code,date,value,unit,target,trend,riskLevel,sessions,present,total');
      expect(text).toContain(`Course Performance,Fundamentals of Nursing,${klass.courseCode}`);
      expect(errors).toEqual([]);
    });
  });
});
