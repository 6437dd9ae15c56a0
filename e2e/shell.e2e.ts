import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ATTENDANCE_ACCESS_DENIED, AUDIT_LOGS_ACCESS_DENIED, DATA_MANAGEMENT_ACCESS_DENIED, SESSION_NOT_FOUND_TEXT } from '../common/messages.ts';
import { NAV_ITEMS, navItemsFor } from '../common/permissions.ts';
import { ROLES, ROLE_LABELS, type Role } from '../common/roles.ts';
import { SETUP_CODE_WRONG } from '../common/auth.ts';
import { createSetupCodeIfNeeded } from '../server/modules/auth/service.ts';
import { SCREEN_ACCESS } from '../web/lib/screen-access.ts';
import {
  expectTitle,
  hidden,
  launchBrowser,
  newPage,
  screenshot,
  seriousViolations,
  signIn,
  startServer,
  visible,
  withNewPage,
  type E2eServer,
  type TestUser,
} from './support.ts';

const FEATURE_CARDS = ['QR Code Attendance', 'Role-Based Security', 'SIS Integration Ready', 'Real-Time Analytics', 'FERPA Compliant', 'Scalable Architecture'];

/** Every signed-in screen: its route, its h1, and what a role without access reads (SPEC §2, §6). */
const SCREENS: { path: string; title: string; denied: (role: Role) => string }[] = [
  { path: '/', title: 'System Dashboard', denied: () => '' },
  { path: '/attendance', title: 'Take Attendance', denied: () => ATTENDANCE_ACCESS_DENIED },
  { path: '/users', title: 'User Management', denied: (r) => `Your role (${ROLE_LABELS[r]}) does not have permission to manage users.` },
  { path: '/students', title: 'Students', denied: (r) => `Your role (${ROLE_LABELS[r]}) does not have permission to view students.` },
  { path: '/programs', title: 'Programs', denied: (r) => `Your role (${ROLE_LABELS[r]}) does not have permission to manage programs.` },
  { path: '/calendar', title: 'School Calendar', denied: (r) => `Your role (${ROLE_LABELS[r]}) does not have permission to manage the school calendar.` },
  { path: '/compliance', title: 'Compliance', denied: (r) => `Your role (${ROLE_LABELS[r]}) does not have permission to view compliance.` },
  { path: '/hours', title: 'Hours', denied: (r) => `Your role (${ROLE_LABELS[r]}) does not have permission to view the hours ledger.` },
  { path: '/courses', title: 'Courses', denied: (r) => `Your role (${ROLE_LABELS[r]}) does not have permission to manage courses.` },
  { path: '/schedules', title: 'Schedules', denied: (r) => `Your role (${ROLE_LABELS[r]}) does not have permission to manage schedules.` },
  { path: '/data-management', title: 'Data Management & SIS Integration', denied: () => DATA_MANAGEMENT_ACCESS_DENIED },
  { path: '/audit-logs', title: 'Audit Logs', denied: () => AUDIT_LOGS_ACCESS_DENIED },
  { path: '/settings', title: 'Settings', denied: () => '' },
];

/** Who may open each screen, written out from SPEC §6 and decision 003 rather than read from the code under test. */
const ALLOWED: Record<string, readonly Role[]> = {
  '/': ROLES,
  '/attendance': ['super_admin', 'it_admin', 'instructor'],
  '/users': ['super_admin', 'it_admin'],
  '/students': ['super_admin', 'it_admin', 'support_staff'],
  '/programs': ['super_admin', 'it_admin'],
  '/calendar': ['super_admin', 'it_admin'],
  '/hours': ['super_admin', 'it_admin', 'support_staff'],
  '/compliance': ['super_admin', 'it_admin', 'support_staff'],
  '/courses': ['super_admin', 'it_admin'],
  '/schedules': ['super_admin', 'it_admin'],
  '/data-management': ['super_admin', 'it_admin'],
  '/audit-logs': ['super_admin', 'it_admin'],
  '/settings': ROLES,
};

const mainNav = (page: Page) => page.getByRole('navigation', { name: 'Main' });

let browser: Browser;
let server: E2eServer;
const users = {} as Record<Role, TestUser>;

beforeAll(async () => {
  [browser, server] = await Promise.all([launchBrowser(), startServer()]);
  for (const role of ROLES) users[role] = await server.createUser(role, { firstName: 'Jordan', lastName: ROLE_LABELS[role].split(' ')[0] });
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('screen access table', () => {
  it('lets every role open each screen its menu offers, and matches SPEC §6', () => {
    for (const role of ROLES) {
      for (const item of navItemsFor(role)) {
        const key = item.path === '/' ? 'dashboard' : (item.path.slice(1) as keyof typeof SCREEN_ACCESS);
        expect(SCREEN_ACCESS[key].allows(role), `${role} sees ${item.label} in the menu`).toBe(true);
      }
      for (const [path, allowed] of Object.entries(ALLOWED)) {
        const key = path === '/' ? 'dashboard' : (path.slice(1) as keyof typeof SCREEN_ACCESS);
        expect(SCREEN_ACCESS[key].allows(role), `${role} on ${path}`).toBe(allowed.includes(role));
      }
    }
    expect(NAV_ITEMS.map((i) => i.label)).toEqual([
      'Dashboard',
      'Take Attendance',
      'User Management',
      'Students',
      'Programs',
      'Hours',
      'Compliance',
      'Courses',
      'Schedules',
      'Data Management',
      'Audit Logs',
      'School Calendar',
      'Settings',
    ]);
  });
});

describe('logged out', () => {
  it('shows the landing page with its six feature cards, and Sign In leads to the sign-in page', async () => {
    await withNewPage(browser, server.baseUrl, async ({ page, errors }) => {
      await page.goto('/');
      await visible(page.getByRole('heading', { level: 1, name: 'Attendance that counts every clock hour' }));
      const cards = await page.getByRole('heading', { level: 3 }).allTextContents();
      expect(cards).toEqual(FEATURE_CARDS);
      await visible(page.getByRole('heading', { name: 'Ready to retire the paper sign-in sheet?' }));
      expect(await page.getByRole('contentinfo').textContent()).toContain(`© ${new Date().getFullYear()} Muster`);
      for (const name of ['Sign In', 'Get Started', 'Start Your Trial']) {
        expect(await page.getByRole('link', { name, exact: true }).getAttribute('href'), name).toBe('/api/login');
      }
      await expectTitle(page, 'Attendance for career schools · Muster');
      expect(await page.getAttribute('html', 'lang')).toBe('en');
      await screenshot(page, 'landing');
      expect(await seriousViolations(page)).toEqual([]);

      await page.getByRole('link', { name: 'Sign In', exact: true }).click();
      await page.waitForURL((url) => url.pathname === '/login');
      await visible(page.getByRole('heading', { level: 1, name: 'Sign in to Muster' }));
      // Users exist, so there is no first-run offer.
      expect(await page.getByRole('link', { name: 'Create the first Super Administrator' }).count()).toBe(0);
      expect((await page.request.get('/favicon.svg')).status()).toBe(200);
      expect(errors).toEqual([]);
    });
  });

  it('sends a logged-out visit to a screen to the sign-in page', async () => {
    await withNewPage(browser, server.baseUrl, async ({ page }) => {
      await page.goto('/students');
      await page.waitForURL((url) => url.pathname === '/login');
      await visible(page.getByRole('heading', { level: 1, name: 'Sign in to Muster' }));
    });
  });

  it('sign-in page is accessible and shows the server error in an alert', async () => {
    await withNewPage(browser, server.baseUrl, async ({ page }) => {
      await page.goto('/login');
      await visible(page.getByLabel('E-mail'));
      expect(await page.getByLabel('E-mail').getAttribute('autocomplete')).toBe('username');
      expect(await page.getByLabel('Password').getAttribute('autocomplete')).toBe('current-password');
      await screenshot(page, 'login');
      expect(await seriousViolations(page)).toEqual([]);

      // Empty submit: the fields say what is missing, without a round trip.
      await page.getByRole('button', { name: 'Sign In' }).click();
      await visible(page.getByText('E-mail is required'));
      await visible(page.getByText('Password is required'));

      await page.getByLabel('E-mail').fill(users.instructor.email);
      await page.getByLabel('Password').fill('not the password');
      await page.getByRole('button', { name: 'Sign In' }).click();
      const alert = await visible(page.getByRole('alert'));
      expect(await alert.textContent()).toContain('Invalid e-mail or password');
      expect(new URL(page.url()).pathname).toBe('/login');
    });
  });

  it('shows Page Not Found for an unknown path, with a 404 status and a link home', async () => {
    await withNewPage(browser, server.baseUrl, async ({ page }) => {
      const res = await page.goto('/no-such-page');
      expect(res?.status()).toBe(404);
      await visible(page.getByRole('heading', { level: 1, name: 'Page Not Found' }));
      await expectTitle(page, 'Page Not Found · Muster');
      await page.getByRole('link', { name: 'Go to the home page' }).click();
      await page.waitForURL((url) => url.pathname === '/');
      await visible(page.getByRole('link', { name: 'Get Started' }));
    });
  });

  it('serves the public scan page from its own small bundle and says Session Not Found', async () => {
    const { context, page, errors } = await newPage(browser, server.baseUrl, { width: 390, height: 844 });
    const scripts: string[] = [];
    page.on('request', (req) => {
      if (req.resourceType() === 'script') scripts.push(new URL(req.url()).pathname);
    });
    try {
      await page.goto('/attendance/scan/does-not-exist');
      await visible(page.getByRole('heading', { level: 1, name: 'Session Not Found' }));
      await visible(page.getByText(SESSION_NOT_FOUND_TEXT));
      expect(
        scripts.some((s) => /\/assets\/main-/.test(s)),
        `admin bundle loaded: ${scripts.join(', ')}`,
      ).toBe(false);
      await screenshot(page, 'scan-not-found');
      expect(await seriousViolations(page)).toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

describe('first run', () => {
  it('creates the first Super Administrator and lands in the app shell', async () => {
    const fresh = await startServer();
    const { context, page } = await newPage(browser, fresh.baseUrl);
    try {
      // With no user yet, /api/login leads to setup; the sign-in page offers it too.
      await page.goto('/login');
      await page.getByRole('link', { name: 'Create the first Super Administrator' }).click();
      await page.waitForURL((url) => url.pathname === '/setup');
      await visible(page.getByRole('heading', { level: 1, name: 'Create the first Super Administrator' }));

      // The code the server printed on its console at start (`Setup code: …`): the harness builds
      // the app without main.ts, so it asks the same function main.ts calls.
      const setupCode = await createSetupCodeIfNeeded(fresh.db);
      expect(setupCode).toBeTruthy();
      await visible(page.getByText('Printed in the server’s console when it first started'));

      await page.getByRole('button', { name: 'Create account' }).click();
      await visible(page.getByText('Setup code is required'));
      await visible(page.getByText('First name is required'));
      await visible(page.getByText('Password must be at least 8 characters'));
      expect(await page.getByLabel('Setup code').getAttribute('aria-invalid')).toBe('true');
      expect(await page.getByLabel('First name').getAttribute('aria-invalid')).toBe('true');
      await screenshot(page, 'setup-errors');

      // A stranger without the console's code is refused beside the field.
      await page.getByLabel('Setup code').fill('AAAA-BBBB-CCCC-DDDD');
      await page.getByLabel('First name').fill('Morgan');
      await page.getByLabel('Last name').fill('Reyes');
      await page.getByLabel('E-mail').fill('morgan.reyes@school.example');
      await page.getByLabel('Password').fill('a long enough password');
      await page.getByLabel('School name').fill('Lakeside Career College');
      await page.getByRole('button', { name: 'Create account' }).click();
      await visible(page.getByText(SETUP_CODE_WRONG));
      expect(await page.getByLabel('Setup code').getAttribute('aria-invalid')).toBe('true');
      expect(page.url()).toMatch(/\/setup$/);

      await page.getByLabel('Setup code').fill(setupCode!);
      await page.getByRole('button', { name: 'Create account' }).click();

      await page.waitForURL((url) => url.pathname === '/');
      await visible(page.getByRole('heading', { level: 1, name: 'System Dashboard' }));
      await visible(mainNav(page).getByRole('link', { name: 'Audit Logs' }));
      expect(await page.getByTestId('user-name').textContent()).toBe('Morgan Reyes');
      expect(await page.getByTestId('user-role').textContent()).toBe('Super Administrator');

      // Setup is refused once a user exists; the page says so and points to sign-in.
      await page.goto('/setup');
      await visible(page.getByRole('heading', { level: 1, name: 'Setup is complete' }));
      await visible(page.getByRole('link', { name: 'Go to sign in' }));
    } finally {
      await context.close();
      await fresh.close();
    }
  });
});

describe.each(ROLES)('signed in as %s', (role) => {
  it('shows exactly the role’s menu, guards every screen, and signs out to the landing page', async () => {
    await withNewPage(browser, server.baseUrl, async ({ page, errors }) => {
      await signIn(page, users[role]);

      const entries = await mainNav(page).getByRole('link').allTextContents();
      expect(entries).toEqual(navItemsFor(role).map((i) => i.label));
      expect(await mainNav(page).getByRole('link', { name: 'Dashboard' }).getAttribute('aria-current')).toBe('page');
      expect(await page.getByTestId('user-name').textContent()).toBe(`${users[role].firstName} ${users[role].lastName}`);
      expect(await page.getByTestId('user-role').textContent()).toBe(ROLE_LABELS[role]);
      await expectTitle(page, 'System Dashboard · Muster');
      await visible(page.getByRole('heading', { name: 'System Dashboard' }));

      // Client-side navigation from the menu highlights the new entry.
      const second = navItemsFor(role)[1]!;
      await mainNav(page).getByRole('link', { name: second.label }).click();
      await page.waitForURL((url) => url.pathname === second.path);
      // The URL changes before React re-renders the menu: wait for the highlight itself.
      await visible(mainNav(page).locator('a[aria-current="page"]', { hasText: second.label }));
      expect(await mainNav(page).locator('a[aria-current="page"]').count()).toBe(1);
      expect(await mainNav(page).getByRole('link', { name: 'Dashboard' }).getAttribute('aria-current')).toBeNull();

      for (const screen of SCREENS) {
        await page.goto(screen.path);
        if (ALLOWED[screen.path]!.includes(role)) {
          await visible(page.getByRole('heading', { level: 1, name: screen.title, exact: true }));
          await expectTitle(page, `${screen.title} · Muster`);
        } else {
          await visible(page.getByRole('heading', { level: 1, name: 'Access Denied' }));
          await visible(page.getByText(screen.denied(role), { exact: true }));
          await expectTitle(page, 'Access Denied · Muster');
          if (role === 'support_staff' && screen.path === '/attendance') await screenshot(page, 'access-denied');
        }
      }

      await page.goto('/');
      await page.getByRole('button', { name: 'Sign Out' }).click();
      await page.waitForURL((url) => url.pathname === '/');
      await visible(page.getByRole('link', { name: 'Get Started' }));
      await page.goto('/settings');
      await page.waitForURL((url) => url.pathname === '/login');
      expect(errors).toEqual([]);
    });
  });
});

describe('signed-in shell', () => {
  it('has no serious accessibility violations, a skip link and a main landmark', async () => {
    await withNewPage(browser, server.baseUrl, async ({ page }) => {
      await signIn(page, users.it_admin);
      await screenshot(page, 'shell-dashboard');
      expect(await seriousViolations(page)).toEqual([]);
      expect(await page.getByRole('main').count()).toBe(1);

      await page.keyboard.press('Tab');
      const skip = page.getByRole('link', { name: 'Skip to main content' });
      expect(await skip.evaluate((el) => el === document.activeElement)).toBe(true);

      await page.goto('/data-management');
      await visible(page.getByRole('heading', { level: 1, name: 'Data Management & SIS Integration' }));
      await screenshot(page, 'shell-data-management');
      expect(await seriousViolations(page)).toEqual([]);

      await page.goto('/not-a-screen');
      await visible(page.getByRole('heading', { level: 1, name: 'Page Not Found' }));
      await visible(mainNav(page));
    });
  });

  it('collapses the sidebar into a menu on a phone, which opens and closes', async () => {
    const { context, page, errors } = await newPage(browser, server.baseUrl, { width: 390, height: 844 });
    try {
      await signIn(page, users.instructor);
      expect(await mainNav(page).count()).toBe(0);
      await visible(page.getByRole('button', { name: 'Open menu' }));
      // While the modal menu is open the page behind it is hidden from assistive technology
      // (aria-hidden), so read the trigger's state by its attribute, not its role.
      const menuButton = page.locator('button[aria-label="Open menu"]');
      expect(await menuButton.getAttribute('aria-expanded')).toBe('false');
      await screenshot(page, 'mobile-closed');

      // Escape closes it.
      await menuButton.click();
      const dialog = await visible(page.getByRole('dialog', { name: 'Menu' }));
      expect(await menuButton.getAttribute('aria-expanded')).toBe('true');
      // The role's menu, then the user panel's own links: their sessions and their notification choices.
      expect(await dialog.getByRole('link').allTextContents()).toEqual([
        ...navItemsFor('instructor').map((i) => i.label),
        'Your sessions',
        'Your notifications',
      ]);
      await screenshot(page, 'mobile-open');
      expect(await seriousViolations(page)).toEqual([]);
      await page.keyboard.press('Escape');
      await hidden(page.getByRole('dialog'));
      expect(await menuButton.getAttribute('aria-expanded')).toBe('false');

      // A click on the overlay, beside the panel, closes it.
      await menuButton.click();
      await visible(page.getByRole('dialog', { name: 'Menu' }));
      await page.mouse.click(370, 420);
      await hidden(page.getByRole('dialog'));

      // Choosing an entry navigates and closes it.
      await menuButton.click();
      await page.getByRole('dialog', { name: 'Menu' }).getByRole('link', { name: 'Take Attendance' }).click();
      await page.waitForURL((url) => url.pathname === '/attendance');
      await hidden(page.getByRole('dialog'));
      await visible(page.getByRole('heading', { level: 1, name: 'Take Attendance' }));
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

describe('your sessions and signing out', () => {
  it('lists where you are signed in, ends another session by keyboard, and a cross-site sign-out link only asks', async () => {
    const user = users.support_staff;
    const elsewhere = await newPage(browser, server.baseUrl);
    const { context, page, errors } = await newPage(browser, server.baseUrl);
    try {
      await signIn(elsewhere.page, user);
      await signIn(page, user);
      // Every user chooses their own e-mails from their panel: Settings › Notifications, their switches.
      await page.getByRole('link', { name: 'Your notifications' }).click();
      await visible(page.getByRole('heading', { name: 'Your notifications' }));
      expect(await page.getByRole('tab', { name: 'Notifications' }).getAttribute('aria-selected')).toBe('true');
      await page.getByRole('link', { name: 'Your sessions' }).click();
      await visible(page.getByRole('heading', { level: 1, name: 'Your sessions' }));
      await expectTitle(page, 'Your sessions · Muster');
      const table = page.getByRole('table', { name: 'Your sessions, most recently used first' });
      await visible(table.getByText('This browser'));
      expect(await table.locator('tbody tr').count()).toBeGreaterThanOrEqual(2);
      await screenshot(page, 'your-sessions');
      expect(await seriousViolations(page)).toEqual([]);

      // End the other browser's session from the keyboard.
      const end = table.getByRole('button', { name: /^End session: / }).first();
      await end.focus();
      await page.keyboard.press('Enter');
      await visible(page.getByText('Session ended', { exact: true }));
      await elsewhere.page.reload();
      await elsewhere.page.waitForURL((url) => url.pathname === '/');
      await visible(elsewhere.page.getByRole('link', { name: 'Get Started' }));

      // A link on another site to /api/logout does not sign out: Muster asks first.
      await page.route('http://elsewhere.example/**', (route) =>
        route.fulfill({ contentType: 'text/html', body: `<!doctype html><title>Elsewhere</title><a href="${server.baseUrl}/api/logout">Free pizza</a>` }),
      );
      await page.goto('http://elsewhere.example/');
      await page.getByRole('link', { name: 'Free pizza' }).click();
      await page.waitForURL((url) => url.pathname === '/sign-out');
      await visible(page.getByRole('heading', { level: 1, name: 'Sign out of Muster?' }));
      await expectTitle(page, 'Sign Out · Muster');
      expect(await seriousViolations(page)).toEqual([]);
      await page.getByRole('link', { name: 'Stay signed in' }).click();
      await visible(page.getByRole('heading', { level: 1, name: 'System Dashboard' }));
      await page.goto('/sign-out');
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.waitForURL((url) => url.pathname === '/');
      await visible(page.getByRole('link', { name: 'Get Started' }));
      expect(errors).toEqual([]);
    } finally {
      await elsewhere.context.close();
      await context.close();
    }
  });
});
