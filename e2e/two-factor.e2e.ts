import { generate } from 'otplib';
import type { APIRequestContext, Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiSend,
  launchBrowser,
  screenshot,
  seriousViolations,
  signedInApi,
  startServer,
  visible,
  withNewPage,
  type E2eServer,
  type TestUser,
} from './support.ts';

/**
 * Decision 018: with two-factor authentication switched on, a staff member signs in, sets up an
 * authenticator from the screen (the secret typed, as without a camera), keeps the recovery codes,
 * reaches the dashboard; then signs in again with a code, and once with a recovery code.
 */

let browser: Browser;
let server: E2eServer;
let superAdmin: TestUser;
let staff: TestUser;
let api: APIRequestContext;

beforeAll(async () => {
  [browser, server] = await Promise.all([launchBrowser(), startServer()]);
  superAdmin = await server.createUser('super_admin');
  staff = await server.createUser('it_admin', { firstName: 'Robin', lastName: 'Okafor' });
  api = await signedInApi(server.baseUrl, superAdmin);
  await apiSend(api, 'PUT', '/api/settings', { security: { twoFactorAuthentication: true } });
});
afterAll(async () => {
  await api?.dispose();
  await browser?.close();
  await server?.close();
});

const codeFor = (secret: string, offsetSeconds = 0) => generate({ secret, epoch: Math.floor(Date.now() / 1000) + offsetSeconds });

async function typePassword(page: Page) {
  await page.goto('/login');
  await page.getByLabel('E-mail').fill(staff.email);
  await page.getByLabel('Password').fill(staff.password);
  await page.getByRole('button', { name: 'Sign In' }).click();
}

describe('two-factor sign-in', () => {
  let secret = '';
  let recoveryCodes: string[] = [];

  it('sets up an authenticator at the first sign-in, shows ten recovery codes once, then opens the app', async () => {
    await withNewPage(browser, server.baseUrl, async ({ page, errors }) => {
      await typePassword(page);
      await visible(page.getByRole('heading', { name: 'Set up two-factor authentication' }));
      await visible(page.getByRole('img', { name: `QR code to add ${staff.email} to an authenticator app` }));
      secret = (await page.getByTestId('totp-secret').textContent())!.trim();
      expect(secret).toMatch(/^[A-Z2-7]{32}$/);
      expect(await seriousViolations(page)).toEqual([]);
      // The app is closed until the step is done, even by typing an address.
      await page.goto('/students');
      await visible(page.getByRole('heading', { name: 'Set up two-factor authentication' }));
      secret = (await page.getByTestId('totp-secret').textContent())!.trim();

      await page.getByLabel('Six-digit code').fill('000000');
      await page.getByRole('button', { name: 'Turn on two-factor authentication' }).click();
      await visible(page.getByText(/That code is not right/));
      await page.getByLabel('Six-digit code').fill(await codeFor(secret));
      await page.getByRole('button', { name: 'Turn on two-factor authentication' }).click();
      await visible(page.getByRole('heading', { name: 'Save your recovery codes' }));
      recoveryCodes = (await page.getByTestId('recovery-codes').getByRole('listitem').allTextContents()).map((c) => c.trim());
      expect(recoveryCodes).toHaveLength(10);
      await screenshot(page, 'two-factor-recovery-codes');
      expect(await seriousViolations(page)).toEqual([]);
      const proceed = page.getByRole('button', { name: 'Continue to Muster' });
      expect(await proceed.isDisabled()).toBe(true);
      await page.getByLabel('I saved these codes somewhere safe').check();
      await proceed.click();
      await visible(page.getByRole('heading', { level: 1, name: 'Students' }));
      expect(errors).toEqual([]);
    });
  });

  it('asks for a code at the next sign-in, and takes a recovery code once instead', async () => {
    await withNewPage(browser, server.baseUrl, async ({ page, errors }) => {
      await typePassword(page);
      await visible(page.getByRole('heading', { name: 'Enter your code' }));
      expect(await seriousViolations(page)).toEqual([]);
      // The next 30-second code: the one used to enrol cannot be used twice.
      await page.getByLabel('Six-digit code').fill(await codeFor(secret, 30));
      await page.getByRole('button', { name: 'Verify' }).click();
      await visible(page.getByRole('heading', { level: 1, name: 'System Dashboard' }));
      expect(errors).toEqual([]);
    });
    await withNewPage(browser, server.baseUrl, async ({ page }) => {
      await typePassword(page);
      await visible(page.getByRole('heading', { name: 'Enter your code' }));
      await page.getByRole('button', { name: 'Use a recovery code' }).click();
      await page.getByLabel('Recovery code').fill(recoveryCodes[0]!);
      await page.getByRole('button', { name: 'Verify' }).click();
      await visible(page.getByRole('heading', { level: 1, name: 'System Dashboard' }));
    });
    await withNewPage(browser, server.baseUrl, async ({ page }) => {
      await typePassword(page);
      await page.getByRole('button', { name: 'Use a recovery code' }).click();
      await page.getByLabel('Recovery code').fill(recoveryCodes[0]!);
      await page.getByRole('button', { name: 'Verify' }).click();
      await visible(page.getByText(/That code is not right/));
      await page.getByRole('button', { name: 'Sign out and use another account' }).click();
      await page.waitForURL((url) => url.pathname === '/login' || url.pathname === '/');
    });
  });

  it('lets super_admin reset the enrolment from User Management; the user sets up again', async () => {
    await withNewPage(browser, server.baseUrl, async ({ page }) => {
      await page.goto('/login');
      await page.getByLabel('E-mail').fill(superAdmin.email);
      await page.getByLabel('Password').fill(superAdmin.password);
      await page.getByRole('button', { name: 'Sign In' }).click();
      // The super admin has not enrolled yet either: the policy applies to every local account.
      await visible(page.getByRole('heading', { name: 'Set up two-factor authentication' }));
      const adminSecret = (await page.getByTestId('totp-secret').textContent())!.trim();
      await page.getByLabel('Six-digit code').fill(await codeFor(adminSecret));
      await page.getByRole('button', { name: 'Turn on two-factor authentication' }).click();
      await page.getByLabel('I saved these codes somewhere safe').check();
      await page.getByRole('button', { name: 'Continue to Muster' }).click();
      await page.goto('/users');
      await page.getByRole('button', { name: 'Reset two-factor authentication for Robin Okafor' }).click();
      const confirm = page.getByRole('alertdialog').or(page.getByRole('dialog'));
      await visible(confirm.getByText(/lost their phone/));
      await confirm.getByRole('button', { name: 'Reset' }).click();
      await visible(page.getByText('Two-factor reset', { exact: true }));
    });
    await withNewPage(browser, server.baseUrl, async ({ page }) => {
      await typePassword(page);
      await visible(page.getByRole('heading', { name: 'Set up two-factor authentication' }));
    });
  });
});
