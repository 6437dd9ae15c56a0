import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, type Config } from '../server/config.ts';
import { systemClock } from '../server/lib/clock.ts';
import { createMessageSenders, deliverDueMessages } from '../server/modules/outbox/service.ts';
import { hoursLinkRequestsSettled } from '../server/modules/student-hours/service.ts';
import { startTestSmtpServer } from '../server/test/mail-server.ts';
import { freeLoopbackPort } from '../server/test/oidc-provider.ts';
import {
  launchBrowser,
  newPhonePage,
  screenshot,
  seedClassNow,
  seriousViolations,
  signedInApi,
  startServer,
  usingPage,
  visible,
  type E2eServer,
  type SeededClass,
} from './support.ts';

/**
 * Decision 022, "Students see their own hours": a student checks in on their phone, asks from the
 * success screen for their hours, receives the e-mail (a real SMTP server on loopback), and opens
 * the read-only page in English, then in Spanish, with and without JavaScript. /my-hours asks the
 * same way in Spanish, for a browser that prefers it.
 */

let browser: Browser;
let server: E2eServer;
let smtp: Awaited<ReturnType<typeof startTestSmtpServer>>;
let config: Config;
let cls: SeededClass;

beforeAll(async () => {
  smtp = await startTestSmtpServer();
  const port = await freeLoopbackPort();
  config = { ...loadConfig({ NODE_ENV: 'test' }), smtp: { url: smtp.url, from: 'Muster <muster@school.test>' }, publicUrl: `http://127.0.0.1:${port}` };
  [browser, server] = await Promise.all([launchBrowser(), startServer({ port, config })]);
  const instructor = await server.createUser('instructor');
  cls = await seedClassNow(server.db, instructor.email, [
    { sisStudentId: 'STU-2001', firstName: 'Rosa', lastName: 'Luna', email: 'rosa.luna@student.example' },
  ]);
  const api = await signedInApi(server.baseUrl, instructor);
  const started = (await (await api.post('/api/qr-sessions', { data: { scheduleId: cls.scheduleId } })).json()) as { sessionId: string };
  const image = (await (await api.get(`/api/qr-sessions/${started.sessionId}/qr-image`)).json()) as { attendanceUrl: string };
  scanUrl = image.attendanceUrl;
  await api.dispose();
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
  await smtp?.close();
});

let scanUrl: string;

/** Sends what the outbox holds (the job's work) and returns the link in the newest e-mail. */
async function linkFromLatestMail(): Promise<string> {
  // The request is answered first; its lookup and queueing run just after (student-hours/service.ts).
  await hoursLinkRequestsSettled();
  await deliverDueMessages(server.db, createMessageSenders(config), systemClock);
  const raw = smtp.received
    .at(-1)!
    .raw.replace(/=\r?\n/g, '')
    .replace(/=3D/g, '=');
  const link = /http:\/\/127\.0\.0\.1:\d+\/my-hours\/[A-Za-z0-9_-]{43}(\?lang=es)?/.exec(raw)?.[0];
  expect(link, 'a link in the e-mail').toBeTruthy();
  return link!;
}

describe('a student’s own hours', () => {
  it('are asked for on the scan page’s success screen and open from the e-mailed link, in English and Spanish', async () => {
    await usingPage(newPhonePage(browser, server.baseUrl), async ({ page, errors }) => {
      await page.goto(scanUrl);
      await page.getByLabel('Student ID').fill('STU-2001');
      await page.getByLabel('First Name').fill('Rosa');
      await page.getByLabel('Last Name').fill('Luna');
      await page.getByLabel('Email').fill('rosa.luna@student.example');
      await page.getByRole('button', { name: 'Mark My Attendance' }).click();
      await visible(page.getByRole('heading', { level: 1, name: 'Attendance Marked!' }));
      await page.getByRole('button', { name: 'E-mail me my hours' }).click();
      await visible(page.getByRole('status').filter({ hasText: 'we have sent a link to see your hours' }));
      await screenshot(page, 'scan-success-email-hours');
      expect(await seriousViolations(page)).toEqual([]);

      const link = await linkFromLatestMail();
      expect(smtp.received.at(-1)!.to).toEqual(['rosa.luna@student.example']);
      await page.goto(link);
      await visible(page.getByRole('heading', { level: 1, name: 'My hours' }));
      await visible(page.getByText('Hours of Rosa Luna'));
      await visible(page.getByRole('heading', { name: 'Current payment period' }));
      await visible(page.getByRole('heading', { name: 'The last 30 days' }));
      expect(await page.getByRole('textbox').count()).toBe(0); // read only
      await screenshot(page, 'my-hours-en');
      expect(await seriousViolations(page)).toEqual([]);

      await page.getByRole('link', { name: 'Español' }).click();
      await visible(page.getByRole('heading', { level: 1, name: 'Mis horas' }));
      await visible(page.getByText('Horas de Rosa Luna'));
      expect(await page.evaluate(() => document.documentElement.lang)).toBe('es');
      await screenshot(page, 'my-hours-es');
      expect(await seriousViolations(page)).toEqual([]);

      // The form page, and a wrong answer on it, pass axe too (axe needs script: checked here).
      await page.goto('/my-hours');
      await page.getByRole('button', { name: /Send me the link|Enviarme el enlace/ }).click(); // the browser's own check stops it
      await page.getByLabel(/Student ID|Número de estudiante/).fill('STU-2001');
      await page.getByLabel(/E-mail address|Correo electrónico/).fill('rosa.luna@student.example');
      await screenshot(page, 'my-hours-form');
      expect(await seriousViolations(page)).toEqual([]);
      expect(errors).toEqual([]);
    });
  });

  it('can be asked for at /my-hours in Spanish and read with JavaScript turned off (axe needs script: the same pages are checked above)', async () => {
    const context = await browser.newContext({ baseURL: server.baseUrl, locale: 'es-MX', javaScriptEnabled: false, viewport: { width: 390, height: 844 } });
    try {
      const page = await context.newPage();
      await page.goto('/my-hours');
      await visible(page.getByRole('heading', { level: 1, name: 'Enviarme mis horas por correo' }));
      await page.getByLabel('Número de estudiante').fill('stu-2001');
      await page.getByLabel('Correo electrónico').fill('ROSA.LUNA@student.example');
      await page.getByRole('button', { name: 'Enviarme el enlace' }).click();
      await visible(page.getByRole('heading', { level: 1, name: 'Revisa tu correo' }));
      const link = await linkFromLatestMail();
      expect(link).toMatch(/\?lang=es$/);
      await page.goto(link);
      await visible(page.getByRole('heading', { level: 1, name: 'Mis horas' }));
      await visible(page.getByRole('heading', { name: 'Período de pago actual' }));
    } finally {
      await context.close();
    }
  });
});
