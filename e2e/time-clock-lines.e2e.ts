import type { APIRequestContext, Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '../common/dates.ts';
import type { Program } from '../common/programs.ts';
import type { TimeClockPolicy } from '../common/time-clock.ts';
import { attendanceRecords } from '../server/db/schema/index.ts';
import { schoolInstantIso } from '../web/lib/zoned-time.ts';
import type { Settings } from '../common/settings.ts';
import {
  apiSend,
  closeAll,
  openSignedIn,
  screenshot,
  seedWeeklyClass,
  seriousViolations,
  signInOnce,
  startAdminJourney,
  usingPage,
  visible,
  type E2eServer,
  type SignedInState,
  type TestUser,
} from './support.ts';

/**
 * Decision 050, the time-clock lines on the screens: a program that rounds to 15 minutes with 7 minutes'
 * grace, deducts 30 minutes after 300 and counts at most 600 a day. Last week the student punched
 * 08:05–19:00 in an 08:00–19:00 class: 655 punched, 660 rounded, 30 deducted, 30 over the cap, 600
 * attended. The student page's Hours tab and its time card, and the Hours view, show those lines
 * (and no line that is zero), each explained. Axe on each.
 */

let browser: Browser;
let server: E2eServer;
let admin: TestUser;
let api: APIRequestContext;
let adminState: SignedInState;
let studentId: number;
let lastWeek: string;

beforeAll(async () => {
  ({ browser, server, admin, api } = await startAdminJourney());
  const { timeZone } = ((await (await api.get('/api/settings')).json()) as Settings).attendance;
  const program = await apiSend<Program>(api, 'POST', '/api/programs', { programName: 'Barbering', programCode: 'BAR' });
  const today = ((await (await api.get(`/api/programs/${program.id}/time-clock`)).json()) as TimeClockPolicy).today;
  await apiSend(api, 'PUT', `/api/programs/${program.id}/time-clock`, {
    missingCheckOut: 'no_credit',
    rounding: 'nearest',
    roundingMinutes: 15,
    graceMinutes: 7,
    mealDeduction: { afterMinutes: 300, minutes: 30 },
    dailyMaxMinutes: 600,
    effectiveFrom: addDays(today, -40),
  });
  lastWeek = addDays(today, -7);
  const seeded = await seedWeeklyClass(server, {
    programId: program.id,
    course: { courseCode: 'BAR-1', courseName: 'Barbering I', clockHours: '1500' },
    meets: lastWeek,
    startTime: '08:00',
    endTime: '19:00',
    courseStartDate: lastWeek,
    courseEndDate: lastWeek,
    student: { firstName: 'Marisol', lastName: 'Reyes', sisStudentId: 'BAR-42', enrollmentDate: addDays(today, -30) },
    rostered: true,
  });
  studentId = seeded.studentId;
  await server.db.insert(attendanceRecords).values({
    studentId,
    scheduleId: seeded.scheduleId,
    sessionDate: lastWeek,
    status: 'present',
    source: 'qr',
    scanInTime: new Date(schoolInstantIso(lastWeek, '08:05', timeZone)),
    scanOutTime: new Date(schoolInstantIso(lastWeek, '19:00', timeZone)),
  });
  adminState = await signInOnce(browser, server.baseUrl, admin);
});

afterAll(() => closeAll(api, browser, server));

const adminPage = () => openSignedIn(browser, server.baseUrl, adminState);

describe('the time-clock lines on the screens', () => {
  it('shows the student’s lines on the Hours tab and under the time card, only those not zero', async () => {
    await usingPage(adminPage(), async ({ page, errors }) => {
      await page.goto(`/students/${studentId}`);
      const summary = page.getByRole('region', { name: 'Time clock' });
      await visible(summary);
      const figures = async (label: string) => (await summary.getByText(label, { exact: true }).locator('..').textContent()) ?? '';
      expect(await figures('Punched')).toContain('10:55');
      expect(await figures('Rounded')).toContain('11:00');
      expect(await figures('Meal deduction')).toContain('0:30');
      expect(await figures('Over the cap')).toContain('0:30');
      expect(await summary.getByText('Pending an exception', { exact: true }).count()).toBe(0);
      await visible(summary.getByText('After this many minutes of continuous attendance without a break punch', { exact: false }));

      // The time card's dates, back to last week: the day's lines as the PDF prints them.
      await page.getByLabel('From', { exact: true }).fill(addDays(lastWeek, -1));
      const table = page.getByRole('table', { name: 'Time-clock lines' });
      await visible(table);
      expect(await table.getByRole('columnheader').allTextContents()).toEqual(['Date', 'Punched', 'Rounded', 'Meal deduction', 'Over the cap', 'Attended']);
      expect((await table.getByRole('row').nth(1).getByRole('cell').allTextContents()).map((s) => s.trim())).toEqual([
        '10:55',
        '11:00',
        '0:30',
        '0:30',
        '10:00',
      ]);
      await screenshot(page, 'time-clock-lines-student');
      expect(await seriousViolations(page)).toEqual([]);
      expect(errors).toEqual([]);
    });
  });

  it('adds the student’s lines that are not zero to the Hours view, explained below it', async () => {
    await usingPage(adminPage(), async ({ page, errors }) => {
      await page.goto('/hours');
      const table = page.getByRole('table', { name: /^Hours of all programs/ });
      await visible(table.getByRole('link', { name: 'Reyes, Marisol' }));
      // Under Credited, a word for each line that is not zero, explained below the table.
      const row = table.getByRole('row').filter({ has: page.getByRole('link', { name: 'Reyes, Marisol' }) });
      const credited = row.getByRole('cell').filter({ has: page.locator('dl') });
      expect((await credited.locator('dl > div').allTextContents()).map((s) => s.trim())).toEqual([
        'punched 10:55',
        'rounded 11:00',
        'meal 0:30',
        'over cap 0:30',
      ]);
      expect((await credited.textContent())?.startsWith('10:00')).toBe(true);
      await visible(page.getByText('Under Credited, the time-clock lines since each student’s start', { exact: false }));
      await visible(page.getByText('Over the daily or weekly cap: kept and shown, not counted.'));
      // The lines add no width: one program's list still fits a laptop's screen without scrolling sideways.
      await page.getByLabel('Program').selectOption({ label: 'Barbering' });
      const one = page.getByRole('table', { name: /^Hours of Barbering/ });
      await visible(one.getByRole('link', { name: 'Reyes, Marisol' }));
      expect(await one.evaluate((el) => el.scrollWidth - el.parentElement!.clientWidth)).toBeLessThanOrEqual(0);
      await screenshot(page, 'time-clock-lines-hours');
      expect(await seriousViolations(page)).toEqual([]);
      expect(errors).toEqual([]);
    });
  });
});
