import type { APIRequestContext, Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '../common/dates.ts';
import type { Program } from '../common/programs.ts';
import type { TimeClockPolicy } from '../common/time-clock.ts';
import { attendanceRecords } from '../server/db/schema/index.ts';
import {
  apiSend,
  closeAll,
  describedBy,
  hidden,
  openSignedInAt,
  screenshot,
  seedWeeklyClass,
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
 * Decision 050, the Programs screen's time-clock rules: an administrator opens a new program's rules
 * (the new-program defaults), fills the form from the Tennessee preset, is told a back-dated date
 * recomputes one student's days, fixes a weekly cap below the daily one, and saves. Axe on each step.
 */

let browser: Browser;
let server: E2eServer;
let admin: TestUser;
let api: APIRequestContext;
let adminState: SignedInState;
let program: Program;
let today: string;

beforeAll(async () => {
  ({ browser, server, admin, api } = await startAdminJourney());
  program = await apiSend<Program>(api, 'POST', '/api/programs', { programName: 'Cosmetology', programCode: 'COS' });
  today = ((await (await api.get(`/api/programs/${program.id}/time-clock`)).json()) as TimeClockPolicy).today;
  // One student with a record a week ago: rules back-dated before it recompute their days.
  const lastWeek = addDays(today, -7);
  const { scheduleId, studentId } = await seedWeeklyClass(server, {
    programId: program.id,
    course: { courseCode: 'COS-1', courseName: 'Cosmetology I', clockHours: '100' },
    meets: lastWeek,
    startTime: '08:00',
    endTime: '12:00',
    courseStartDate: addDays(today, -30),
    courseEndDate: addDays(today, 30),
    student: { firstName: 'Rosa', lastName: 'Diaz' },
  });
  await server.db.insert(attendanceRecords).values({
    studentId,
    scheduleId,
    sessionDate: lastWeek,
    status: 'present',
    source: 'manual',
    isManualOverride: true,
    overrideReason: 'Paper sign-in sheet',
  });
  adminState = await signInOnce(browser, server.baseUrl, admin);
});

afterAll(() => closeAll(api, browser, server));

const adminPage = (path: string, heading: string) => openSignedInAt(browser, server.baseUrl, adminState, path, heading);

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
