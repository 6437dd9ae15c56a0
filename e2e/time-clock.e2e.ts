import { eq } from 'drizzle-orm';
import type { APIRequestContext, Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '../common/dates.ts';
import type { Program } from '../common/programs.ts';
import type { TimeClockPolicy } from '../common/time-clock.ts';
import { attendanceRecords, courses, schedules, students, users } from '../server/db/schema/index.ts';
import {
  apiSend,
  hidden,
  launchBrowser,
  screenshot,
  seriousViolations,
  signIn,
  signedInApi,
  startServer,
  usingPage,
  visible,
  watchedPage,
  type E2eServer,
  type TestUser,
} from './support.ts';

/**
 * Decision 050, the Programs screen's time-clock rules: an administrator opens a new program's rules
 * (the new-program defaults), fills the form from the Tennessee preset, is told a back-dated date
 * recomputes one student's days, fixes a weekly cap below the daily one, and saves. Axe on each step.
 */

let browser: Browser;
let server: E2eServer;
let admin: TestUser;
let api: APIRequestContext;
let adminState: Awaited<ReturnType<BrowserContext['storageState']>>;
let program: Program;
let today: string;

beforeAll(async () => {
  [browser, server] = await Promise.all([launchBrowser(), startServer()]);
  admin = await server.createUser('it_admin', { firstName: 'Morgan', lastName: 'Admin' });
  api = await signedInApi(server.baseUrl, admin);
  program = await apiSend<Program>(api, 'POST', '/api/programs', { programName: 'Cosmetology', programCode: 'COS' });
  today = ((await (await api.get(`/api/programs/${program.id}/time-clock`)).json()) as TimeClockPolicy).today;
  // One student with a record a week ago: rules back-dated before it recompute their days.
  const instructor = await server.createUser('instructor');
  const [{ id: instructorId }] = (await server.db.select({ id: users.id }).from(users).where(eq(users.email, instructor.email))) as [{ id: number }];
  const lastWeek = addDays(today, -7);
  const [{ id: courseId }] = (await server.db
    .insert(courses)
    .values({ courseCode: 'COS-1', courseName: 'Cosmetology I', programId: program.id, clockHours: '100' })
    .returning({ id: courses.id })) as [{ id: number }];
  const [{ id: scheduleId }] = (await server.db
    .insert(schedules)
    .values({
      courseId,
      instructorId,
      cohortNumber: 1,
      termNumber: 1,
      dayOfWeek: new Date(`${lastWeek}T00:00:00Z`).getUTCDay(),
      startTime: '08:00',
      endTime: '12:00',
      courseStartDate: addDays(today, -30),
      courseEndDate: addDays(today, 30),
    })
    .returning({ id: schedules.id })) as [{ id: number }];
  const [{ id: studentId }] = (await server.db
    .insert(students)
    .values({ firstName: 'Rosa', lastName: 'Diaz', programId: program.id })
    .returning({ id: students.id })) as [{ id: number }];
  await server.db.insert(attendanceRecords).values({
    studentId,
    scheduleId,
    sessionDate: lastWeek,
    status: 'present',
    source: 'manual',
    isManualOverride: true,
    overrideReason: 'Paper sign-in sheet',
  });

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
async function describedBy(field: Locator): Promise<string> {
  const ids = (await field.getAttribute('aria-describedby')) ?? '';
  const texts = await Promise.all(
    ids
      .split(' ')
      .filter(Boolean)
      .map((id) => field.page().locator(`[id="${id}"]`).textContent()),
  );
  return texts.join(' ');
}

describe('time-clock rules on the Programs screen', () => {
  it('fills the form from a preset, warns about a back-dated change, and saves a new version', async () => {
    await usingPage(adminPage('/programs', 'Programs'), async ({ page, errors }) => {
      const row = page
        .getByRole('table', { name: 'Programs' })
        .getByRole('row')
        .filter({ has: page.getByRole('rowheader', { name: /Cosmetology/ }) });
      await row.getByRole('button', { name: 'Time-clock rules of Cosmetology' }).click();
      const dialog = page.getByRole('dialog', { name: 'Time-clock rules: Cosmetology' });
      await visible(dialog);

      // A new program: no credit for a missed check-out, no caps; each rule in a sentence.
      expect(await dialog.getByRole('radio', { name: /No credit until corrected/ }).isChecked()).toBe(true);
      await visible(dialog.getByText('A meeting without a check-out earns nothing until staff correct it', { exact: false }));
      await visible(dialog.getByText('None saved: the program counts by the defaults for a new program', { exact: false }));
      expect(await dialog.getByLabel('Effective from').inputValue()).toBe(today);
      expect(await dialog.getByLabel('Most minutes a day').inputValue()).toBe('');
      expect(await seriousViolations(page)).toEqual([]);

      // The preset fills the form, and says where its rule comes from; nothing is saved yet.
      await dialog.getByLabel('Start from a preset').selectOption({ label: 'Tennessee' });
      await visible(dialog.getByText('Tennessee counts at most 10 hours a day', { exact: false }));
      await visible(dialog.getByText('the school confirms its own board’s current rules', { exact: false }));
      const daily = dialog.getByLabel('Most minutes a day');
      const weekly = dialog.getByLabel('Most minutes a week');
      expect(await daily.inputValue()).toBe('600');
      expect(await weekly.inputValue()).toBe('2880');
      expect(await describedBy(daily)).toContain('Blank: no cap. 600 minutes is 10 hours.');
      expect(((await (await api.get(`/api/programs/${program.id}/time-clock`)).json()) as TimeClockPolicy).versions).toEqual([]);

      // Back-dated before last week's record: one student's days are recomputed, and the form says so first.
      const from = addDays(today, -14);
      await dialog.getByLabel('Effective from').fill(from);
      await visible(dialog.getByText(`${from} is in the past: saving recomputes 1 student’s days from that date.`));
      await screenshot(page, 'time-clock-preset');
      expect(await seriousViolations(page)).toEqual([]);

      // The contract answers before any request: a weekly cap below the daily one.
      await weekly.fill('300');
      await dialog.getByRole('button', { name: 'Save rules' }).click();
      await expect.poll(() => weekly.getAttribute('aria-invalid')).toBe('true');
      expect(await describedBy(weekly)).toContain('weeklyMaxMinutes must not be less than dailyMaxMinutes');
      await weekly.fill('2880');
      await dialog.getByRole('button', { name: 'Save rules' }).click();
      await visible(toasts(page).getByText('Time-clock rules saved', { exact: true }));
      await visible(toasts(page).getByText(`In force from ${from}; recomputed 1 student’s days.`, { exact: true }));
      const versions = dialog.getByRole('table', { name: 'Versions of the time-clock rules, latest first' });
      await visible(versions.getByRole('rowheader', { name: from }));
      expect(
        await versions
          .getByRole('row')
          .filter({ has: page.getByRole('rowheader', { name: from }) })
          .textContent(),
      ).toContain('at most 600 min a day · at most 2880 min a week');
      expect(await seriousViolations(page)).toEqual([]);

      const saved = (await (await api.get(`/api/programs/${program.id}/time-clock`)).json()) as TimeClockPolicy;
      expect(saved).toMatchObject({ missingCheckOut: 'no_credit', dailyMaxMinutes: 600, weeklyMaxMinutes: 2880, effectiveFrom: from, isSet: true });

      // Keyboard: Escape closes the dialog and focus returns to the row's button. (While a toast is up,
      // Escape dismisses the toast first, as the top layer: wait until it has gone.)
      await hidden(toasts(page).getByText('Time-clock rules saved', { exact: true }), 15_000);
      await page.keyboard.press('Escape');
      await hidden(dialog);
      await expect.poll(() => row.getByRole('button', { name: 'Time-clock rules of Cosmetology' }).evaluate((el) => el === document.activeElement)).toBe(true);
      expect(errors).toEqual([]);
    });
  });
});
