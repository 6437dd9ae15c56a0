import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { newPage, screenshot, seedClassNow, seriousViolations, signedInApi, signIn, useBrowserAndServer, visible, hidden, apiSend } from './support.ts';

// A session lasts its class, and the projector warns before it closes and offers Extend
// (docs/decisions/042). The e2e server runs on the real clock, so the closing session is a
// short one: an off-schedule session (the class's other weekday) with qrCodeExpirationMinutes = 3,
// inside the five-minute warning from the start.

const env = useBrowserAndServer();

const toastWith = (page: Page, title: string) => page.getByRole('region', { name: /Notification/ }).getByText(title, { exact: true });
const timerMinutes = async (page: Page) => Number(((await page.getByRole('timer').first().textContent()) ?? '').split(':')[0]);
type Session = { sessionId: string; expiresAt: string; warning: string | null; closed: string | null };

describe('a session that lasts its class', () => {
  it('runs to the end of class; before an off-schedule session closes the projector warns, Extend keeps it open, End Session says ended', async () => {
    const { browser, server } = env;
    const admin = await server.createUser('super_admin');
    const api = await signedInApi(server.baseUrl, admin);
    await apiSend(api, 'PUT', '/api/settings', { attendance: { qrCodeExpirationMinutes: 3 } });
    await api.dispose();
    const instructor = await server.createUser('instructor', { firstName: 'Rosa', lastName: 'Closing' });
    const cls = await seedClassNow(server.db, instructor.email, [
      { sisStudentId: 'STU-3001', firstName: 'Ana', lastName: 'Ruiz', email: 'ana.ruiz@student.example' },
    ]);
    const { context, page, errors } = await newPage(browser, server.baseUrl, { width: 1280, height: 720 });
    try {
      await signIn(page, instructor);

      // During class: the session lasts to the end of class plus 15 minutes (2 h class begun 5 min ago), no warning.
      const inClass = (await (await page.request.post('/api/qr-sessions', { data: { scheduleId: cls.scheduleId } })).json()) as Session;
      expect(inClass.warning).toBeNull();
      await page.goto(`/attendance/present?session=${inClass.sessionId}`);
      await visible(page.getByRole('heading', { level: 1, name: cls.courseName }));
      await page.waitForFunction(() => /^\d{3}:\d{2}$/.test(document.querySelector('[role="timer"]')?.textContent ?? ''));
      expect(await timerMinutes(page)).toBeGreaterThanOrEqual(129);
      expect(await page.getByRole('alert').filter({ hasText: 'close at' }).count()).toBe(0);
      expect(await page.getByRole('button', { name: 'Extend 15 minutes' }).count()).toBe(0);

      // Off schedule (the class's other weekday): qrCodeExpirationMinutes, 3 here.
      const started = await page.request.post('/api/qr-sessions', { data: { scheduleId: cls.otherScheduleId } });
      expect(started.status()).toBe(201);
      const off = (await started.json()) as Session;
      expect(off.warning).toMatch(/meets on \w+days; today is \w+day\./);
      expect(Date.parse(off.expiresAt) - Date.now()).toBeLessThanOrEqual(3 * 60_000);

      // The session panel of Take Attendance warns and offers Extend too.
      await page.goto(`/attendance?schedule=${cls.otherScheduleId}`);
      await visible(page.getByRole('alert').getByText(/^This session closes at .+: students can check in and out until then\.$/));
      await visible(page.getByRole('button', { name: 'Extend 15 minutes' }));
      expect(await seriousViolations(page)).toEqual([]);
      await screenshot(page, 'session-closing-panel');

      // The projector: the room is told when check-in and check-out close, in English and Spanish.
      await page.getByRole('link', { name: 'Projector view' }).click();
      await page.waitForURL((u) => u.pathname === '/attendance/present' && u.searchParams.get('session') === off.sessionId);
      const warning = page.getByRole('alert').filter({ hasText: 'Check-in and check-out close at' });
      await visible(warning);
      await visible(warning.locator('[lang="es"]').getByText(/^El registro de entrada y salida cierra a las .+\.$/));
      const extend = page.getByRole('button', { name: 'Extend 15 minutes' });
      await visible(extend);
      expect(await timerMinutes(page)).toBeLessThan(3);
      // Everything still on one screen with the warning, at 720p and 1080p.
      for (const viewport of [
        { width: 1280, height: 720 },
        { width: 1920, height: 1080 },
      ]) {
        await page.setViewportSize(viewport);
        await screenshot(page, `projector-closing-${viewport.height}p`);
        const size = await page.evaluate(() => {
          const layer = document.querySelector('h1')!.closest('.fixed')!;
          return { scrollHeight: layer.scrollHeight, clientHeight: layer.clientHeight, scrollWidth: layer.scrollWidth, clientWidth: layer.clientWidth };
        });
        expect(size.scrollHeight, `${viewport.height}p height`).toBeLessThanOrEqual(size.clientHeight);
        expect(size.scrollWidth, `${viewport.height}p width`).toBeLessThanOrEqual(size.clientWidth);
      }
      expect(await seriousViolations(page)).toEqual([]);

      // Extend: 15 minutes more, the warning and the button go.
      await extend.click();
      await visible(toastWith(page, 'Session Extended'));
      await hidden(warning);
      await hidden(extend);
      expect(await timerMinutes(page)).toBeGreaterThanOrEqual(15);
      const after = (await (await page.request.get(`/api/qr-sessions/${off.sessionId}`)).json()) as Session;
      expect(Date.parse(after.expiresAt) - Date.parse(off.expiresAt)).toBe(15 * 60_000);
      expect(after.closed).toBeNull();

      // End Session from another screen: the projector follows and says ended, not expired.
      expect((await page.request.put(`/api/qr-sessions/${off.sessionId}/deactivate`)).status()).toBe(200);
      await visible(page.getByRole('heading', { level: 1, name: 'Session Ended' }), 40_000);
      await visible(page.getByText('The instructor ended this session', { exact: false }));
      expect(await page.getByRole('button', { name: 'Extend 15 minutes' }).count()).toBe(0);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 120_000);
});
