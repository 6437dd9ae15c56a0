import type { APIRequestContext, Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Closure } from '../common/calendar.ts';
import type { ProgramPolicy } from '../common/program-policy.ts';
import type { Program } from '../common/programs.ts';
import {
  apiSend,
  closeAll,
  describedBy,
  hidden,
  openSignedInAt,
  screenshot,
  seriousViolations,
  signInOnce,
  startAdminJourney,
  toasts,
  usingPage,
  visible,
  type E2eServer,
  type SignedInState,
  type TestUser,
} from './support.ts';

/**
 * The Programs and School Calendar screens (decision 014): an administrator creates a program, sets its
 * clock-hour policy and watches the payment periods follow; adds a closure, finds it in the month
 * view and deletes it. Each screen and dialog is checked with axe. Decision 040: a
 * 1,500-hour program is entered in the form and listed, and its hours and the policy's are one figure.
 */

let browser: Browser;
let server: E2eServer;
let admin: TestUser;
let api: APIRequestContext;
let adminState: SignedInState;
let barbering: Program;

beforeAll(async () => {
  ({ browser, server, admin, api } = await startAdminJourney());
  barbering = await apiSend<Program>(api, 'POST', '/api/programs', { programName: 'Barbering', programCode: 'BAR', credentialType: 'Certificate' });
  adminState = await signInOnce(browser, server.baseUrl, admin);
});

afterAll(() => closeAll(api, browser, server));

function adminPage(path: string, heading: string, viewport: { width: number; height: number; isMobile?: boolean } = { width: 1280, height: 900 }) {
  const { isMobile, ...size } = viewport;
  return openSignedInAt(browser, server.baseUrl, adminState, path, heading, { viewport: size, isMobile: isMobile ?? false, hasTouch: isMobile ?? false });
}

const expectToast = (page: Page, text: string) => visible(toasts(page).getByText(text, { exact: true }));
const dialog = (page: Page, name: string | RegExp) => page.getByRole('dialog', { name });
async function expectNoSeriousViolations(page: Page, where: string): Promise<void> {
  expect(await seriousViolations(page), where).toEqual([]);
}

/** The messages tied to a field (aria-describedby), once it is marked invalid. */
async function fieldError(field: Locator): Promise<string> {
  await expect.poll(() => field.getAttribute('aria-invalid')).toBe('true');
  return describedBy(field);
}

/** The payment periods table's rows as [period, credited hours, hours, weeks, through week]. */
async function periodRows(box: Locator): Promise<string[][]> {
  const rows = box
    .getByRole('table', { name: 'Payment periods of the saved policy' })
    .getByRole('row')
    .filter({ has: box.page().getByRole('rowheader') });
  const out: string[][] = [];
  for (const row of await rows.all()) out.push((await row.locator('th, td').allTextContents()).map((t) => t.trim()));
  return out;
}

describe('programs', () => {
  it('creates a 1,500-hour program, edits it, and sets its clock-hour policy; the hours are one figure and the payment periods follow the server', async () => {
    await usingPage(adminPage('/programs', 'Programs'), async ({ page, errors }) => {
      const table = page.getByRole('table', { name: 'Programs' });
      await visible(table.getByRole('rowheader', { name: /Barbering/ }));
      await expectNoSeriousViolations(page, 'programs screen');

      await page.getByRole('button', { name: 'Add Program' }).click();
      const form = dialog(page, 'Add Program');
      await visible(form);
      await expect.poll(() => form.getByLabel('Program name').evaluate((el) => el === document.activeElement)).toBe(true);
      await form.getByRole('button', { name: 'Create program' }).click();
      expect(await fieldError(form.getByLabel('Program name'))).toContain('Program name is required');
      await form.getByLabel('Program name').fill('Cosmetology');
      await form.getByLabel('Program code').fill('COS');
      await form.getByLabel('SIS program ID').fill('SIS-P-7');
      await form.getByLabel('Credential').selectOption('Diploma');
      // Real programs have real hours (decision 040): past 10,000 is refused, 1,500 is saved with a note.
      const hours = form.getByLabel('Duration hours');
      await hours.fill('10001');
      await form.getByRole('button', { name: 'Create program' }).click();
      expect(await fieldError(hours)).toContain('Duration hours must be between 1 and 10,000');
      await hours.fill('1500');
      await form.getByLabel('Start date').fill('2026-09-01');
      await form.getByLabel('End date').fill('2026-08-01');
      await form.getByRole('button', { name: 'Create program' }).click();
      expect(await fieldError(form.getByLabel('End date'))).toContain('End date must not be before the start date');
      expect(await hours.getAttribute('aria-invalid')).toBeNull();
      expect(await describedBy(hours)).toContain('1,500 hours is outside the 50–350 hours usually documented for a program. That is allowed');
      await screenshot(page, 'program-form-hours-note');
      await form.getByLabel('End date').fill('2027-08-31');
      await expectNoSeriousViolations(page, 'add program dialog');
      await form.getByRole('button', { name: 'Create program' }).click();
      await expectToast(page, 'Program created');
      await hidden(form);

      const row = table.getByRole('row').filter({ has: page.getByRole('rowheader', { name: /Cosmetology/ }) });
      await visible(row);
      const cells = async () => (await row.locator('th, td').allTextContents()).slice(0, 5);
      expect(await cells()).toEqual(['CosmetologySIS SIS-P-7', 'COS', 'Diploma', '1,500', 'Active']);
      const cosmetology = ((await (await api.get('/api/programs')).json()) as Program[]).find((p) => p.programName === 'Cosmetology')!;
      expect(cosmetology).toMatchObject({
        programCode: 'COS',
        sisProgramId: 'SIS-P-7',
        credentialType: 'Diploma',
        durationHours: 1500,
        startDate: '2026-09-01',
        endDate: '2027-08-31',
      });

      // Edit: the fields the form does not show are kept.
      const { id: _id, syncStatus: _sync, ...fields } = cosmetology;
      expect((await api.put(`/api/programs/${cosmetology.id}`, { data: { ...fields, programDirector: 'Dana Director' } })).status()).toBe(200);
      await page.reload();
      await visible(row);
      await row.getByRole('button', { name: 'Edit Cosmetology' }).click();
      const edit = dialog(page, 'Edit Program');
      await visible(edit);
      expect(await edit.getByLabel('Program code').inputValue()).toBe('COS');
      expect(await edit.getByLabel('Duration hours').inputValue()).toBe('1500');
      await edit.getByLabel('Status').selectOption('suspended');
      await edit.getByLabel('Description').fill('Hair, skin and nails; state board preparation.');
      await edit.getByRole('button', { name: 'Save changes' }).click();
      await expectToast(page, 'Program updated');
      await hidden(edit);
      await visible(row.getByText('Suspended', { exact: true }));
      expect(await (await api.get(`/api/programs/${cosmetology.id}`)).json()).toMatchObject({
        status: 'suspended',
        programDirector: 'Dana Director',
        description: 'Hair, skin and nails; state board preparation.',
        durationHours: 1500,
      });

      // The clock-hour policy counts the program's hours: one figure, shown as set.
      await row.getByRole('button', { name: 'Clock-hour policy of Cosmetology' }).click();
      const policy = dialog(page, 'Clock-hour policy: Cosmetology');
      await visible(policy);
      const programHours = policy.getByLabel('Program hours', { exact: true });
      expect(await programHours.inputValue()).toBe('1500');
      expect(await describedBy(programHours)).toContain('In force: 1,500 (set for this program');
      // 1,500 h with the default 900 h / 26-week years: 44 weeks (43.3 rounded up).
      await visible(policy.getByText('1,500 hours over 44 weeks', { exact: false }));
      expect(await periodRows(policy)).toEqual([
        ['Period 1', '0 – 450', '450', '13', '13'],
        ['Period 2', '450 – 900', '450', '13', '26'],
        ['Period 3', '900 – 1,200', '300', '9', '35'],
        ['Period 4', '1,200 – 1,500', '300', '9', '44'],
      ]);
      const excused = policy.getByLabel('Excused absence cap (%)');
      expect(await excused.inputValue()).toBe('');
      expect(await describedBy(excused)).toContain('In force: 10 (default).');
      expect(await describedBy(policy.getByLabel('Make-up cap (% of program hours)'))).toContain('In force: no cap (default).');
      await expectNoSeriousViolations(page, 'policy dialog');

      // Changed here, the program's hours change too: the list shows them once the dialog closes.
      await programHours.fill('1200');
      await policy.getByRole('button', { name: 'Save policy' }).click();
      await expectToast(page, 'Policy saved');
      await visible(policy.getByText('1,200 hours over 35 weeks', { exact: false }));
      await policy.getByRole('button', { name: 'Close' }).first().click();
      await hidden(policy);
      await expect.poll(cells).toEqual(['CosmetologySIS SIS-P-7', 'COS', 'Diploma', '1,200', 'Suspended']);
      // …and changed on the program, the policy's do.
      await row.getByRole('button', { name: 'Edit Cosmetology' }).click();
      await visible(edit);
      expect(await edit.getByLabel('Duration hours').inputValue()).toBe('1200');
      await edit.getByLabel('Duration hours').fill('1500');
      await edit.getByRole('button', { name: 'Save changes' }).click();
      await expectToast(page, 'Program updated');
      await hidden(edit);
      await expect.poll(cells).toEqual(['CosmetologySIS SIS-P-7', 'COS', 'Diploma', '1,500', 'Suspended']);
      await row.getByRole('button', { name: 'Clock-hour policy of Cosmetology' }).click();
      await visible(policy);
      await visible(policy.getByText('1,500 hours over 44 weeks', { exact: false }));
      expect(await programHours.inputValue()).toBe('1500');

      // The shared contract answers before any request…
      await excused.fill('11');
      await policy.getByRole('button', { name: 'Save policy' }).click();
      expect(await fieldError(excused)).toContain('excusedCapPercent must be at most 10');
      // …and the server's refusal lands on its field too (checkpoints past the program's hours).
      await excused.fill('5');
      await policy.getByLabel('Academic year weeks').fill('30');
      const checkpoints = policy.getByLabel('SAP checkpoints (hours)');
      await checkpoints.fill('450, 1600');
      await policy.getByRole('button', { name: 'Save policy' }).click();
      expect(await fieldError(checkpoints)).toContain("sapCheckpointHours must not go beyond the program's 1500 hours");
      await checkpoints.fill('');
      await policy.getByRole('button', { name: 'Save policy' }).click();
      await expectToast(page, 'Policy saved');
      // COMPLIANCE.md's example: 1,500 h over 50 weeks with 900 h / 30-week years.
      await visible(policy.getByText('1,500 hours over 50 weeks', { exact: false }));
      expect(await periodRows(policy)).toEqual([
        ['Period 1', '0 – 450', '450', '15', '15'],
        ['Period 2', '450 – 900', '450', '15', '30'],
        ['Period 3', '900 – 1,200', '300', '10', '40'],
        ['Period 4', '1,200 – 1,500', '300', '10', '50'],
      ]);
      expect(await describedBy(excused)).toContain('In force: 5 (set for this program; blank: 10).');
      expect(await excused.getAttribute('aria-invalid')).toBeNull();
      await screenshot(page, 'programs-policy');
      await expectNoSeriousViolations(page, 'policy dialog with periods');
      const saved = (await (await api.get(`/api/programs/${cosmetology.id}/policy`)).json()) as ProgramPolicy;
      expect(saved).toMatchObject({
        programHours: 1500,
        programWeeks: 50,
        academicYearWeeks: 30,
        excusedCapPercent: 5,
        sapCheckpointHours: [450, 900, 1200, 1500],
      });

      await policy.getByRole('button', { name: 'Close' }).first().click();
      await hidden(policy);
      await screenshot(page, 'programs-list-hours');
      expect(errors).toEqual([]);
    });
  });

  it('lists the 1,500 hours at 1366 px and on a 390 px phone', async () => {
    for (const [name, viewport] of [
      ['programs-hours-1366', { width: 1366, height: 768 }],
      ['programs-hours-390', { width: 390, height: 844, isMobile: true }],
    ] as const) {
      await usingPage(adminPage('/programs', 'Programs', viewport), async ({ page, errors }) => {
        const table = page.getByRole('table', { name: 'Programs' });
        const row = table.getByRole('row').filter({ has: page.getByRole('rowheader', { name: /Cosmetology/ }) });
        await visible(row);
        expect(await row.textContent(), name).toContain('1,500');
        expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth), name).toBeLessThanOrEqual(0);
        await expectNoSeriousViolations(page, name);
        await screenshot(page, name);
        expect(errors).toEqual([]);
      });
    }
  });

  it('a program without hours counts its active courses’ hours, and shows none in the list', async () => {
    await usingPage(adminPage('/programs', 'Programs'), async ({ page, errors }) => {
      const row = page
        .getByRole('table', { name: 'Programs' })
        .getByRole('row')
        .filter({ has: page.getByRole('rowheader', { name: /Barbering/ }) });
      await visible(row);
      expect((await row.locator('th, td').allTextContents())[3]).toBe('—');
      await row.getByRole('button', { name: 'Clock-hour policy of Barbering' }).click();
      const policy = dialog(page, 'Clock-hour policy: Barbering');
      await visible(policy);
      await visible(policy.getByText('No payment periods yet', { exact: false }));
      expect(await policy.getByLabel('Program hours', { exact: true }).inputValue()).toBe('');
      await policy.getByRole('button', { name: 'Close' }).first().click();
      await hidden(policy);
      expect(errors).toEqual([]);
    });
  });
});

/** 'YYYY-MM' of the month after the browser's today, and how the month view names it. */
function nextMonth(): { ym: string; label: string } {
  const now = new Date();
  const d = new Date(Date.UTC(now.getFullYear(), now.getMonth() + 1, 1));
  return { ym: d.toISOString().slice(0, 7), label: new Intl.DateTimeFormat('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(d) };
}

describe('school calendar', () => {
  it('adds a closure, shows it in the month view, and deletes it', async () => {
    await usingPage(adminPage('/calendar', 'School Calendar'), async ({ page, errors }) => {
      await visible(page.getByRole('table', { name: /^Closures in / }));
      await visible(page.getByText('No closures yet', { exact: false }));
      await expectNoSeriousViolations(page, 'calendar screen');

      const next = nextMonth();
      await page.getByRole('button', { name: 'Add Closure' }).click();
      const form = dialog(page, 'Add Closure');
      await visible(form);
      await form.getByLabel('Start date').fill(`${next.ym}-11`);
      await form.getByLabel('End date').fill(`${next.ym}-10`);
      await form.getByLabel('Name').fill('Spring recess');
      await form.getByLabel('Applies to').selectOption({ label: 'Barbering only' });
      await form.getByRole('button', { name: 'Add closure' }).click();
      expect(await fieldError(form.getByLabel('End date'))).toContain('endDate must not be before startDate');
      await form.getByLabel('End date').fill(`${next.ym}-13`);
      await expectNoSeriousViolations(page, 'add closure dialog');
      await form.getByRole('button', { name: 'Add closure' }).click();
      await expectToast(page, 'Closure added');
      await hidden(form);

      // The month view moves to the closure's month; its three days carry its name.
      const month = page.getByRole('table', { name: `Closures in ${next.label}` });
      await visible(month);
      const closedCells = month.getByRole('cell').filter({ hasText: 'Spring recess' });
      expect(await closedCells.count()).toBe(3);
      expect(await closedCells.first().textContent()).toBe('11Closed: Spring recessBarbering only');
      const list = page.getByRole('list', { name: 'Closures' });
      await visible(list.getByRole('heading', { name: 'Spring recess' }));
      expect(await list.textContent()).toContain('Barbering only');
      await screenshot(page, 'school-calendar');
      await expectNoSeriousViolations(page, 'calendar with a closure');

      // Previous / next month by keyboard.
      await page.getByRole('button', { name: 'Previous month' }).focus();
      await page.keyboard.press('Enter');
      await hidden(month);
      expect(await page.getByRole('cell').filter({ hasText: 'Spring recess' }).count()).toBe(0);
      await page.getByRole('button', { name: 'Next month' }).click();
      await visible(month);

      const [created] = (await (await api.get(`/api/calendar/closures?programId=${barbering.id}`)).json()) as Closure[];
      expect(created).toMatchObject({ startDate: `${next.ym}-11`, endDate: `${next.ym}-13`, name: 'Spring recess', programId: barbering.id });

      await list.getByRole('button', { name: 'Delete Spring recess' }).click();
      const confirm = dialog(page, 'Delete closure?');
      await visible(confirm);
      await expectNoSeriousViolations(page, 'delete closure dialog');
      await confirm.getByRole('button', { name: 'Delete closure' }).click();
      await expectToast(page, 'Closure deleted');
      await hidden(confirm);
      await hidden(month.getByText('Spring recess'));
      await visible(page.getByText('No closures yet', { exact: false }));
      expect(await (await api.get('/api/calendar/closures')).json()).toEqual([]);
      expect(errors).toEqual([]);
    });
  });
});
