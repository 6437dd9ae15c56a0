import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { expect } from 'vitest';
import type { Role } from '../common/roles.ts';
import { buildApp } from '../server/app.ts';
import { loadConfig } from '../server/config.ts';
import type { Db } from '../server/db/client.ts';
import { insertUser } from '../server/modules/auth/service.ts';
import { createTestDatabase } from '../server/test/helpers.ts';

export type TestUser = { email: string; password: string; firstName: string; lastName: string; role: Role };

export type E2eServer = {
  baseUrl: string;
  db: Db;
  createUser: (role: Role, overrides?: Partial<Omit<TestUser, 'role'>>) => Promise<TestUser>;
  close: () => Promise<void>;
};

/** The real app (API + built web app from dist/web) on a free loopback port, with its own database. */
export async function startServer(): Promise<E2eServer> {
  const database = await createTestDatabase();
  // A scratch data directory: the app may write files there (e.g. a generated encryption key).
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'muster-e2e-data-'));
  const config = { ...loadConfig({ NODE_ENV: 'test' }), databaseUrl: database.url, dataDir };
  const app = await buildApp({ db: database.db, config });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as AddressInfo;
  let counter = 0;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    db: database.db,
    createUser: async (role, o = {}) => {
      counter += 1;
      const user: TestUser = {
        role,
        email: o.email ?? `${role.replace('_', '.')}.${counter}.${randomBytes(3).toString('hex')}@school.example`,
        password: o.password ?? 'correct horse battery staple',
        firstName: o.firstName ?? 'Alex',
        lastName: o.lastName ?? `Tester${counter}`,
      };
      await insertUser(database.db, user);
      return user;
    },
    close: async () => {
      await app.close();
      await database.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Debian's Chromium: Playwright cannot download its own browser on these machines. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-dev-shm-usage',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}

/**
 * A fresh browser context (no cookies) and page. `errors` collects uncaught exceptions and console
 * errors such as Content-Security-Policy refusals; failed requests (an expected 401) are left out.
 */
export async function newPage(
  browser: Browser,
  baseUrl: string,
  viewport = { width: 1280, height: 800 },
): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await browser.newContext({ baseURL: baseUrl, viewport });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (err) => errors.push(`pageerror: ${err.message}`));
  page.on('console', (msg) => {
    if (msg.type() === 'error' && !msg.text().startsWith('Failed to load resource')) errors.push(`console: ${msg.text()}`);
  });
  return { context, page, errors };
}

/** Wait until the locator is visible (vitest's expect does not retry like Playwright's). */
export async function visible(locator: Locator, timeout = 10_000): Promise<Locator> {
  await locator.first().waitFor({ state: 'visible', timeout });
  return locator;
}

export async function hidden(locator: Locator, timeout = 10_000): Promise<void> {
  await locator.first().waitFor({ state: 'hidden', timeout });
}

/** Assert the tab title, waiting briefly: screens set it in an effect, just after they render. */
export async function expectTitle(page: Page, expected: string): Promise<void> {
  await page.waitForFunction((t) => document.title === t, expected, { timeout: 5_000 }).catch(() => {});
  expect(await page.title()).toBe(expected);
}

/** Sign in through the real sign-in page and wait for the signed-in dashboard. */
export async function signIn(page: Page, user: Pick<TestUser, 'email' | 'password'>): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('E-mail').fill(user.email);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await page.waitForURL((url) => url.pathname === '/');
  await visible(page.getByRole('heading', { level: 1, name: 'System Dashboard' }));
}

/** Axe violations of impact serious or critical, as "rule: target" lines for a readable failure. */
export async function seriousViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) => v.nodes.map((n) => `${v.id} (${v.impact}): ${n.target.join(' ')} — ${v.help}`));
}

/** Set E2E_SCREENSHOTS=<dir> to keep full-page screenshots of the journeys for a visual review. */
export async function screenshot(page: Page, name: string): Promise<void> {
  const dir = process.env.E2E_SCREENSHOTS;
  if (!dir) return;
  fs.mkdirSync(dir, { recursive: true });
  await page.waitForTimeout(400); // let entry animations (menu slide-in, toasts) finish
  await page.screenshot({ path: path.join(dir, `${name}.png`), fullPage: true });
}
