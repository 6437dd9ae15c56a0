import { sql } from 'drizzle-orm';
import type { APIRequestContext, Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STUDENT_TEXTS } from '../common/student-texts.ts';
import { fixedClock } from '../server/lib/clock.ts';
import { localDate, zonedInstant } from '../server/lib/school-time.ts';
import { pdfPages } from '../server/test/pdf-reader.ts';
import {
  apiSend,
  launchBrowser,
  newPage,
  newPhonePage,
  screenshot,
  seedClassNow,
  seriousViolations,
  signIn,
  signedInApi,
  startServer,
  usingPage,
  visible,
  type E2eServer,
  type SeededClass,
  type SeededStudent,
  type TestUser,
} from './support.ts';

/**
 * Decisions 050–053 end to end: an eight-hour class under Mississippi-style rules (a missed check-out earns
 * nothing until an exception is approved; 30 minutes of lunch deducted after 5 hours without a break
 * punch). Ana (JavaScript on) and Ben (JavaScript off) check in on their phones, punch Lunch out
 * and Lunch in, and both forget to check out. Ana asks for the correction from her phone; the
 * instructor approves it on the roster; the time card shows each punch and each line.
 *
 * The server runs on a clock the test moves, so the figures are exact: class start S, check-in
 * S+5, lunch S+185 to S+225, class end S+480. Ana's approved check-out at S+465 gives 180 + 240 =
 * 420 minutes (no stretch over 5 hours: nothing deducted). Ben's day earns 0 and waits as an
 * exception of 180 + 255 = 435 minutes.
 */

const en = STUDENT_TEXTS.en;
const clock = fixedClock(new Date());
let browser: Browser;
let server: E2eServer;
let instructor: TestUser;
let admin: TestUser;
let staff: APIRequestContext;
let office: APIRequestContext;
let cls: SeededClass;
let sessionId: string;
let timeZone: string;
let sessionDate: string;
let classStart: number;
const MINUTE = 60_000;
const at = (minutesAfterStart: number) => clock.set(new Date(classStart + minutesAfterStart * MINUTE));
const hhmm = (minutesAfterStart: number) =>
  new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(
    new Date(classStart + minutesAfterStart * MINUTE),
  );

beforeAll(async () => {
  [browser, server] = await Promise.all([launchBrowser(), startServer({ clock })]);
  instructor = await server.createUser('instructor', { firstName: 'Irene', lastName: 'Iverson' });
  admin = await server.createUser('it_admin', { firstName: 'Morgan', lastName: 'Admin' });
  cls = await seedClassNow(
    server.db,
    instructor.email,
    [
      { sisStudentId: 'STU-7001', firstName: 'Ana', lastName: 'Díaz', email: 'ana.diaz@student.example' },
      { sisStudentId: 'STU-7002', firstName: 'Ben', lastName: 'Okoro', email: 'ben.okoro@student.example' },
    ],
    480,
  );
  const { rows } = await server.db.execute<{ time_zone: string; start_time: string }>(
    sql`select (select time_zone from school_settings) as time_zone, start_time::text from schedules where id = ${cls.scheduleId}`,
  );
  timeZone = rows[0]!.time_zone;
  sessionDate = localDate(clock.now(), timeZone);
  const [h, m] = rows[0]!.start_time.split(':').map(Number);
  classStart = zonedInstant(sessionDate, h! * 60 + m!, timeZone).getTime();
  at(5);
  // The test moves the clock by hours: sign-ins must outlast it.
  const owner = await signedInApi(server.baseUrl, await server.createUser('super_admin'));
  await apiSend(owner, 'PUT', '/api/settings', { security: { sessionTimeoutMinutes: 1440, sessionLifetimeHours: 168 } });
  await owner.dispose();
  office = await signedInApi(server.baseUrl, admin);
  await apiSend(office, 'PUT', `/api/programs/${cls.programId}/time-clock`, {
    missingCheckOut: 'no_credit',
    mealDeduction: { afterMinutes: 300, minutes: 30 },
    effectiveFrom: sessionDate,
  });
  staff = await signedInApi(server.baseUrl, instructor);
  sessionId = (await apiSend<{ sessionId: string }>(staff, 'POST', '/api/qr-sessions', { scheduleId: cls.scheduleId })).sessionId;
});
afterAll(async () => {
  await staff?.dispose();
  await office?.dispose();
  await browser?.close();
  await server?.close();
});

/** The scan URL the classroom screen shows now (a fresh token). */
const scanUrl = async () => ((await (await staff.get(`/api/qr-sessions/${sessionId}/qr-image`)).json()) as { attendanceUrl: string }).attendanceUrl;

async function checkIn(p: Page, s: SeededStudent) {
  await p.goto(await scanUrl());
  await p.getByLabel(en.studentIdLabel).fill(s.sisStudentId);
  await p.getByLabel(en.firstNameLabel, { exact: true }).fill(s.firstName);
  await p.getByLabel(en.lastNameLabel, { exact: true }).fill(s.lastName);
  await p.getByLabel(en.scanEmailLabel, { exact: true }).fill(s.email);
  await p.getByRole('button', { name: en.markMyAttendance }).click();
  await visible(p.getByRole('heading', { level: 1, name: en.attendanceMarked }));
}

/** Lunch out at S+185 and in at S+225, each from the class's code as the screen shows it then. */
async function takeLunch(p: Page) {
  at(185);
  await p.goto(await scanUrl());
  await p.getByRole('button', { name: en.lunchOut }).click();
  await visible(p.getByText(en.outForLunchSince.replace('{{time}}', '').trim().slice(0, 20)).first());
  expect(await p.getByRole('button', { name: en.lunchIn }).count()).toBe(1);
  at(225);
  await p.goto(await scanUrl());
  await p.getByRole('button', { name: en.lunchIn }).click();
  await visible(p.getByText(en.punchesTitle));
}

describe('time-clock rules, from the phone to the time card', () => {
  it('punches lunch with and without JavaScript, files a missed check-out, and the approved minutes reach the time card', async () => {
    const [ana, ben] = cls.students as [SeededStudent, SeededStudent];
    const anaPhone = await newPhonePage(browser, server.baseUrl);
    const benPhone = await newPhonePage(browser, server.baseUrl, { javaScriptEnabled: false });
    try {
      await checkIn(anaPhone.page, ana);
      await checkIn(benPhone.page, ben);
      await takeLunch(anaPhone.page);
      await takeLunch(benPhone.page);
      expect(await seriousViolations(anaPhone.page)).toEqual([]);
      await screenshot(anaPhone.page, 'journey-lunch-punched');

      // Both forget to check out. After class, Ana asks from the phone she checked in with.
      at(480 + 30);
      const p = anaPhone.page;
      await p.goto('/attendance/missed-punch');
      await visible(p.getByRole('heading', { level: 1, name: 'Forgot to check in or out?' }));
      await p.getByLabel('Time you left').fill(hhmm(465));
      await p.getByLabel('Why is it missing?').fill('My battery died as I left');
      await p.getByRole('button', { name: 'Ask for the correction' }).click();
      await visible(p.getByText('Your request was sent. Your instructor will approve or decline it.'));
      expect(anaPhone.errors).toEqual([]);
      expect(benPhone.errors).toEqual([]);
    } finally {
      await anaPhone.context.close();
      await benPhone.context.close();
    }

    // The instructor approves it on the roster of that meeting, which shows each punch.
    await usingPage(newPage(browser, server.baseUrl), async ({ page, errors }) => {
      await signIn(page, instructor);
      await page.goto(`/attendance?schedule=${cls.scheduleId}&date=${sessionDate}`);
      await visible(page.getByRole('list', { name: `Breaks of ${ana.firstName} ${ana.lastName}` }).getByText(/^Lunch \d/));
      await page.getByRole('button', { name: `Approve the missed punch of ${ana.firstName} ${ana.lastName}` }).click();
      const dialog = page.getByRole('dialog', { name: 'Approve missed punch' });
      await dialog.getByLabel('Reason for approving').fill('Seen leaving at the end of clinic');
      await dialog.getByRole('button', { name: 'Approve', exact: true }).click();
      await visible(page.getByText('Missed punch approved').first());
      expect(await seriousViolations(page)).toEqual([]);
      expect(errors).toEqual([]);
    });

    // The ledger: Ana 420 of 480 with nothing deducted; Ben 0, and 435 waiting as an exception.
    const day = async (s: SeededStudent) => {
      const res = await office.get(`/api/students/${s.id}/hours?asOf=${sessionDate}&from=${sessionDate}&to=${sessionDate}`);
      return ((await res.json()) as { days: Record<string, unknown>[] }).days.find((d) => d.date === sessionDate)!;
    };
    expect(await day(ana)).toMatchObject({ scheduledMinutes: 480, rawMinutes: 420, deductedMinutes: 0, attendedMinutes: 420, pendingExceptionMinutes: 0 });
    expect(await day(ben)).toMatchObject({ scheduledMinutes: 480, attendedMinutes: 0, pendingExceptionMinutes: 435 });

    // The printed card gives each punch pair, and Ben's line waiting for an exception.
    const card = async (s: SeededStudent) =>
      pdfPages(await (await office.get(`/api/students/${s.id}/time-card.pdf?from=${sessionDate}&to=${sessionDate}`)).body())
        .flat()
        .join('\n');
    expect(await card(ana)).toContain(`${hhmm(5)}–${hhmm(185)}, ${hhmm(225)}–${hhmm(465)}`);
    expect(await card(ben)).toContain(`${hhmm(5)}–${hhmm(185)}, ${hhmm(225)}–no out`);

    // On screen, Ben's time card lists the day with its pending exception.
    await usingPage(newPage(browser, server.baseUrl), async ({ page, errors }) => {
      await signIn(page, admin);
      await page.goto(`/students/${ben.id}`);
      const card = page.getByRole('region', { name: 'Time card' });
      await card.getByLabel('From', { exact: true }).fill(sessionDate);
      await card.getByLabel('To', { exact: true }).fill(sessionDate);
      const lines = card.getByRole('table', { name: 'Time-clock lines' });
      await visible(lines);
      await visible(lines.getByText('7:15'));
      await screenshot(page, 'journey-time-card');
      expect(await seriousViolations(page)).toEqual([]);
      expect(errors).toEqual([]);
    });
  });
});
