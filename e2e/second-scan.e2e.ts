import { sql } from 'drizzle-orm';
import type { APIRequestContext, Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCAN_CHECKED_OUT_EARLY } from '../common/attendance.ts';
import { STUDENT_TEXTS } from '../common/student-texts.ts';
import {
  closeAll,
  launchBrowser,
  newPage,
  newPhonePage,
  scanUrlNow,
  screenshot,
  seedClassInSession,
  seriousViolations,
  signIn,
  startServer,
  visible,
  type E2eServer,
  type SeededClass,
  type TestUser,
} from './support.ts';

/**
 * docs/decisions/039: a checked-in student who opens the class's QR again is told
 * "You are checked in since …" and offered an explicit Check out, with what leaving now records;
 * leaving early is confirmed first. The instructor undoes the check-out on the live roster in one
 * action, and the record's history keeps the check-out.
 */

const en = STUDENT_TEXTS.en;
let browser: Browser;
let server: E2eServer;
let instructor: TestUser;
let staff: APIRequestContext;
let cls: SeededClass;
let sessionId: string;

beforeAll(async () => {
  [browser, server] = await Promise.all([launchBrowser(), startServer()]);
  instructor = await server.createUser('instructor', { firstName: 'Dana', lastName: 'Okafor' });
  // A two-hour class that started five minutes ago.
  ({ cls, staff, sessionId } = await seedClassInSession(server, instructor, [
    { sisStudentId: 'STU-5001', firstName: 'Ana', lastName: 'Díaz', email: 'ana.diaz@student.example' },
  ]));
});
afterAll(() => closeAll(staff, browser, server));

const scanUrl = () => scanUrlNow(staff, sessionId);
type Row = { id: number | null; studentId: number; status: string | null; scanOutTime: string | null };
const rowOfAna = async () =>
  ((await (await staff.get(`/api/attendance/schedule/${cls.scheduleId}`)).json()) as Row[]).find((r) => r.studentId === cls.students[0]!.id)!;
const rosterRow = (page: Page, name: string) => page.getByRole('row').filter({ has: page.getByRole('rowheader', { name, exact: true }) });

describe('a second scan', () => {
  it('tells a checked-in student so, checks out only when asked and confirmed, and the instructor undoes it in one action', async () => {
    const phone = await newPhonePage(browser, server.baseUrl);
    const desk = await newPage(browser, server.baseUrl, { width: 1366, height: 900 });
    try {
      const p = phone.page;
      const ana = cls.students[0]!;
      await p.goto(await scanUrl());
      await visible(p.getByRole('heading', { level: 1, name: cls.courseName }));
      await p.getByLabel(en.studentIdLabel).fill(ana.sisStudentId);
      await p.getByLabel(en.firstNameLabel, { exact: true }).fill(ana.firstName);
      await p.getByLabel(en.lastNameLabel, { exact: true }).fill(ana.lastName);
      await p.getByLabel(en.scanEmailLabel, { exact: true }).fill(ana.email);
      await p.getByRole('button', { name: en.markMyAttendance }).click();
      await visible(p.getByRole('heading', { level: 1, name: en.attendanceMarked }));
      const checkedInAt = (await p.getByText(/Checked in at \d{1,2}:\d{2}/).textContent())!.replace('Checked in at ', '');

      // To make sure it worked, she opens the QR again: no form, no Mark My Attendance; what a Check out would do.
      await p.goto(await scanUrl());
      await visible(p.getByRole('heading', { level: 1, name: `You are checked in since ${checkedInAt}` }));
      await visible(p.getByText(/^Class ends at \d{1,2}:\d{2}\s?[AP]M; leaving now records \d+ min\.$/));
      await visible(p.getByText(en.leavingNowIncomplete));
      expect(await p.getByRole('button', { name: en.markMyAttendance }).count()).toBe(0);
      expect(await p.getByLabel(en.studentIdLabel).count()).toBe(0);
      const checkOut = p.getByRole('button', { name: en.checkOut, exact: true });
      expect((await checkOut.boundingBox())!.height).toBeGreaterThanOrEqual(44);
      expect(await p.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)).toBe(true);
      await screenshot(p, 'second-scan-checked-in');
      expect(await seriousViolations(p)).toEqual([]);
      expect((await rowOfAna()).scanOutTime).toBeNull();

      // Check out, 5 minutes into a two-hour class: asked to confirm first, nothing written yet.
      await checkOut.click();
      await visible(p.getByRole('heading', { level: 1, name: en.confirmCheckOutTitle }));
      await visible(p.getByText(/^Class ends at .+\. Leaving now records \d+ min of 2 h, and this class counts as incomplete\.$/));
      await visible(p.getByRole('link', { name: en.stayCheckedIn }));
      await screenshot(p, 'second-scan-confirm');
      expect(await seriousViolations(p)).toEqual([]);
      expect(await rowOfAna()).toMatchObject({ status: 'present', scanOutTime: null });

      await p.getByRole('button', { name: en.confirmCheckOut }).click();
      await visible(p.getByRole('heading', { level: 1, name: en.checkedOutTitle }));
      await visible(p.getByText(/^Checked out at \d{1,2}:\d{2}\s?[AP]M$/));
      await visible(p.getByText(SCAN_CHECKED_OUT_EARLY));
      expect(await p.getByText(en.attendanceMarked).count()).toBe(0);
      await screenshot(p, 'second-scan-checked-out');
      expect(await seriousViolations(p)).toEqual([]);
      expect(await rowOfAna()).toMatchObject({ status: 'incomplete' });

      // The instructor's live roster: Incomplete, and Undo check-out in one action.
      const page = desk.page;
      await signIn(page, instructor);
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Take Attendance' }).click();
      await visible(page.getByRole('heading', { level: 1, name: 'Take Attendance' }));
      await page.getByLabel('Class schedule').selectOption(String(cls.scheduleId));
      const row = rosterRow(page, 'Ana Díaz');
      await visible(row.getByText('Incomplete', { exact: true }));
      const undo = row.getByRole('button', { name: 'Undo check-out for Ana Díaz' });
      await visible(undo);
      await screenshot(page, 'second-scan-roster-incomplete');
      expect(await seriousViolations(page)).toEqual([]);
      await undo.click();
      await visible(page.getByRole('region', { name: /Notification/ }).getByText('Check-out Undone', { exact: true }));
      await visible(row.getByText('Present', { exact: true }));
      expect(await row.getByRole('button', { name: 'Undo check-out for Ana Díaz' }).count()).toBe(0);
      expect(await rowOfAna()).toMatchObject({ status: 'present', scanOutTime: null });

      // The check-out stays in the record's history.
      await row.getByRole('button', { name: "History of Ana Díaz's record" }).click();
      const dialog = page.getByRole('dialog', { name: 'Record history' });
      await visible(dialog.getByText('Undid the check-out'));
      await screenshot(page, 'second-scan-roster-undone');
      expect(await seriousViolations(page)).toEqual([]);
      const history = (await (await staff.get(`/api/attendance/${(await rowOfAna()).id}/history`)).json()) as {
        original: { status: string; scanOutTime: string | null };
      };
      expect(history.original).toMatchObject({ status: 'incomplete', scanOutTime: expect.any(String) });

      // Her phone, opened again, offers Check out again.
      await p.goto(await scanUrl());
      await visible(p.getByRole('heading', { level: 1, name: `You are checked in since ${checkedInAt}` }));

      // A phone the server does not recognise (her cookie cleared): the usual form; submitted (by the
      // script), it says she is checked in already, changes nothing, and offers Check out. (Her check-in
      // is moved 3 minutes back: within two minutes a submit is a retried tap, answered as the check-in.)
      await server.db.execute(sql`update attendance_records set scan_in_time = scan_in_time - interval '3 minutes' where student_id = ${ana.id}`);
      await phone.context.clearCookies();
      await p.goto(await scanUrl());
      await p.waitForLoadState('networkidle');
      await p.getByLabel(en.studentIdLabel).fill(ana.sisStudentId);
      await p.getByLabel(en.firstNameLabel, { exact: true }).fill(ana.firstName);
      await p.getByLabel(en.lastNameLabel, { exact: true }).fill(ana.lastName);
      await p.getByLabel(en.scanEmailLabel, { exact: true }).fill(ana.email);
      await p.getByRole('button', { name: en.markMyAttendance }).click();
      await visible(p.getByRole('heading', { level: 1, name: /^You are already checked in since \d{1,2}:\d{2}\s?[AP]M$/ }));
      await visible(p.getByText(en.scanAlreadyCheckedIn));
      await visible(p.getByRole('button', { name: en.checkOut, exact: true }));
      expect(await seriousViolations(p)).toEqual([]);
      expect(await rowOfAna()).toMatchObject({ status: 'present', scanOutTime: null });
      expect(phone.errors).toEqual([]);
      expect(desk.errors).toEqual([]);
    } finally {
      await Promise.all([phone.context.close(), desk.context.close()]);
    }
  }, 90_000);
});
