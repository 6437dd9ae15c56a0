import type { APIRequestContext, Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Closure, ProgramPolicy } from '../common/hours.ts';
import type { Program } from '../common/programs.ts';
import { apiSend, hidden, launchBrowser, screenshot, seriousViolations, signIn, signedInApi, startServer, usingPage, visible, watchedPage, type E2eServer, type TestUser } from './support.ts';

/**
 * Issue 12, the Programs and School Calendar screens: an administrator creates a program, sets its
 * clock-hour policy and watches the payment periods follow; adds a closure, finds it in the month
 * view and deletes it. Each screen and dialog is checked with axe.
 */

let browser: Browser;
let server: E2eServer;
let admin: TestUser;
let api: APIRequestContext;
let adminState: Awaited<ReturnType<BrowserContext['storageState']>>;
let barbering: Program;

beforeAll(async () => {
  [browser, server] = await Promise.all([launchBrowser(), startServer()]);
  admin = await server.createUser('it_admin', { firstName: 'Morgan', lastName: 'Admin' });
  api = await signedInApi(server.baseUrl, admin);
  barbering = await apiSend<Program>(api, 'POST', '/api/programs', { programName: 'Barbering', programCode: 'BAR', credentialType: 'Certificate' });
  const context = await browser.newContext({ baseURL: server.baseUrl });
  const page = await context.newPage();
  await signIn(page, admin);
  adminState = await context.storageState();
  await context.close();
});

afterAll(async () => {
  await api?.dispose();
  await browser?.close();
  await server?.close();
});

async function adminPage(path: string, heading: string) {
  const context = await browser.newContext({ baseURL: server.baseUrl, viewport: { width: 1280, height: 900 }, storageState: adminState });
  const opened = await watchedPage(context);
  await opened.page.goto(path);
  await visible(opened.page.getByRole('heading', { level: 1, name: heading }));
  return opened;
}

const toasts = (page: Page) => page.getByRole('region', { name: /Notification/, includeHidden: true });
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
async function describedBy(field: Locator): Promise<string> {
  const ids = (await field.getAttribute('aria-describedby')) ?? '';
  const texts = await Promise.all(ids.split(' ').filter(Boolean).map((id) => field.page().locator(`[id="${id}"]`).textContent()));
  return texts.join(' ');
}

/** The payment periods table's rows as [period, credited hours, hours, weeks, through week]. */
async function periodRows(box: Locator): Promise<string[][]> {
  const rows = box.getByRole('table', { name: 'Payment periods of the saved policy' }).getByRole('row').filter({ has: box.page().getByRole('rowheader') });
  const out: string[][] = [];
  for (const row of await rows.all()) out.push((await row.locator('th, td').allTextContents()).map((t) => t.trim()));
  return out;
}

describe('programs', () => {
  it('creates a program, edits it, and sets its clock-hour policy; the payment periods follow the server', async () => {
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
      await form.getByLabel('Duration hours').fill('300');
      await form.getByLabel('Start date').fill('2026-09-01');
      await form.getByLabel('End date').fill('2026-08-01');
      await form.getByRole('button', { name: 'Create program' }).click();
      expect(await fieldError(form.getByLabel('End date'))).toContain('End date must not be before the start date');
      await form.getByLabel('End date').fill('2027-08-31');
      await expectNoSeriousViolations(page, 'add program dialog');
      await form.getByRole('button', { name: 'Create program' }).click();
      await expectToast(page, 'Program created');
      await hidden(form);

      const row = table.getByRole('row').filter({ has: page.getByRole('rowheader', { name: /Cosmetology/ }) });
      await visible(row);
      const cells = await row.locator('th, td').allTextContents();
      expect(cells.slice(0, 5)).toEqual(['CosmetologySIS SIS-P-7', 'COS', 'Diploma', '300', 'Active']);
      const cosmetology = ((await (await api.get('/api/programs')).json()) as Program[]).find((p) => p.programName === 'Cosmetology')!;
      expect(cosmetology).toMatchObject({ programCode: 'COS', sisProgramId: 'SIS-P-7', credentialType: 'Diploma', durationHours: 300, startDate: '2026-09-01', endDate: '2027-08-31' });

      // Edit: the fields the form does not show are kept.
      const { id: _id, syncStatus: _sync, ...fields } = cosmetology;
      expect((await api.put(`/api/programs/${cosmetology.id}`, { data: { ...fields, programDirector: 'Dana Director' } })).status()).toBe(200);
      await page.reload();
      await visible(row);
      await row.getByRole('button', { name: 'Edit Cosmetology' }).click();
      const edit = dialog(page, 'Edit Program');
      await visible(edit);
      expect(await edit.getByLabel('Program code').inputValue()).toBe('COS');
      await edit.getByLabel('Status').selectOption('suspended');
      await edit.getByLabel('Description').fill('Hair, skin and nails; state board preparation.');
      await edit.getByRole('button', { name: 'Save changes' }).click();
      await expectToast(page, 'Program updated');
      await hidden(edit);
      await visible(row.getByText('Suspended', { exact: true }));
      expect(await (await api.get(`/api/programs/${cosmetology.id}`)).json()).toMatchObject({ status: 'suspended', programDirector: 'Dana Director', description: 'Hair, skin and nails; state board preparation.' });

      // The clock-hour policy: a new program has no courses, so no hours and no payment periods yet.
      await row.getByRole('button', { name: 'Clock-hour policy of Cosmetology' }).click();
      const policy = dialog(page, 'Clock-hour policy: Cosmetology');
      await visible(policy);
      await visible(policy.getByText('No payment periods yet', { exact: false }));
      const excused = policy.getByLabel('Excused absence cap (%)');
      expect(await excused.inputValue()).toBe('');
      expect(await describedBy(excused)).toContain('In force: 10 (default).');
      expect(await describedBy(policy.getByLabel('Make-up cap (% of program hours)'))).toContain('In force: no cap (default).');
      await expectNoSeriousViolations(page, 'policy dialog');

      await policy.getByLabel('Program hours', { exact: true }).fill('1500');
      await policy.getByRole('button', { name: 'Save policy' }).click();
      await expectToast(page, 'Policy saved');
      // 1,500 h with the default 900 h / 26-week years: 44 weeks (43.3 rounded up).
      await visible(policy.getByText('1,500 hours over 44 weeks', { exact: false }));
      expect(await periodRows(policy)).toEqual([
        ['Period 1', '0 – 450', '450', '13', '13'],
        ['Period 2', '450 – 900', '450', '13', '26'],
        ['Period 3', '900 – 1,200', '300', '9', '35'],
        ['Period 4', '1,200 – 1,500', '300', '9', '44'],
      ]);
      expect(await describedBy(policy.getByLabel('Program weeks'))).toContain('In force: 44');

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
      expect(saved).toMatchObject({ programHours: 1500, programWeeks: 50, academicYearWeeks: 30, excusedCapPercent: 5, sapCheckpointHours: [450, 900, 1200, 1500] });

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
