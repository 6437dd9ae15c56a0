import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSetupCodeIfNeeded } from '../server/modules/auth/service.ts';
import { launchBrowser, newPage, screenshot, seriousViolations, startServer, visible, type E2eServer } from './support.ts';

/**
 * Decision 045: the school's name is printed on time cards, the monthly report and e-mails to
 * students. Setup asks for it; Getting started asks again when a school was set up without it.
 */

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const step = (page: Page, title: string) => page.getByRole('region', { name: 'Getting started' }).getByRole('listitem').filter({ hasText: title });

describe('the school name', () => {
  it('is asked for on the setup page, and Getting started counts it done', async () => {
    const fresh = await startServer();
    const { context, page, errors } = await newPage(browser, fresh.baseUrl, { width: 1366, height: 900 });
    try {
      const setupCode = await createSetupCodeIfNeeded(fresh.db);
      await page.goto('/setup');
      await visible(page.getByRole('heading', { level: 1, name: 'Create the first Super Administrator' }), 30_000);
      await page.getByLabel('Setup code').fill(setupCode!);
      await page.getByLabel('First name').fill('Morgan');
      await page.getByLabel('Last name').fill('Reyes');
      await page.getByLabel('E-mail').fill('morgan.reyes@school.example');
      await page.getByLabel('Password').fill('a long enough password');
      await visible(page.getByText('Printed on time cards, the monthly hours report and e-mails to students.', { exact: false }));
      await page.getByRole('button', { name: 'Create account' }).click();
      // Nothing is sent without the name; the field says why and takes the focus.
      await visible(page.getByText('School name is required'));
      const name = page.getByLabel('School name');
      expect(await name.getAttribute('aria-invalid')).toBe('true');
      expect(await name.evaluate((el) => el === document.activeElement)).toBe(true);
      expect(await seriousViolations(page)).toEqual([]);
      await screenshot(page, 'setup-school-name-1366');

      await name.fill('Lakeside Career College');
      await page.getByRole('button', { name: 'Create account' }).click();
      await page.waitForURL((url) => url.pathname === '/');
      const named = step(page, 'Name your school');
      await visible(named, 30_000);
      expect(await named.textContent()).toContain('(done)');
      await page.goto('/settings?tab=system');
      expect(await (await visible(page.getByLabel('School name'), 30_000)).inputValue()).toBe('Lakeside Career College');
      expect(errors).toEqual([]);
    } finally {
      await context.close();
      await fresh.close();
    }
  });

  it('fits a phone on the setup page', async () => {
    const fresh = await startServer();
    const { context, page } = await newPage(browser, fresh.baseUrl, { width: 390, height: 844 });
    try {
      await page.goto('/setup');
      await visible(page.getByLabel('School name'), 30_000);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      expect(await seriousViolations(page)).toEqual([]);
      await screenshot(page, 'setup-school-name-390');
    } finally {
      await context.close();
      await fresh.close();
    }
  });

  it('is a Getting started step, linked to Settings › System, while it is not set', async () => {
    const server: E2eServer = await startServer();
    const { context, page, errors } = await newPage(browser, server.baseUrl, { width: 1366, height: 900 });
    try {
      // Set up by a script (user:create), which does not ask for the name.
      const admin = await server.createUser('super_admin');
      // Signed in through the API (the sign-in page has its own tests), then the dashboard.
      expect((await context.request.post('/api/auth/login', { data: { email: admin.email, password: admin.password } })).status()).toBe(200);
      await page.goto('/');
      // The first dashboard of a new server may take a while on a busy machine.
      await visible(page.getByRole('heading', { level: 1, name: 'System Dashboard' }), 30_000);
      const todo = step(page, 'Name your school');
      await visible(todo);
      expect(await todo.textContent()).toContain('(to do)');
      expect(await seriousViolations(page)).toEqual([]);
      await screenshot(page, 'getting-started-school-name-1366');
      await page.setViewportSize({ width: 390, height: 844 });
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      expect(await seriousViolations(page)).toEqual([]);
      await screenshot(page, 'getting-started-school-name-390');
      await page.setViewportSize({ width: 1366, height: 900 });

      await todo.getByRole('link', { name: 'Settings › System' }).click();
      await page.waitForURL((url) => url.pathname === '/settings' && url.searchParams.get('tab') === 'system');
      await (await visible(page.getByLabel('School name'), 30_000)).fill('Lakeside Career College');
      await page.getByRole('button', { name: 'Save Settings' }).click();
      await visible(page.getByText('Settings Saved', { exact: false }).first());

      await page.goto('/');
      await visible(page.getByRole('heading', { level: 1, name: 'System Dashboard' }), 30_000);
      const done = step(page, 'Name your school');
      await visible(done);
      expect(await done.textContent()).toContain('(done)');
      expect(errors).toEqual([]);
    } finally {
      await context.close();
      await server.close();
    }
  }, 180_000); // two widths with axe, a save and a second dashboard: more than the default on a busy machine
});
