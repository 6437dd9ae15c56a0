import { sql } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { addDays } from '../common/dates.ts';
import {
  apiSend,
  hidden,
  newPage,
  newPhonePage,
  screenshot,
  seedClassNow,
  seriousViolations,
  signIn,
  signedInApi,
  useBrowserAndServer,
  visible,
  type SeededClass,
  type TestUser,
} from './support.ts';

// An instructor's day (decision 031): Today's classes where the instructor lands, a session
// started in one click, minutes so far / projected while class runs, End Session confirmed, a
// start on a day the class does not meet warned about, and a past meeting reviewed and corrected
// within the program's edit lock. E2E_SCREENSHOTS=docs/screenshots keeps the screenshots.

const env = useBrowserAndServer();
const DESKTOP = { width: 1366, height: 900 };

const toastWith = (page: Page, title: string) => page.getByRole('region', { name: /Notification/ }).getByText(title, { exact: true });
const rosterRow = (page: Page, name: string) => page.getByRole('row').filter({ has: page.getByRole('rowheader', { name, exact: true }) });

type Day = { instructor: TestUser; cls: SeededClass; today: string };

/** An instructor with a class running now (and one on another weekday), another instructor's class today, and a program edit lock of 10 days. */
async function seedDay(): Promise<Day> {
  const { server } = env;
  const instructor = await server.createUser('instructor', { firstName: 'Dana', lastName: 'Okafor' });
  const other = await server.createUser('instructor', { firstName: 'Sam', lastName: 'Reyes' });
  const admin = await server.createUser('super_admin');
  const cls = await seedClassNow(server.db, instructor.email, [
    { sisStudentId: 'STU-2001', firstName: 'Amy', lastName: 'Lee', email: 'amy.lee@student.example' },
    { sisStudentId: 'STU-2002', firstName: 'José', lastName: 'Peña', email: 'jose.pena@student.example' },
    { sisStudentId: 'STU-2003', firstName: 'Bea', lastName: 'Kim', email: 'bea.kim@student.example' },
  ]);
  await seedClassNow(server.db, other.email, [{ sisStudentId: 'STU-2999', firstName: 'Zed', lastName: 'Other', email: 'zed@student.example' }]);
  const { rows } = await server.db.execute<{ program_id: number }>(
    sql`select c.program_id from schedules s join courses c on c.id = s.course_id where s.id = ${cls.scheduleId}`,
  );
  const api = await signedInApi(server.baseUrl, admin);
  try {
    await apiSend(api, 'PUT', `/api/programs/${rows[0]!.program_id}/policy`, { programHours: 600, programWeeks: 30, attendanceEditLockDays: 10 });
    const today = ((await (await api.get('/api/schedules/today')).json()) as { date: string }).date;
    return { instructor, cls, today };
  } finally {
    await api.dispose();
  }
}

let day: Day;

describe("An instructor's day", () => {
  it("starts today's class from the dashboard in one click, follows the minutes, ends with a confirmation, and corrects a past meeting", async () => {
    day = await seedDay();
    const { cls, today } = day;
    const { page, errors, context } = await newPage(env.browser, env.server.baseUrl, DESKTOP);
    try {
      await signIn(page, day.instructor);
      const card = page.getByRole('region', { name: 'Today’s classes' });
      await visible(card.getByText(cls.courseName, { exact: true }));
      await visible(card.getByText(`Room ${cls.roomNumber}`));
      await visible(card.getByText('3 students'));
      // Only this instructor's classes: the other instructor's class of today is not listed.
      expect(await card.getByRole('listitem').count()).toBe(1);
      expect(await seriousViolations(page)).toEqual([]);

      // One click: Take Attendance opens with the class chosen and its session running.
      await card.getByRole('button', { name: `Start Session for ${cls.courseName} (${cls.courseCode})` }).click();
      await visible(toastWith(page, 'QR Session Started'));
      await visible(page.getByRole('heading', { level: 1, name: 'Take Attendance' }));
      await visible(page.getByRole('img', { name: `QR code to check in to ${cls.courseName}` }));
      expect(new URL(page.url()).searchParams.get('start')).toBeNull();
      const todayCard = page.getByRole('region', { name: 'Today’s classes' });
      await visible(todayCard.getByText('Session open'));
      await visible(todayCard.getByRole('link', { name: `Go to the session of ${cls.courseName} (${cls.courseCode})` }));

      // Amy checked in three minutes ago: her minutes so far, and projected to the end of class.
      const amy = cls.students[0]!;
      await env.server.db.execute(sql`
        insert into attendance_records (student_id, schedule_id, session_date, status, scan_in_time, source, minutes_attended, scheduled_minutes)
        values (${amy.id}, ${cls.scheduleId}, ${today}, 'present', now() - interval '3 minutes', 'qr', 117, 120)`);
      const minutes = rosterRow(page, 'Amy Lee').getByTestId('live-minutes');
      await visible(minutes, 8_000);
      expect(await minutes.textContent()).toMatch(/^[234] min so far \/ 1 h 5[5-9] min projected$/);
      await visible(page.getByRole('columnheader', { name: 'Minutes (so far / projected)' }));
      await screenshot(page, 'instructor-day');
      expect(await seriousViolations(page)).toEqual([]);

      // End Session asks first; Cancel keeps the session running.
      const endButton = page.getByRole('button', { name: 'End Session', exact: true });
      await endButton.click();
      const confirmEnd = page.getByRole('dialog', { name: 'End this session?' });
      await visible(confirmEnd.getByText(`Students can no longer check in to ${cls.courseName}`, { exact: false }));
      expect(await seriousViolations(page)).toEqual([]);
      await confirmEnd.getByRole('button', { name: 'Cancel' }).click();
      await hidden(confirmEnd);
      expect(await page.evaluate(() => document.activeElement?.textContent)).toContain('End Session');
      await endButton.click();
      await confirmEnd.getByRole('button', { name: 'End Session' }).click();
      await visible(toastWith(page, 'Session Ended'));
      await visible(page.getByRole('heading', { name: 'No Active QR Session' }));

      // The class on another weekday: starting it now is warned about, and not started unless confirmed.
      await page.getByLabel('Class schedule').selectOption(String(cls.otherScheduleId));
      await page.getByRole('button', { name: 'Start Session', exact: true }).click();
      const offDay = page.getByRole('dialog', { name: 'This class doesn’t meet now' });
      await visible(offDay.getByText(/meets on \w+days; today is \w+day\./));
      expect(await seriousViolations(page)).toEqual([]);
      await offDay.getByRole('button', { name: 'Cancel' }).click();
      await hidden(offDay);
      await visible(page.getByRole('heading', { name: 'No Active QR Session' }));

      // A week ago, same class: José was there but not recorded. Pick the date, correct his record.
      await page.getByLabel('Class schedule').selectOption(String(cls.scheduleId));
      const dateField = page.getByLabel('Meeting date');
      await dateField.fill(addDays(today, -7));
      await visible(page.getByText(/^Reviewing the meeting of /));
      expect(new URL(page.url()).searchParams.get('date')).toBe(addDays(today, -7));
      await page.getByRole('button', { name: 'Override attendance for José Peña' }).click();
      const dialog = page.getByRole('dialog', { name: 'Override Attendance' });
      await dialog.getByLabel('New status').selectOption('present');
      await dialog.getByLabel('Reason for override').fill('Signed the paper sheet; the network was down');
      await dialog.getByRole('button', { name: 'Save Override' }).click();
      await visible(toastWith(page, 'Attendance Updated'));
      await hidden(dialog);
      await visible(rosterRow(page, 'José Peña').getByText('Present', { exact: true }));

      // Two weeks ago is past the program's 10-day edit lock: the dialog says why nothing changed.
      await dateField.fill(addDays(today, -14));
      await visible(page.getByText(/^Reviewing the meeting of /));
      await page.getByRole('button', { name: 'Override attendance for Bea Kim' }).click();
      await dialog.getByLabel('New status').selectOption('present');
      await dialog.getByLabel('Reason for override').fill('Signed the paper sheet');
      await dialog.getByRole('button', { name: 'Save Override' }).click();
      await visible(dialog.getByText('This record cannot be changed'));
      await visible(dialog.getByText('Attendance older than 10 days is locked for this program; only a super admin can change it, with a reason'));
      expect(await seriousViolations(page)).toEqual([]);
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await visible(rosterRow(page, 'Bea Kim').getByText('Not checked in'));
      await page.getByRole('button', { name: 'Back to today' }).click();
      expect(new URL(page.url()).searchParams.get('date')).toBeNull();

      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 60_000);

  it("shows Today's classes on a phone, fitting the screen", async () => {
    const { page, errors, context } = await newPhonePage(env.browser, env.server.baseUrl);
    try {
      await signIn(page, day.instructor);
      const card = page.getByRole('region', { name: 'Today’s classes' });
      await visible(card.getByText(day.cls.courseName, { exact: true }));
      await visible(card.getByRole('button', { name: /^Start Session for / }));
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      expect(await seriousViolations(page)).toEqual([]);
      await screenshot(page, 'instructor-day-phone');
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 30_000);
});
