import type { APIRequestContext, Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Course } from '../common/courses.ts';
import { addDays } from '../common/dates.ts';
import type { Program } from '../common/programs.ts';
import type { Schedule } from '../common/schedules.ts';
import type { Settings } from '../common/settings.ts';
import type { Student } from '../common/students.ts';
import {
  apiSend,
  closeAll,
  hidden,
  openSignedIn,
  schoolToday,
  screenshot,
  seriousViolations,
  signInOnce,
  startAdminJourney,
  visible,
  type E2eServer,
  type SignedInState,
  type TestUser,
} from './support.ts';

// Decision 016 in the browser: the dashboard's compliance card leads to the withdrawal watch, where an
// administrator records the withdrawal of a student whose last attendance was 15 days ago.
let browser: Browser;
let server: E2eServer;
let admin: TestUser;
let api: APIRequestContext;
let adminState: SignedInState;
let student: Student;
let lda: string;

beforeAll(async () => {
  ({ browser, server, admin, api } = await startAdminJourney());
  const settings = (await (await api.get('/api/settings')).json()) as Settings;
  const today = schoolToday(settings.attendance.timeZone);
  lda = addDays(today, -15);
  const program = await apiSend<Program>(api, 'POST', '/api/programs', { programName: 'Barbering', programCode: 'BAR' });
  const course = await apiSend<Course>(api, 'POST', '/api/courses', {
    courseCode: 'BAR101',
    courseName: 'Barbering I',
    clockHours: 100,
    programId: program.id,
  });
  student = await apiSend<Student>(api, 'POST', '/api/students', {
    firstName: 'Grace',
    lastName: 'Hopper',
    sisStudentId: 'SIS-GH',
    programId: program.id,
    enrollmentDate: addDays(today, -30),
  });
  // One class a week, on the weekday of the last attendance.
  const schedule = await apiSend<Schedule>(api, 'POST', '/api/schedules', {
    courseId: course.id,
    cohortNumber: 1,
    termNumber: 1,
    dayOfWeek: new Date(`${lda}T00:00:00Z`).getUTCDay(),
    startTime: '09:00',
    endTime: '13:00',
    courseStartDate: addDays(today, -30),
    courseEndDate: addDays(today, 60),
  });
  await apiSend(api, 'POST', `/api/schedules/${schedule.id}/roster`, { studentIds: [student.id] });
  await apiSend(api, 'POST', '/api/attendance', {
    scheduleId: schedule.id,
    studentId: student.id,
    sessionDate: lda,
    status: 'present',
    overrideReason: 'Paper sign-in sheet',
  });
  adminState = await signInOnce(browser, server.baseUrl, admin);
});

afterAll(() => closeAll(api, browser, server));

describe('compliance', () => {
  it('goes from the dashboard card to the watch and records a withdrawal with its refund inputs', async () => {
    const { context, page, errors } = await openSignedIn(browser, server.baseUrl, adminState);
    try {
      await page.goto('/');
      const card = page.getByRole('region', { name: 'Compliance' });
      const overdue = card.getByRole('link', { name: /Withdrawals overdue/ });
      await visible(overdue.getByText('1', { exact: true }));
      await overdue.click();
      await page.waitForURL((u) => u.pathname === '/compliance');
      await visible(page.getByRole('heading', { level: 1, name: 'Compliance' }));
      const row = page.getByRole('row', { name: /Hopper, Grace/ });
      await visible(row.getByText('Overdue'));
      await visible(row.getByRole('cell', { name: '15', exact: true }));
      expect(await seriousViolations(page)).toEqual([]);
      await screenshot(page, 'compliance-watch');

      await row.getByRole('button', { name: 'Record withdrawal of Grace Hopper' }).click();
      const dialog = page.getByRole('dialog', { name: 'Record withdrawal' });
      await visible(dialog);
      expect(await dialog.getByLabel('Withdrawal date').inputValue()).toBe(lda);
      await dialog.getByRole('button', { name: 'Record withdrawal' }).click();
      await visible(dialog.getByText('reason is required', { exact: false }));
      await dialog.getByLabel('Reason').fill('No contact after three calls and a letter');
      await dialog.getByRole('button', { name: 'Record withdrawal' }).click();
      const done = page.getByRole('dialog', { name: 'Withdrawal recorded' });
      await visible(done);
      const inputs = done.getByRole('list', { name: 'Refund inputs' }).or(done.locator('dl[aria-label="Refund inputs"]'));
      await visible(inputs.getByText('Payment period'));
      await visible(inputs.getByText('Scheduled hours in the period to the withdrawal'));
      expect(await seriousViolations(page)).toEqual([]);
      await done.getByRole('button', { name: 'Done' }).click();
      await hidden(done);
      await hidden(page.getByRole('row', { name: /Hopper, Grace/ }));
      expect(((await (await api.get(`/api/students/${student.id}`)).json()) as Student).status).toBe('withdrawn');

      // The other tabs open and are labelled.
      await page.getByRole('tab', { name: /Monthly report/ }).click();
      await visible(page.getByRole('button', { name: 'Download PDF' }));
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('fits a phone without sideways scrolling', async () => {
    const { context, page, errors } = await openSignedIn(browser, server.baseUrl, adminState, { viewport: { width: 390, height: 844 } });
    try {
      await page.goto('/compliance');
      await visible(page.getByRole('heading', { level: 1, name: 'Compliance' }));
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
