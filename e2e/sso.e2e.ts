import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../server/config.ts';
import { freeLoopbackPort, startTestOidcProvider } from '../server/test/oidc-provider.ts';
import { launchBrowser, seriousViolations, startServer, visible, withNewPage, type E2eServer, type TestUser } from './support.ts';

/**
 * Decision 019: a staff member signs in with the school's account. Chromium clicks "Sign in with …",
 * goes through a real OpenID provider on loopback and lands on the dashboard; an identity with no
 * account comes back to the sign-in page with the reason in words.
 */

let browser: Browser;
let server: E2eServer;
let idp: Awaited<ReturnType<typeof startTestOidcProvider>>;
let staff: TestUser;

beforeAll(async () => {
  const port = await freeLoopbackPort();
  idp = await startTestOidcProvider({ clientId: 'muster', clientSecret: 'e2e-secret', redirectUri: `http://127.0.0.1:${port}/api/auth/sso/callback` });
  [browser, server] = await Promise.all([
    launchBrowser(),
    startServer({
      port,
      config: {
        ...loadConfig({ NODE_ENV: 'test' }),
        oidc: { issuer: idp.issuer, clientId: 'muster', clientSecret: 'e2e-secret', displayName: 'Lakeside Career College' },
      },
    }),
  ]);
  staff = await server.createUser('it_admin', { email: 'jordan.blake@lakeside.edu', firstName: 'Jordan', lastName: 'Blake' });
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
  await idp?.close();
});

describe('sign in with the school account', () => {
  it('goes through the provider and lands signed in on the dashboard', async () => {
    idp.control.signInAs = { sub: 'lakeside-0001', email: staff.email, email_verified: true };
    await withNewPage(browser, server.baseUrl, async ({ page, errors }) => {
      await page.goto('/login');
      const button = page.getByRole('link', { name: 'Sign in with Lakeside Career College' });
      await visible(button);
      expect(await seriousViolations(page)).toEqual([]);
      await button.click();
      await visible(page.getByRole('heading', { level: 1, name: 'System Dashboard' }));
      expect(new URL(page.url()).pathname).toBe('/');
      expect(errors).toEqual([]);
    });
  });

  it('brings an identity without an account back to the sign-in page with the reason', async () => {
    idp.control.signInAs = { sub: 'lakeside-0999', email: 'stranger@lakeside.edu', email_verified: true };
    await withNewPage(browser, server.baseUrl, async ({ page }) => {
      await page.goto('/login');
      await page.getByRole('link', { name: 'Sign in with Lakeside Career College' }).click();
      await visible(page.getByText('There is no Muster account for that e-mail address. Ask an administrator to add you.'));
      expect(new URL(page.url()).pathname).toBe('/login');
      expect(await seriousViolations(page)).toEqual([]);
    });
  });
});
