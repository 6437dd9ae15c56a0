import type { APIRequestContext, Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCAN_NO_MATCH } from '../common/attendance.ts';
import { STUDENT_TEXTS } from '../common/student-texts.ts';
import {
  closeAll,
  launchBrowser,
  newPhonePage,
  scanUrlNow,
  screenshot,
  seedClassInSession,
  seriousViolations,
  startServer,
  visible,
  watchedPage,
  type E2eServer,
  type SeededClass,
} from './support.ts';

/**
 * Decision 028: the scan page a QR code opens, rendered on the server. A phone with JavaScript off
 * checks in with the plain form (and through the typed-code page); with JavaScript on, the small
 * script sends the same form to the JSON API without a reload; a phone in Spanish gets every page
 * and answer in Spanish, with a switch back to English.
 */

let browser: Browser;
let server: E2eServer;
let staff: APIRequestContext;
let cls: SeededClass;
let sessionId: string;

beforeAll(async () => {
  [browser, server] = await Promise.all([launchBrowser(), startServer()]);
  ({ cls, staff, sessionId } = await seedClassInSession(server, await server.createUser('instructor'), [
    { sisStudentId: 'STU-3001', firstName: 'Ana', lastName: 'Díaz', email: 'ana.diaz@student.example' },
    { sisStudentId: 'STU-3002', firstName: 'Ben', lastName: 'Okoro', email: 'ben.okoro@student.example' },
    { sisStudentId: 'STU-3003', firstName: 'Carla', lastName: 'Ruiz', email: 'carla.ruiz@student.example' },
    { sisStudentId: 'STU-3004', firstName: 'Dev', lastName: 'Shah', email: 'dev.shah@student.example' },
    { sisStudentId: 'STU-3005', firstName: 'Eli', lastName: 'Moreau', email: 'eli.moreau@student.example' },
  ]));
});
afterAll(() => closeAll(staff, browser, server));

const scanUrl = () => scanUrlNow(staff, sessionId);
const screenCode = async () => ((await (await staff.get(`/api/qr-sessions/${sessionId}/qr-image`)).json()) as { shortCode: string }).shortCode;
const statusOf = async (sis: string) => {
  const rows = (await (await staff.get(`/api/attendance/schedule/${cls.scheduleId}`)).json()) as {
    sisStudentId?: string;
    studentId: number;
    status: string | null;
  }[];
  const student = cls.students.find((s) => s.sisStudentId === sis)!;
  return rows.find((r) => r.studentId === student.id)?.status ?? null;
};

async function fillDetails(page: Page, s: { sisStudentId: string; firstName: string; lastName: string; email: string }, labels = STUDENT_TEXTS.en) {
  await page.getByLabel(labels.studentIdLabel).fill(s.sisStudentId);
  await page.getByLabel(labels.firstNameLabel, { exact: true }).fill(s.firstName);
  await page.getByLabel(labels.lastNameLabel, { exact: true }).fill(s.lastName);
  await page.getByLabel(labels.scanEmailLabel, { exact: true }).fill(s.email);
}

describe('the scan page', () => {
  it('checks in with JavaScript turned off: the form posts, the server answers with pages', async () => {
    const context = await browser.newContext({
      baseURL: server.baseUrl,
      javaScriptEnabled: false,
      viewport: { width: 390, height: 844 },
      isMobile: true,
      hasTouch: true,
    });
    try {
      const page = await context.newPage();
      await page.goto(await scanUrl());
      // The first answer is the whole page: course, room, date, start, time left and the form.
      await visible(page.getByRole('heading', { level: 1, name: cls.courseName }));
      await visible(page.getByText(cls.courseCode, { exact: true }));
      await visible(page.getByText(cls.roomNumber));
      // mm:ss, minutes past 99 for a session that lasts the class (docs/decisions/042).
      expect(await page.locator('[role="timer"]').textContent()).toMatch(/^\d{2,3}:\d{2}$/);
      expect(await page.getByLabel('Code on the classroom screen').count()).toBe(0);
      const submit = page.getByRole('button', { name: 'Mark My Attendance' });
      expect(await submit.isDisabled()).toBe(false);

      // A wrong name: the server's message, in the alert beside the button, the details kept.
      const ana = cls.students[0]!;
      await fillDetails(page, { ...ana, lastName: 'Nadie', email: 'nadie@else.example' });
      await submit.click();
      await visible(page.getByRole('alert').getByText(SCAN_NO_MATCH));
      expect(await page.getByLabel('Last Name').inputValue()).toBe('Nadie');

      await page.getByLabel('Last Name').fill(ana.lastName);
      await page.getByLabel('Email').fill(ana.email);
      await page.getByRole('button', { name: 'Mark My Attendance' }).click();
      await visible(page.getByRole('heading', { level: 1, name: 'Attendance Marked!' }));
      await visible(page.getByText(/Checked in at \d{1,2}:\d{2}/));
      await visible(page.getByText('You can close this page now.'));
      expect(await page.title()).toBe('Attendance Marked! · Muster');
      await screenshot(page, 'scan-no-js-success');
      expect(await statusOf(ana.sisStudentId)).toMatch(/^(present|late)$/);

      // A phone that cannot scan types the code at /attendance/scan: the class's form opens with a pass.
      const typed = await browser.newContext({ baseURL: server.baseUrl, javaScriptEnabled: false, viewport: { width: 390, height: 844 } });
      try {
        const p = await typed.newPage();
        await p.goto('/attendance/scan');
        await visible(p.getByRole('heading', { level: 1, name: 'Enter the class code' }));
        await p.getByLabel('Class code').fill(await screenCode());
        await p.getByRole('button', { name: 'Continue' }).click();
        await visible(p.getByRole('heading', { level: 1, name: cls.courseName }));
        expect(await p.getByLabel('Code on the classroom screen').count()).toBe(0);
        await fillDetails(p, cls.students[1]!);
        await p.getByRole('button', { name: 'Mark My Attendance' }).click();
        await visible(p.getByRole('heading', { level: 1, name: 'Attendance Marked!' }));
        expect(await statusOf(cls.students[1]!.sisStudentId)).toMatch(/^(present|late)$/);
      } finally {
        await typed.close();
      }
    } finally {
      await context.close();
    }
  });

  it('checks in with JavaScript on without reloading the page, and is accessible', async () => {
    const { context, page, errors } = await newPhonePage(browser, server.baseUrl);
    try {
      const documents: string[] = [];
      page.on('request', (req) => {
        if (req.resourceType() === 'document') documents.push(`${req.method()} ${new URL(req.url()).pathname}`);
      });
      await page.goto(await scanUrl());
      await visible(page.getByRole('heading', { level: 1, name: cls.courseName }));
      // The countdown runs.
      const timer = page.locator('[role="timer"]');
      const first = await timer.textContent();
      await page.waitForFunction((before) => document.querySelector('[role="timer"]')?.textContent !== before, first, { timeout: 3000 });
      // Instant validation: the button waits for the four fields.
      const submit = page.getByRole('button', { name: 'Mark My Attendance' });
      expect(await submit.isDisabled()).toBe(true);
      const carla = cls.students[2]!;
      await fillDetails(page, carla);
      expect(await submit.isDisabled()).toBe(false);
      await page.getByLabel('Remember me on this phone').check();
      expect(await seriousViolations(page)).toEqual([]);

      // Targets are 44 px at least; at 200% zoom (195 CSS px wide) nothing scrolls sideways.
      for (const target of [submit, page.getByLabel('Student ID'), page.getByRole('link', { name: 'Español' })]) {
        expect((await target.boundingBox())!.height).toBeGreaterThanOrEqual(44);
      }
      await page.setViewportSize({ width: 195, height: 422 });
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)).toBe(true);
      await page.setViewportSize({ width: 390, height: 844 });

      await page.evaluate(() => ((window as unknown as { stillHere: boolean }).stillHere = true));
      const [request] = await Promise.all([page.waitForRequest((r) => r.url().endsWith('/api/attendance/submit')), submit.click()]);
      expect(request.method()).toBe('POST');
      await visible(page.getByRole('heading', { level: 1, name: 'Attendance Marked!' }));
      await visible(page.getByText(/Checked in at \d{1,2}:\d{2}/));
      await visible(page.getByText('You can close this page now.'));
      // The same page: no navigation, the heading has the focus, the title says so.
      expect(await page.evaluate(() => (window as unknown as { stillHere?: boolean }).stillHere)).toBe(true);
      expect(documents).toEqual([`GET /attendance/scan/${sessionId}`]);
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Attendance Marked!');
      expect(await page.title()).toBe('Attendance Marked! · Muster');
      await visible(page.getByRole('button', { name: 'E-mail me my hours' }));
      await screenshot(page, 'scan-js-success');
      expect(await seriousViolations(page)).toEqual([]);
      expect(await statusOf(carla.sisStudentId)).toMatch(/^(present|late)$/);

      // Opened again at this meeting, this phone is Carla's: checked in, with Check out (docs/decisions/039).
      await page.goto(await scanUrl());
      await visible(page.getByRole('heading', { level: 1, name: /^You are checked in since \d{1,2}:\d{2}/ }));
      await visible(page.getByRole('button', { name: 'Check out', exact: true }));
      // "Remember me on this phone": a visit the server does not recognise (the cookie gone) is filled in.
      await context.clearCookies();
      await page.goto(await scanUrl());
      expect(await page.getByLabel('Student ID').inputValue()).toBe(carla.sisStudentId);
      expect(await page.getByLabel('Email').inputValue()).toBe(carla.email);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('speaks Spanish to a phone set to Spanish, in its pages and the API’s answers, with a switch to English', async () => {
    const es = STUDENT_TEXTS.es;
    const context = await browser.newContext({
      baseURL: server.baseUrl,
      locale: 'es-MX',
      viewport: { width: 390, height: 844 },
      isMobile: true,
      hasTouch: true,
    });
    try {
      const { page, errors } = await watchedPage(context);
      await page.goto(await scanUrl());
      expect(await page.evaluate(() => document.documentElement.lang)).toBe('es');
      await visible(page.getByRole('heading', { level: 1, name: cls.courseName }));
      await visible(page.getByText(es.timeLeft));
      expect(await page.title()).toBe(`${es.markAttendance} · Muster`);
      const dev = cls.students[3]!;
      await fillDetails(page, { ...dev, firstName: 'Otro', email: 'otro@else.example' }, es);
      // The API answers in English (SPEC §8); the page shows its Spanish.
      await page.getByRole('button', { name: es.markMyAttendance }).click();
      await visible(page.getByRole('alert').getByText(es.scanNoMatch));
      await screenshot(page, 'scan-es-error');
      expect(await seriousViolations(page)).toEqual([]);
      await page.getByLabel(es.firstNameLabel, { exact: true }).fill(dev.firstName);
      await page.getByLabel(es.scanEmailLabel, { exact: true }).fill(dev.email);
      await page.getByRole('button', { name: es.markMyAttendance }).click();
      await visible(page.getByRole('heading', { level: 1, name: es.attendanceMarked }));
      await visible(page.getByText(/Entrada registrada a las \d{1,2}:\d{2}/));
      await visible(page.getByText(es.scanCheckedIn).or(page.getByText(es.scanCheckedInLate)));
      expect(await page.title()).toBe(`${es.attendanceMarked} · Muster`);
      expect(await seriousViolations(page)).toEqual([]);

      // The switch is a link: English from here on, whatever the browser prefers. This phone checked
      // Dev in, so the page is his check-in, with Check out (docs/decisions/039).
      await page.getByRole('link', { name: 'English' }).click();
      await visible(page.getByRole('heading', { level: 1, name: /^You are checked in since \d{1,2}:\d{2}/ }));
      expect(await page.evaluate(() => document.documentElement.lang)).toBe('en');
      await visible(page.getByRole('button', { name: 'Check out', exact: true }));

      // The typed-code page in Spanish too, and its answer to a wrong code.
      await page.goto('/attendance/scan');
      await visible(page.getByRole('heading', { level: 1, name: es.enterCodeTitle }));
      const code = await screenCode();
      await page.getByLabel(es.classCodeLabel).fill(code === '000000' ? '000001' : '000000');
      await page.getByRole('button', { name: es.continue }).click();
      await visible(page.getByRole('alert').getByText(es.scanCodeNoMatch));
      await screenshot(page, 'scan-code-es');
      expect(await seriousViolations(page)).toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
  it('keeps a check-in made while the network is down on the phone, and sends it when the phone is back online', async () => {
    const { context, page, errors } = await newPhonePage(browser, server.baseUrl);
    try {
      await page.goto(await scanUrl());
      await visible(page.getByRole('heading', { level: 1, name: cls.courseName }));
      // The page's script has arrived (a student takes longer than that to type four fields).
      await page.waitForLoadState('networkidle');
      const eli = cls.students[4]!;
      await fillDetails(page, eli);
      await context.setOffline(true);
      await page.getByRole('button', { name: 'Mark My Attendance' }).click();
      await visible(page.getByText(STUDENT_TEXTS.en.savedOffline));
      expect(await page.getByRole('button', { name: STUDENT_TEXTS.en.submitting }).isDisabled()).toBe(true);
      expect(await statusOf(eli.sisStudentId)).toBeNull();
      await context.setOffline(false);
      await visible(page.getByRole('heading', { level: 1, name: 'Attendance Marked!' }), 15_000);
      expect(await statusOf(eli.sisStudentId)).toMatch(/^(present|late)$/);
      expect(errors.filter((e) => !e.includes('ERR_INTERNET_DISCONNECTED'))).toEqual([]);
    } finally {
      await context.close();
    }
  });

  // Last: it ends the session the others use.
  it('says Session Ended, without a reload, to a phone that submits after the instructor ended the session', async () => {
    const { context, page, errors } = await newPhonePage(browser, server.baseUrl);
    try {
      const documents: string[] = [];
      page.on('request', (req) => {
        if (req.resourceType() === 'document') documents.push(`${req.method()} ${new URL(req.url()).pathname}`);
      });
      await page.goto(await scanUrl());
      await visible(page.getByRole('heading', { level: 1, name: cls.courseName }));
      await page.waitForLoadState('networkidle');
      await fillDetails(page, cls.students[0]!);
      expect((await staff.put(`/api/qr-sessions/${sessionId}/deactivate`)).status()).toBe(200);
      await page.getByRole('button', { name: 'Mark My Attendance' }).click();
      // The API's 410 says SESSION_ENDED: the script shows the server's ended view (docs/decisions/042).
      await visible(page.getByRole('heading', { level: 1, name: STUDENT_TEXTS.en.sessionEnded }));
      await visible(page.getByText(STUDENT_TEXTS.en.sessionEndedText));
      expect(documents).toEqual([`GET /attendance/scan/${sessionId}`]);
      expect(errors.filter((e) => !/410/.test(e))).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
