import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IMPORT_TYPES } from '../common/import-columns.ts';
import { ATTENDANCE_EXPORT_COLUMNS } from '../common/exports.ts';
import { WIZARD_STEP_LOCKED } from '../common/upload-wizard.ts';
import {
  expectTitle,
  hidden,
  launchBrowser,
  newPage,
  screenshot,
  seriousViolations,
  signIn,
  startServer,
  usingPage,
  visible,
  withNewPage,
  type E2eServer,
  type TestUser,
} from './support.ts';

// The whole data-management journey in Chromium: the five templates downloaded from the app,
// imported through the wizard in order, then an attendance export; axe on every tab.
let browser: Browser;
let server: E2eServer;
let admin: TestUser;
const downloads = fs.mkdtempSync(path.join(os.tmpdir(), 'muster-dm-e2e-'));

beforeAll(async () => {
  [browser, server] = await Promise.all([launchBrowser(), startServer()]);
  admin = await server.createUser('it_admin', { firstName: 'Morgan', lastName: 'Data' });
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  fs.rmSync(downloads, { recursive: true, force: true });
});

/** The toast viewport (Radix keeps a visually hidden copy elsewhere for screen readers). */
const toasts = (page: Page) => page.getByRole('region', { name: /Notification/, includeHidden: true });

/** SPEC §8: the one toast on screen, with its title and description. */
async function expectToast(page: Page, title: string, description: string) {
  await visible(toasts(page).getByText(title, { exact: true }));
  await visible(toasts(page).getByText(description, { exact: true }));
}

async function waitForStatuses(page: Page, expected: string[]) {
  await page.waitForFunction(
    (want) => {
      const buttons = [...document.querySelectorAll('ol[aria-label="Wizard steps"] button')];
      return buttons.map((b) => (b.textContent ?? '').match(/Completed|Current|Available|Locked/)?.[0]).join() === want.join();
    },
    expected,
    { timeout: 15_000 },
  );
}

describe('data management', () => {
  it('runs the whole wizard with the downloaded templates, then exports attendance', async () => {
    await withNewPage(browser, server.baseUrl, async ({ page, errors }) => {
      await signIn(page, admin);
      await page.goto('/data-management');
      await visible(page.getByRole('heading', { level: 1, name: 'Data Management & SIS Integration' }));
      await expectTitle(page, 'Data Management & SIS Integration · Muster');
      expect(await page.getByRole('tab', { name: 'Upload Wizard' }).getAttribute('aria-selected')).toBe('true');
      await waitForStatuses(page, ['Current', 'Locked', 'Locked', 'Locked', 'Locked']);
      expect(await page.getByText(WIZARD_STEP_LOCKED).count()).toBe(4);
      expect(await page.getByRole('button', { name: 'Previous Step' }).isDisabled()).toBe(true);
      expect(await page.getByRole('button', { name: 'Next Step' }).isDisabled()).toBe(true);
      await screenshot(page, 'data-management-wizard');
      expect(await seriousViolations(page)).toEqual([]);

      // CSV Templates: one download per type, with SPEC §8's toast.
      await page.getByRole('tab', { name: 'CSV Templates' }).click();
      await page.waitForURL((u) => u.searchParams.get('tab') === 'templates');
      await visible(page.getByRole('heading', { name: 'Required upload sequence' }));
      for (const def of IMPORT_TYPES) {
        const [download] = await Promise.all([
          page.waitForEvent('download'),
          page.getByRole('button', { name: `Download ${def.label} template (${def.templateFile})` }).click(),
        ]);
        expect(download.suggestedFilename()).toBe(def.templateFile);
        await download.saveAs(path.join(downloads, def.templateFile));
        await expectToast(page, 'Template Downloaded', `${def.templateFile} has been downloaded successfully.`);
      }
      const studentsTemplate = fs.readFileSync(path.join(downloads, 'students_template.csv'), 'utf8').replace(/^\uFEFF/, '');
      expect(studentsTemplate.split('\r\n')[0]).toBe(IMPORT_TYPES[3]!.columns.map((c) => c.name).join(','));
      await visible(page.getByRole('heading', { name: 'Required columns' }).first());
      await screenshot(page, 'data-management-templates');
      expect(await seriousViolations(page)).toEqual([]);

      await page.getByRole('tab', { name: 'Upload Wizard' }).click();
      await waitForStatuses(page, ['Current', 'Locked', 'Locked', 'Locked', 'Locked']);

      // The wizard takes CSV only, checked before anything is sent.
      const input = page.getByLabel('Programs CSV file');
      await input.setInputFiles({ name: 'programs.xlsx', mimeType: 'application/octet-stream', buffer: Buffer.from('not really') });
      await visible(page.getByText('Invalid File Type: Please upload a CSV file (.csv).'));

      // A file with problems: 'Upload Failed', the server's message, and every problem by row and column.
      await input.setInputFiles({
        name: 'programs-bad.csv',
        mimeType: 'text/csv',
        buffer: Buffer.from('sisProgramId,programName,durationHours\nP-1,Nursing,20000\nP-2,,100\n'),
      });
      await page.getByRole('button', { name: 'Upload Programs' }).click();
      await visible(page.getByText('Nothing was imported: 2 problems in the file').first());
      await visible(page.getByText('Upload Failed', { exact: true }).first());
      const problems = page.getByRole('table', { name: 'Problems found in the file' });
      await visible(problems);
      expect(await problems.getByRole('row').count()).toBe(3);
      expect(await problems.getByRole('row').nth(1).textContent()).toContain('durationHours');
      await screenshot(page, 'data-management-upload-failed');
      expect(await seriousViolations(page)).toEqual([]);

      // Preview (dry run) of the real template: valid, nothing saved, step not completed.
      await input.setInputFiles(path.join(downloads, 'programs_template.csv'));
      await page.getByRole('button', { name: 'Preview (dry run)' }).click();
      await visible(page.getByText('3 rows checked: 3 would be created and 0 updated. Nothing was saved.'));
      await waitForStatuses(page, ['Current', 'Locked', 'Locked', 'Locked', 'Locked']);

      // The five steps in order, each with its downloaded template.
      const expected = [
        ['Completed', 'Current', 'Locked', 'Available', 'Locked'],
        ['Completed', 'Completed', 'Current', 'Available', 'Locked'],
        ['Completed', 'Completed', 'Completed', 'Current', 'Available'],
        ['Completed', 'Completed', 'Completed', 'Completed', 'Current'],
        ['Completed', 'Completed', 'Completed', 'Completed', 'Completed'],
      ];
      for (const def of IMPORT_TYPES) {
        await visible(page.getByRole('heading', { level: 2, name: `Step ${def.step}: ${def.label}` }));
        await page.getByLabel(`${def.label} CSV file`).setInputFiles(path.join(downloads, def.templateFile));
        await page.getByRole('button', { name: `Upload ${def.label}` }).click();
        await expectToast(
          page,
          'Upload Successful',
          def.step < 5 ? `Upload Successful: Step ${def.step} completed successfully! Moving to next step.` : 'All steps completed!',
        );
        await waitForStatuses(page, expected[def.step - 1]!);
      }
      expect(await page.getByRole('button', { name: 'Next Step' }).isDisabled()).toBe(true);
      const {
        rows: [counts],
      } = await server.db.execute<{ p: number; c: number; i: number; s: number; sc: number; r: number }>(sql`
        select (select count(*)::int from programs) as p, (select count(*)::int from courses) as c, (select count(*)::int from users where role = 'instructor') as i,
               (select count(*)::int from students) as s, (select count(*)::int from schedules) as sc, (select count(*)::int from schedule_rosters) as r`);
      expect(counts).toEqual({ p: 3, c: 4, i: 3, s: 4, sc: 4, r: 6 });
      const recent = page.getByRole('table', { name: 'Recent uploads' });
      const lastUpload = recent.getByRole('row').filter({ hasText: 'schedules_template.csv' });
      await visible(lastUpload);
      expect(await lastUpload.first().textContent()).toContain('Completed');
      expect(await recent.getByRole('row').filter({ hasText: 'programs-bad.csv' }).first().textContent()).toContain('Failed');
      await screenshot(page, 'data-management-wizard-done');

      // Progress lives on the server: a reload shows it; Previous Step walks back.
      await page.reload();
      await waitForStatuses(page, expected[4]!);
      await page.getByRole('button', { name: 'Previous Step' }).click();
      await visible(page.getByRole('heading', { level: 2, name: 'Step 4: Students' }));

      // Data Export: attendance of the imported class, saved as attendance_export_{date}.csv.
      await server.db.execute(sql`
        insert into attendance_records (student_id, schedule_id, session_date, status, scan_in_time, minutes_attended, scheduled_minutes, source)
        select st.id, sc.id, date '2027-01-11', 'present', timestamptz '2027-01-11 08:01:00+00', 239, 240, 'qr'
          from schedule_rosters r join students st on st.id = r.student_id join schedules sc on sc.id = r.schedule_id
         where sc.sis_schedule_id = 'SIS-SCH-NUR101-C7'`);
      await page.getByRole('tab', { name: 'Data Export' }).click();
      await page.getByLabel('Start date').fill('2027-01-01');
      await page.getByLabel('End date').fill('2027-01-31');
      const [exported] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export Attendance' }).click()]);
      expect(exported.suggestedFilename()).toMatch(/^attendance_export_\d{4}-\d{2}-\d{2}\.csv$/);
      const file = path.join(downloads, exported.suggestedFilename());
      await exported.saveAs(file);
      const lines = fs.readFileSync(file, 'utf8').trim().split('\n');
      expect(lines[0]).toBe(ATTENDANCE_EXPORT_COLUMNS.join(','));
      expect(
        lines[0]!.startsWith(
          'sisStudentId,studentId,firstName,lastName,email,sisCourseId,courseCode,courseName,sisScheduleId,sessionDate,scanInTime,status,syncStatus',
        ),
      ).toBe(true);
      expect(lines).toHaveLength(3);
      expect(lines[1]).toContain('SIS-SCH-NUR101-C7');
      await expectToast(page, 'Export Complete', 'Attendance data has been exported successfully.');
      await screenshot(page, 'data-management-export');
      expect(await seriousViolations(page)).toEqual([]);

      // SIS Integration: the counts come from the database.
      await page.getByRole('tab', { name: 'SIS Integration' }).click();
      const syncTable = page.getByRole('table', { name: 'Sync status counts per table' });
      await visible(syncTable);
      expect(await syncTable.getByRole('row', { name: /Attendance records/ }).textContent()).toContain('2');
      expect(await syncTable.getByRole('row', { name: /^Students/ }).textContent()).toContain('4');
      await visible(page.getByRole('heading', { name: 'Manual integration steps' }));
      await screenshot(page, 'data-management-sis');
      expect(await seriousViolations(page)).toEqual([]);

      // Reset Wizard: back to step 1, nothing completed.
      await page.getByRole('tab', { name: 'Upload Wizard' }).click();
      await page.getByRole('button', { name: 'Reset Wizard' }).click();
      await waitForStatuses(page, ['Current', 'Locked', 'Locked', 'Locked', 'Locked']);
      expect(errors).toEqual([]);
    });
  });

  // Decision 047: Excel's US dates are read and the result says how; a dry run
  // that finds problems did its job, so it is not a red 'Upload Failed'.
  it("previews a file of US dates saying how they were read, and a dry run's problems as a warning, not a failure", async () => {
    for (const [width, height] of [
      [1366, 900],
      [390, 844],
    ] as const) {
      await usingPage(newPage(browser, server.baseUrl, { width, height }), async ({ page, errors }) => {
        const signedIn = await page.request.post('/api/auth/login', { data: { email: admin.email, password: admin.password } });
        expect(signedIn.status()).toBe(200);
        await page.goto('/data-management');
        const input = page.getByLabel('Programs CSV file');
        await visible(input);

        await input.setInputFiles({
          name: 'us-dates.csv',
          mimeType: 'text/csv',
          buffer: Buffer.from('sisProgramId,programName,startDate,endDate\nP-US-1,Nursing,8/24/2026,3/4/2027\n'),
        });
        await page.getByRole('button', { name: 'Preview (dry run)' }).click();
        await visible(page.getByText('1 row checked: 1 would be created and 0 updated. Nothing was saved.'));
        const notes = page.getByRole('list', { name: 'How the file was read' });
        expect(await notes.textContent()).toBe(
          'Dates read as month/day/year (US), such as 3/4/2027 = 2027-03-04 (row 2, endDate): the file writes days over 12 second.',
        );

        await input.setInputFiles({
          name: `dry-${width}.csv`,
          mimeType: 'text/csv',
          buffer: Buffer.from('sisProgramId,programName,durationHours\nP-1,Nursing,20000\nP-2,,100\n'),
        });
        await page.getByRole('button', { name: 'Preview (dry run)' }).click();
        const found = page.getByRole('status').filter({ hasText: 'Dry run found 2 problems; nothing was imported' });
        await visible(found);
        await visible(toasts(page).getByText('Dry run finished', { exact: true }));
        expect(await page.getByText('Upload Failed', { exact: true }).count()).toBe(0);
        expect(await page.getByRole('alert').filter({ hasText: 'problems' }).count()).toBe(0);
        await visible(page.getByRole('table', { name: 'Problems found in the file' }));
        await visible(page.getByRole('table', { name: 'Recent uploads' }).getByText('Preview: problems found').first());
        await found.first().scrollIntoViewIfNeeded();
        await screenshot(page, `data-management-dry-run-problems-${width}`);
        expect(await seriousViolations(page)).toEqual([]);
        expect(errors).toEqual([]);
      });
    }
  });

  it('opens the tab named in ?tab= and shows Export Failed when the export fails', async () => {
    await withNewPage(browser, server.baseUrl, async ({ page }) => {
      await signIn(page, admin);
      await page.goto('/data-management?tab=sync');
      await visible(page.getByRole('heading', { name: 'Supported systems' }));
      await page.goto('/data-management?tab=nonsense');
      expect(await page.getByRole('tab', { name: 'Upload Wizard' }).getAttribute('aria-selected')).toBe('true');
      await page.goto('/data-management?tab=export');
      // The plain export (GET /api/export/attendance), not the one that marks records sent to the SIS.
      await page.getByLabel('Mark as sent to the SIS').uncheck();
      await page.route('**/api/export/attendance**', (route) => route.fulfill({ status: 500, body: '{"message":"Internal Server Error"}' }));
      await page.getByRole('button', { name: 'Export Attendance' }).click();
      await expectToast(page, 'Export Failed', 'Failed to export attendance data. Please try again.');
      await hidden(page.getByRole('button', { name: 'Exporting...' }));
      // A lost session: the Unauthorized toast, then the browser goes to sign in.
      await page.route('**/api/export/attendance**', (route) => route.fulfill({ status: 401, body: '{"message":"Unauthorized","code":"UNAUTHORIZED"}' }));
      await page.getByRole('button', { name: 'Export Attendance' }).click();
      await expectToast(page, 'Unauthorized', 'You are logged out. Logging in again...');
      await page.waitForURL((u) => u.pathname === '/login', { timeout: 10_000 });
    });
  });
});
