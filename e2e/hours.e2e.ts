import fs from 'node:fs';
import type { APIRequestContext, Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AttendanceRow } from '../common/attendance.ts';
import type { Course } from '../common/courses.ts';
import { addDays } from '../common/dates.ts';
import type { Program } from '../common/programs.ts';
import type { Schedule } from '../common/schedules.ts';
import type { Settings } from '../common/settings.ts';
import type { Student } from '../common/students.ts';
import { schoolInstantIso } from '../web/lib/zoned-time.ts';
import {
  apiSend,
  closeAll,
  expectTitle,
  hidden,
  openSignedIn,
  schoolToday,
  screenshot,
  seriousViolations,
  signIn,
  signInOnce,
  startAdminJourney,
  toasts,
  visible,
  watchedPage,
  type E2eServer,
  type SignedInState,
  type TestUser,
} from './support.ts';

// The clock-hour ledger in the browser (decision 014): an administrator opens a student from the
// Students list, reads the Hours tab, records make-up time and sees the payment period's bar move,
// downloads the time card, reads a corrected record's history; the Hours view lists the student.
let browser: Browser;
let server: E2eServer;
let admin: TestUser;
let instructor: TestUser;
let api: APIRequestContext;
let adminState: SignedInState;

const seed = {} as { program: Program; course: Course; schedule: Schedule; student: Student; outsider: Student; today: string };

beforeAll(async () => {
  ({ browser, server, admin, api } = await startAdminJourney());
  instructor = await server.createUser('instructor', { firstName: 'Irene', lastName: 'Iverson' });
  const staff = (await (await api.get('/api/users')).json()) as { id: number; email: string }[];
  const instructorId = staff.find((u) => u.email === instructor.email)!.id;
  const settings = (await (await api.get('/api/settings')).json()) as Settings;
  const today = schoolToday(settings.attendance.timeZone);
  seed.today = today;

  // A 100-hour program (its one course's hours): two payment periods of 50 hours.
  seed.program = await apiSend<Program>(api, 'POST', '/api/programs', { programName: 'Cosmetology', programCode: 'COS' });
  seed.course = await apiSend<Course>(api, 'POST', '/api/courses', {
    courseCode: 'COS101',
    courseName: 'Cosmetology Fundamentals',
    clockHours: 100,
    programId: seed.program.id,
  });
  seed.student = await apiSend<Student>(api, 'POST', '/api/students', {
    firstName: 'Ada',
    lastName: 'Lovelace',
    email: 'ada.lovelace@students.example',
    sisStudentId: 'SIS-ADA',
    programId: seed.program.id,
    enrollmentDate: addDays(today, -28),
  });
  // Four-hour meetings on today's weekday, for the last six weeks and the next two months.
  seed.schedule = await apiSend<Schedule>(api, 'POST', '/api/schedules', {
    courseId: seed.course.id,
    instructorId,
    cohortNumber: 1,
    termNumber: 1,
    dayOfWeek: new Date(`${today}T00:00:00Z`).getUTCDay(),
    startTime: '09:00',
    endTime: '13:00',
    roomNumber: 'S-1',
    courseStartDate: addDays(today, -42),
    courseEndDate: addDays(today, 60),
  });
  await apiSend(api, 'POST', `/api/schedules/${seed.schedule.id}/roster`, { studentIds: [seed.student.id] });
  // On no roster of the instructor's.
  seed.outsider = await apiSend<Student>(api, 'POST', '/api/students', { firstName: 'Otto', lastName: 'Outsider' });
  // Three meetings recorded by hand (paper sign-in sheets): 3 × 240 credited minutes.
  const records: AttendanceRow[] = [];
  for (const weeksAgo of [3, 2, 1]) {
    records.push(
      await apiSend<AttendanceRow>(api, 'POST', '/api/attendance', {
        scheduleId: seed.schedule.id,
        studentId: seed.student.id,
        sessionDate: addDays(today, -7 * weeksAgo),
        status: 'present',
        overrideReason: 'Paper sign-in sheet',
      }),
    );
  }
  // Two corrected afterwards; their history keeps the original next to the change. Two weeks ago
  // excused (within the period's 5-hour cap: still credited), last week a late arrival at 09:30.
  await apiSend<AttendanceRow>(api, 'PUT', `/api/attendance/${records[1]!.id}`, { status: 'excused', overrideReason: 'Doctor’s note handed in' });
  const lastWeek = addDays(today, -7);
  await apiSend<AttendanceRow>(api, 'PUT', `/api/attendance/${records[2]!.id}`, {
    status: 'late',
    overrideReason: 'Sign-in sheet shows 09:30',
    scanInTime: schoolInstantIso(lastWeek, '09:30', settings.attendance.timeZone),
    scanOutTime: schoolInstantIso(lastWeek, '13:00', settings.attendance.timeZone),
  });
  adminState = await signInOnce(browser, server.baseUrl, admin);
});

afterAll(() => closeAll(api, browser, server));

const adminContext = (viewport = { width: 1280, height: 900 }) => openSignedIn(browser, server.baseUrl, adminState, { viewport, acceptDownloads: true });

const periodBar = (page: Page, n: number) => page.getByRole('progressbar', { name: `Payment period ${n}` });

async function barValue(page: Page, n: number): Promise<number> {
  return Number(await periodBar(page, n).getAttribute('aria-valuenow'));
}

describe('the hours ledger in the browser', () => {
  it('sets the program’s policy, opens a student from the list, records make-up, downloads the time card and reads a record’s history', async () => {
    const { context, page, errors } = await adminContext();
    try {
      // The administrator sets the program's clock-hour policy first (Programs screen).
      await page.goto('/programs');
      await page.getByRole('button', { name: 'Clock-hour policy of Cosmetology' }).click();
      const policy = page.getByRole('dialog', { name: 'Clock-hour policy: Cosmetology' });
      await visible(policy);
      await policy.getByLabel('Minimum attendance (%)').fill('85');
      await policy.getByLabel('Make-up deadline (days)').fill('7');
      await policy.getByRole('button', { name: 'Save policy' }).click();
      await visible(toasts(page).getByText('Policy saved', { exact: true }));
      await policy.getByRole('button', { name: 'Close', exact: true }).last().click();
      await hidden(policy);
      expect(await (await api.get(`/api/programs/${seed.program.id}/policy`)).json()).toMatchObject({ minimumAttendancePercent: 85, makeUpDeadlineDays: 7 });

      await page.goto('/students');
      await visible(page.getByRole('heading', { level: 1, name: 'Students' }));
      await page.getByRole('link', { name: 'Lovelace, Ada' }).click();
      await page.waitForURL((u) => u.pathname === `/students/${seed.student.id}`);
      await visible(page.getByRole('heading', { level: 1, name: 'Ada Lovelace' }));
      await expectTitle(page, 'Ada Lovelace · Muster');
      expect(await page.getByRole('tab', { name: 'Hours' }).getAttribute('aria-selected')).toBe('true');

      // Period 1 of 50 hours: 240 attended, 240 excused within the 5-hour cap, 210 from 09:30 to 13:00.
      await visible(periodBar(page, 1));
      expect(await periodBar(page, 1).getAttribute('aria-valuemax')).toBe(String(50 * 60));
      const before = await barValue(page, 1);
      expect(before).toBe(690);
      expect(await periodBar(page, 1).getAttribute('aria-valuetext')).toBe('11:30 of 50:00 hours credited');
      await visible(page.getByRole('progressbar', { name: 'Payment period 2' }));
      await visible(page.getByRole('heading', { name: 'Satisfactory academic progress' }));
      const calendar = page.getByRole('table', { name: /^Attendance in / });
      await visible(calendar);
      await screenshot(page, 'student-hours');
      expect(await seriousViolations(page)).toEqual([]);

      // Record make-up through the dialog: yesterday, two hours, supervised by the admin.
      await page.getByRole('button', { name: 'Record make-up' }).click();
      const dialog = page.getByRole('dialog', { name: 'Record make-up' });
      await visible(dialog);
      await dialog.getByLabel('Date').fill(addDays(seed.today, -1));
      await dialog.getByLabel('Start time').fill('14:00');
      await dialog.getByLabel('End time').fill('16:00');
      expect(await dialog.getByLabel('Supervisor').inputValue()).not.toBe('');
      await dialog.getByLabel('Course (optional)').selectOption({ label: 'COS101 — Cosmetology Fundamentals' });
      await dialog.getByLabel('Note').fill('Colour theory practice');
      await screenshot(page, 'student-make-up-dialog');
      expect(await seriousViolations(page)).toEqual([]);
      await dialog.getByRole('button', { name: 'Record make-up' }).click();
      await hidden(dialog);
      await visible(toasts(page).getByText('Make-up recorded', { exact: true }));
      await visible(page.getByRole('table', { name: 'Make-up sessions' }).getByText('Colour theory practice'));

      // The bar moves by the two hours.
      await page.waitForFunction(
        (want) => document.querySelector('[role="progressbar"][aria-valuenow]')?.getAttribute('aria-valuenow') === want,
        String(before + 120),
        { timeout: 10_000 },
      );
      expect(await barValue(page, 1)).toBe(before + 120);

      // The time card of the month shown: a PDF.
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download time card (PDF)' }).click()]);
      const file = await download.path();
      expect(fs.readFileSync(file).subarray(0, 5).toString('latin1')).toBe('%PDF-');
      expect(download.suggestedFilename()).toMatch(/\.pdf$/);

      // History: the corrected records, and each one's history with the original entry and the change.
      await page.getByRole('tab', { name: 'History' }).click();
      await page.waitForURL((u) => u.searchParams.get('tab') === 'history');
      const records = page.getByRole('table', { name: 'Attendance records of Ada Lovelace' });
      await visible(records.getByText('Corrected'));
      expect(await records.getByRole('button', { name: /^History of COS101/ }).count()).toBe(3);
      expect(await records.getByText('Corrected').count()).toBe(2);
      await screenshot(page, 'student-history');
      expect(await seriousViolations(page)).toEqual([]);
      const history = page.getByRole('dialog', { name: 'Record history' });
      const openHistory = async (daysAgo: number) => {
        const date = new Date(`${addDays(seed.today, -daysAgo)}T00:00:00Z`).toLocaleDateString('en-US', {
          month: 'short',
          day: 'numeric',
          year: 'numeric',
          timeZone: 'UTC',
        });
        await records.getByRole('button', { name: `History of COS101 on ${date}` }).click();
        await visible(history.getByRole('heading', { name: 'As first captured' }));
      };
      await openHistory(14);
      await visible(history.getByText('Doctor’s note handed in').first());
      await visible(history.getByRole('heading', { name: 'Changes (1)' }));
      await screenshot(page, 'student-record-history');
      expect(await seriousViolations(page)).toEqual([]);
      await page.keyboard.press('Escape');
      await hidden(history);
      // The corrected punch: no times at first, then in at 9:30 and out at 1:00 on the school's clock.
      await openHistory(7);
      const change = history.getByRole('table', { name: 'Before and after' });
      await visible(change);
      expect(await change.getByRole('row', { name: /^In/ }).textContent()).toMatch(/—.*9:30/);
      expect(await change.getByRole('row', { name: /^Out/ }).textContent()).toMatch(/—.*1:00/);
      await page.keyboard.press('Escape');
      await hidden(history);

      // Back on Hours: the ledger as it stood ten days ago (before the last meeting and the make-up).
      await page.getByRole('tab', { name: 'Hours' }).click();
      await visible(periodBar(page, 1));
      await page.getByLabel('As of', { exact: true }).fill(addDays(seed.today, -10));
      await page.waitForFunction(() => document.querySelector('[role="progressbar"]')?.getAttribute('aria-valuenow') === '480', undefined, { timeout: 10_000 });
      await page.getByRole('button', { name: 'Back to today' }).click();
      await page.waitForFunction((want) => document.querySelector('[role="progressbar"]')?.getAttribute('aria-valuenow') === want, String(before + 120), {
        timeout: 10_000,
      });

      // Deleting make-up time takes a reason.
      await page.getByRole('button', { name: /^Delete make-up of / }).click();
      const remove = page.getByRole('dialog', { name: 'Delete make-up session?' });
      await remove.getByRole('button', { name: 'Delete make-up session' }).click();
      await visible(remove.getByText('reason is required'));
      expect(await seriousViolations(page)).toEqual([]);
      await remove.getByLabel('Reason').fill('Recorded for the wrong student');
      await remove.getByRole('button', { name: 'Delete make-up session' }).click();
      await hidden(remove);
      await visible(page.getByText('No make-up sessions recorded.'));
      await page.waitForFunction((want) => document.querySelector('[role="progressbar"]')?.getAttribute('aria-valuenow') === want, String(before), {
        timeout: 10_000,
      });

      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('lists the student in the Hours view of the program, with an export', async () => {
    const { context, page, errors } = await adminContext();
    try {
      await page.goto('/hours');
      await visible(page.getByRole('heading', { level: 1, name: 'Hours' }));
      await page.getByLabel('Program').selectOption({ label: 'Cosmetology' });
      const table = page.getByRole('table', { name: /^Hours of Cosmetology/ });
      const row = table.getByRole('row').filter({ has: page.getByRole('link', { name: 'Lovelace, Ada' }) });
      await visible(row);
      expect(await row.textContent()).toContain('SIS-ADA');
      expect(await row.textContent()).toContain('Period 1');
      await screenshot(page, 'hours-view');
      expect(await seriousViolations(page)).toEqual([]);

      const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
      const csv = fs.readFileSync(await download.path(), 'utf8').replace(/^\uFEFF/, '');
      expect(csv.split(/\r?\n/)[0]).toContain('sisStudentId');
      expect(csv).toContain('SIS-ADA');

      await row.getByRole('link', { name: 'Lovelace, Ada' }).click();
      await visible(page.getByRole('heading', { level: 1, name: 'Ada Lovelace' }));
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('records a leave of absence through the dialog, which says how many days are used', async () => {
    const { context, page, errors } = await adminContext();
    try {
      await page.goto(`/students/${seed.outsider.id}`);
      const leaves = page.getByRole('region', { name: 'Leaves of absence' });
      await visible(leaves.getByText('0 of 180 days used in the last 12 months', { exact: false }));
      await leaves.getByRole('button', { name: 'Record leave' }).click();
      const dialog = page.getByRole('dialog', { name: 'Record leave' });
      await visible(dialog);
      await dialog.getByLabel('First day').fill(addDays(seed.today, -2));
      await dialog.getByLabel('Last day').fill(addDays(seed.today, 7));
      await visible(dialog.getByText('This leave: 10 days', { exact: false }));
      await dialog.getByLabel('Reason').fill('Medical leave approved by the director');
      expect(await seriousViolations(page)).toEqual([]);
      await dialog.getByRole('button', { name: 'Record leave' }).click();
      await hidden(dialog);
      await visible(leaves.getByText('On leave now'));
      await visible(leaves.getByText('3 of 180 days used in the last 12 months', { exact: false }));
      const leaveList = (await (await api.get(`/api/students/${seed.outsider.id}/leaves`)).json()) as { days: number }[];
      expect(leaveList.map((l) => l.days)).toEqual([10]);
      expect(((await (await api.get(`/api/students/${seed.outsider.id}`)).json()) as Student).status).toBe('loa');
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('fits a phone without sideways scrolling', async () => {
    const { context, page, errors } = await adminContext({ width: 390, height: 844 });
    try {
      await page.goto(`/students/${seed.student.id}`);
      await visible(periodBar(page, 1));
      await visible(page.getByRole('table', { name: /^Attendance in / }));
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await screenshot(page, 'student-hours-phone');
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('lets an instructor read a student of their roster and record make-up they supervised, and no other student', async () => {
    const context = await browser.newContext({ baseURL: server.baseUrl });
    const { page, errors } = await watchedPage(context);
    try {
      await signIn(page, instructor);
      await page.goto(`/students/${seed.student.id}`);
      await visible(page.getByRole('heading', { level: 1, name: 'Ada Lovelace' }));
      await visible(periodBar(page, 1));
      // No Students screen for instructors: no way back to it.
      expect(await page.getByRole('link', { name: 'Students' }).count()).toBe(0);
      await page.getByRole('button', { name: 'Record make-up' }).click();
      const dialog = page.getByRole('dialog', { name: 'Record make-up' });
      const supervisor = dialog.getByLabel('Supervisor');
      await visible(supervisor);
      expect(await supervisor.locator('option').allTextContents()).toEqual(['Irene Iverson (you)']);
      await page.keyboard.press('Escape');
      await hidden(dialog);

      await page.goto(`/students/${seed.outsider.id}`);
      await visible(page.getByRole('heading', { name: 'Student not found' }).first());
      expect(await page.getByRole('tab', { name: 'Hours' }).count()).toBe(0);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
