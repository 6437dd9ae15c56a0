import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hidden, launchBrowser, seriousViolations, signIn, startServer, visible, withNewPage, type E2eServer, type TestUser } from './support.ts';

/** A super_admin announces maintenance in Settings › System; an instructor sees the banner and dismisses it. */

let browser: Browser;
let server: E2eServer;
let superAdmin: TestUser;
let instructor: TestUser;

beforeAll(async () => {
  [browser, server] = await Promise.all([launchBrowser(), startServer()]);
  superAdmin = await server.createUser('super_admin');
  instructor = await server.createUser('instructor', { firstName: 'Casey', lastName: 'Nguyen' });
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** A datetime-local value this many hours from now (the browser's time). */
function localInput(hoursFromNow: number): string {
  const d = new Date(Date.now() + hoursFromNow * 3_600_000);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

describe('maintenance notices', () => {
  it('are posted in Settings › System and shown to staff until dismissed', async () => {
    await withNewPage(browser, server.baseUrl, async ({ page, errors }) => {
      await signIn(page, superAdmin);
      await page.goto('/settings?tab=system');
      await page.getByRole('tab', { name: 'System' }).click();
      const form = page.getByRole('form', { name: 'Post a maintenance notice' });
      await visible(form);
      await form.getByRole('button', { name: 'Post notice' }).click();
      await visible(form.getByText('message is required'));
      await form.getByLabel('Message').fill('Muster is upgraded on Saturday night; sign-in is unavailable for two hours.');
      await form.getByLabel('Starts (your time)').fill(localInput(24));
      await form.getByLabel('Ends (your time)').fill(localInput(26));
      await form.getByRole('button', { name: 'Post notice' }).click();
      await visible(page.getByText('Shown to staff as a banner.'));
      expect(await seriousViolations(page)).toEqual([]);
      expect(errors).toEqual([]);
    });
    await withNewPage(browser, server.baseUrl, async ({ page }) => {
      await page.goto('/login');
      await page.getByLabel('E-mail').fill(instructor.email);
      await page.getByLabel('Password').fill(instructor.password);
      await page.getByRole('button', { name: 'Sign In' }).click();
      const banner = page.getByRole('status').filter({ hasText: 'Scheduled maintenance' });
      await visible(banner);
      await visible(banner.getByText(/sign-in is unavailable for two hours/));
      expect(await seriousViolations(page)).toEqual([]);
      await banner.getByRole('button', { name: 'Dismiss this maintenance notice' }).click();
      await hidden(banner);
      await page.reload();
      await visible(page.getByRole('heading', { level: 1 }));
      expect(await page.getByText('Scheduled maintenance').count()).toBe(0);
    });
  });
});
