import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, reportCspViolations, seriousViolations, startServer, visible, watchedPage, type E2eServer } from './support.ts';

// login.html arrives with the sign-in page drawn (scripts/prerender-sign-in.ts): a phone on a slow
// network can type, and even sign in, before the app's script has arrived.
let browser: Browser;
let server: E2eServer;
beforeAll(async () => {
  [browser, server] = await Promise.all([launchBrowser(), startServer()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('the sign-in page before its script', () => {
  it('signs in with JavaScript switched off: the drawn form posts, and the browser lands signed in', async () => {
    const user = await server.createUser('support_staff');
    const context = await browser.newContext({ baseURL: server.baseUrl, javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto('/login');
    await page.getByLabel('E-mail').fill(user.email);
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.waitForURL((url) => url.pathname === '/login' && url.searchParams.get('signin_error') === 'INVALID_CREDENTIALS');
    await page.getByLabel('E-mail').fill(user.email);
    await page.getByLabel('Password').fill(user.password);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    const me = await context.request.get('/api/auth/user');
    expect(me.status()).toBe(200);
    expect((await me.json()).email).toBe(user.email);
    await context.close();
  });

  it('keeps what was typed while the script was still on its way, and says why a form sign-in was refused', async () => {
    const user = await server.createUser('support_staff');
    const context = await browser.newContext({ baseURL: server.baseUrl });
    await reportCspViolations(context);
    let release!: () => void;
    const scriptHeld = new Promise<void>((r) => (release = r));
    await context.route(/\/assets\/main-[^/]+\.js$/, async (route) => {
      await scriptHeld;
      await route.continue();
    });
    const { page, errors } = await watchedPage(context);
    await page.goto('/login', { waitUntil: 'commit' });
    const email = page.getByLabel('E-mail');
    await visible(email);
    expect(await page.title()).toBe('Muster');
    await email.fill(user.email);
    await page.getByLabel('Password').fill(user.password);
    release();
    // The app has drawn its own page when it names the tab.
    await page.waitForFunction(() => document.title === 'Sign In · Muster');
    expect(await page.getByLabel('E-mail').inputValue()).toBe(user.email);
    expect(await page.getByLabel('Password').inputValue()).toBe(user.password);
    await expect(page.getByLabel('Password').evaluate((el) => el === document.activeElement)).resolves.toBe(true);
    expect(await page.locator('input[value]').count()).toBe(0);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await visible(page.getByRole('heading', { level: 1 }));

    const again = await browser.newContext({ baseURL: server.baseUrl });
    const refused = await again.newPage();
    await refused.goto('/login?signin_error=RATE_LIMITED');
    await visible(refused.getByText('Too many sign-in attempts. Please wait a minute and try again.'));
    expect(await seriousViolations(refused)).toEqual([]);
    await again.close();
    expect(errors).toEqual([]);
    await context.close();
  });
});
