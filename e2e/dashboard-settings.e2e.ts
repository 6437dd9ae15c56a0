import fs from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '../common/roles.ts';
import type { Settings } from '../common/settings.ts';
import { seedDemoSchool, type SeedAccount } from '../server/seed/demo-school.ts';
import { launchBrowser, newPage, screenshot, seriousViolations, signIn, startServer, visible, withNewPage, type E2eServer } from './support.ts';

/**
 * Dashboard, Audit Logs and Settings in real Chromium against the demo school (SPEC §2):
 * every figure on screen is checked against the API that produced it, never against a constant.
 */

type Summary = {
  systemHealth: { database: string };
  todayMetrics: {
    attendanceRate: number;
    studentsCheckedIn: number;
    totalStudentsExpected: number;
    activeQrSessions: number;
    criticalAlerts: number;
    pendingSyncRecords: number;
  };
};
type RealTime = { activeSessions: { courseName: string; courseCode: string }[]; alerts: { message: string }[]; totalActiveStudents: number };
type Analytics = {
  attendanceTrends: { date: string; attendanceRate: number; presentStudents: number; totalStudents: number }[];
  performanceMetrics: { metric: string }[];
  courseAnalytics: { courseName: string; courseCode: string }[];
  userActivity: { dailyLogins: number; avgSessionDuration: number; topActiveUsers: { name: string; sessions: number }[] };
};
type Schedule = { id: number; courseName?: string };
type QrSession = { createdAt: string; expiresAt: string; sessionId: string; warning: string | null };

const PHONE = { width: 390, height: 844 };

let browser: Browser;
let server: E2eServer;
const accounts = {} as Record<Role, SeedAccount>;
let schedules: Schedule[] = [];

async function getJson<T>(page: Page, url: string): Promise<T> {
  const res = await page.request.get(url);
  expect(res.status(), url).toBe(200);
  return (await res.json()) as T;
}

/** Count browser requests to one API path from now on. */
function countRequests(page: Page, pathname: string): { count: () => number; reset: () => void } {
  let n = 0;
  page.on('request', (req) => {
    if (new URL(req.url()).pathname === pathname) n += 1;
  });
  return { count: () => n, reset: () => (n = 0) };
}

const text = async (page: Page, testId: string) => ((await page.getByTestId(testId).first().textContent()) ?? '').replace(/\s+/g, ' ');
const percent = (v: number) => {
  const r = Math.round(v * 10) / 10;
  return `${Number.isInteger(r) ? r.toFixed(0) : r.toFixed(1)}%`;
};

beforeAll(async () => {
  [browser, server] = await Promise.all([launchBrowser(), startServer()]);
  const seeded = await seedDemoSchool(server.db, { today: new Date() });
  for (const a of seeded.accounts) accounts[a.role] = a;
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('dashboard', () => {
  it('renders Overview, Live and Analytics from the demo school, with keyboard tabs and no serious axe violations', async () => {
    await withNewPage(browser, server.baseUrl, async ({ page, errors }) => {
      await signIn(page, accounts.super_admin);
      schedules = await getJson<Schedule[]>(page, '/api/schedules');
      expect(schedules.length).toBeGreaterThan(2);
      // A live session, so the Live tab has something to show.
      const started = await page.request.post('/api/qr-sessions', { data: { scheduleId: schedules[0]!.id } });
      expect(started.status()).toBe(201);

      await page.reload();
      await visible(page.getByRole('heading', { level: 1, name: 'System Dashboard' }));
      await visible(page.getByText('Comprehensive attendance management and analytics'));
      await visible(page.getByText(/^Last updated/));

      // Overview: health and today's figures, as the API reports them.
      await visible(page.getByRole('heading', { name: 'System Health & Status' }));
      const summary = await getJson<Summary>(page, '/api/dashboard/executive-summary');
      expect(summary.systemHealth.database).toBe('healthy');
      await visible(page.getByText(/Responded in [\d.]+ ms/));
      await visible(page.getByText(/Last health check: (Just now|\d+ min ago)/));
      const today = summary.todayMetrics;
      const rateTile = await text(page, 'today-attendance-rate');
      if (today.totalStudentsExpected > 0) {
        expect(rateTile).toContain(percent(today.attendanceRate));
        expect(rateTile).toContain(`${today.studentsCheckedIn} of ${today.totalStudentsExpected} students`);
      } else {
        expect(rateTile).toContain('No classes expected today');
      }
      expect(await text(page, 'today-active-sessions')).toContain(String(today.activeQrSessions));
      expect(today.activeQrSessions).toBeGreaterThanOrEqual(1);
      expect(await text(page, 'today-critical-alerts')).toContain(String(today.criticalAlerts));
      expect(await text(page, 'today-pending-sync')).toContain(String(today.pendingSyncRecords));
      expect(today.pendingSyncRecords).toBeGreaterThan(0); // the seed leaves the last week unexported
      const quick = page.locator('main');
      for (const [name, href] of [
        ['Generate Report', '/data-management?tab=export'],
        ['Resolve Alerts', '/?tab=live#alerts'], // the alerts themselves (decision 048)
        ['Sync (SIS)', '/data-management?tab=sync'],
        ['System Settings', '/settings'],
        ['Audit Logs', '/audit-logs'],
      ] as const) {
        expect(await quick.getByRole('link', { name: new RegExp(`^${name.replace(/[()]/g, '\\$&')}`) }).getAttribute('href'), name).toBe(href);
      }
      await screenshot(page, 'dashboard-overview');
      expect(await seriousViolations(page)).toEqual([]);

      // Tabs answer to the keyboard: arrow right from Overview opens Live.
      await page.getByRole('tab', { name: 'Overview' }).focus();
      await page.keyboard.press('ArrowRight');
      await page.waitForURL((url) => url.search === '?tab=live');
      await visible(page.locator('[role="tab"][aria-selected="true"]', { hasText: 'Live' }));
      expect(await page.getByRole('tab', { name: 'Live' }).evaluate((el) => el === document.activeElement)).toBe(true);

      // Live: the session just started, counting down every second.
      const live = await getJson<RealTime>(page, '/api/dashboard/real-time');
      const session = page.getByTestId('live-session').filter({ hasText: live.activeSessions[0]!.courseName });
      await visible(session);
      expect(await session.textContent()).toContain(live.activeSessions[0]!.courseCode);
      await visible(session.getByText('Active', { exact: true }));
      const first = await session.getByTestId('time-left').textContent();
      // mm:ss; a session started while its class meets lasts the class, so minutes may pass 99 (docs/decisions/042).
      expect(first).toMatch(/^\d{2,3}:\d{2}$/);
      await page.waitForTimeout(2100);
      const second = await session.getByTestId('time-left').textContent();
      expect(second).toMatch(/^\d{2,3}:\d{2}$/);
      expect(second).not.toBe(first);
      expect(await session.getByRole('link', { name: /^View/ }).getAttribute('href')).toBe('/attendance');
      expect(await session.textContent()).toMatch(/\d+ of \d+ students checked in/);
      // Alerts: the seed's struggling students raise some.
      expect(live.alerts.length).toBeGreaterThan(0);
      await visible(page.getByRole('list', { name: 'Live alerts' }).getByText(live.alerts[0]!.message));
      // System performance: measured figures, never the old fixed '127ms'.
      await visible(page.getByText('Currently online'));
      expect(await text(page, 'active-students')).toContain(String(live.totalActiveStudents));
      const response = await text(page, 'avg-response-time');
      expect(response).toMatch(/Avg Response Time[\d.]+ msLast 5 minutes · \d+ requests?/);
      expect(response).not.toContain('127ms');
      expect(await text(page, 'system-load')).toMatch(/System Load[\d.]+%/);
      await screenshot(page, 'dashboard-live');
      expect(await seriousViolations(page)).toEqual([]);

      // Analytics: KPIs, a 7-day chart, course rows and user activity, all from the API.
      await page.getByRole('tab', { name: 'Analytics' }).click();
      const analytics = await getJson<Analytics>(page, '/api/dashboard/analytics');
      await visible(page.getByRole('heading', { name: 'Key Performance Indicators' }));
      expect(await page.getByTestId('kpi').count()).toBe(analytics.performanceMetrics.length);
      for (const m of analytics.performanceMetrics) await visible(page.getByTestId('kpi').getByText(m.metric, { exact: true }));
      const days = page.getByTestId('trend-day');
      expect(await days.count()).toBe(7);
      expect(analytics.attendanceTrends).toHaveLength(7);
      const classDays = analytics.attendanceTrends.filter((d) => d.totalStudents > 0);
      expect(classDays.length).toBeGreaterThan(0);
      for (const [i, d] of analytics.attendanceTrends.entries()) {
        const cell = (await days.nth(i).textContent()) ?? '';
        expect(cell).toContain(d.totalStudents > 0 ? `${d.presentStudents}/${d.totalStudents}` : 'No classes');
        if (d.totalStudents > 0) expect(cell).toContain(percent(d.attendanceRate));
      }
      // One drawn bar per day that had classes (a day without classes has nothing to rate).
      const chart = await visible(page.getByTestId('trend-chart'));
      await chart.locator('.recharts-bar-rectangle').first().waitFor();
      expect(await chart.locator('.recharts-bar-rectangle path').count()).toBe(classDays.length);
      const rates = classDays.map((d) => d.attendanceRate);
      const avg = Math.round((rates.reduce((s, r) => s + r, 0) / rates.length) * 10) / 10;
      const figures = await text(page, 'trend-summary');
      expect(figures).toContain(`Highest${percent(Math.max(...rates))}`);
      expect(figures).toContain(`Lowest${percent(Math.min(...rates))}`);
      expect(figures).toContain(`Average${percent(avg)}`);
      const courseTable = page.getByRole('table', { name: 'Course performance, last 30 days' });
      expect(analytics.courseAnalytics.length).toBeGreaterThan(0);
      expect(await courseTable.locator('tbody tr').count()).toBe(analytics.courseAnalytics.length);
      await visible(courseTable.getByText(analytics.courseAnalytics[0]!.courseName, { exact: true }));
      expect(analytics.userActivity.dailyLogins).toBeGreaterThan(0);
      const activity = page.getByRole('list', { name: 'Most active users, last 7 days' });
      await visible(activity.getByText('Dana Whitfield'));
      expect(await activity.getByRole('listitem').count()).toBe(Math.min(3, analytics.userActivity.topActiveUsers.length));
      await screenshot(page, 'dashboard-analytics');
      expect(await seriousViolations(page)).toEqual([]);
      expect(errors).toEqual([]);
    });
  });

  it('is readable on a phone', async () => {
    const { context, page, errors } = await newPage(browser, server.baseUrl, PHONE);
    try {
      await signIn(page, accounts.support_staff);
      // Quick Actions offer only the screens this role may open.
      await visible(page.getByRole('link', { name: /^System Settings/ }));
      await visible(page.getByRole('link', { name: /^Resolve Alerts/ }));
      for (const name of [/^Generate Report/, /^Sync \(SIS\)/, /^Audit Logs/]) expect(await page.getByRole('link', { name }).count()).toBe(0);
      for (const tab of ['Overview', 'Live', 'Analytics']) {
        await page.getByRole('tab', { name: tab }).click();
        if (tab === 'Analytics') await visible(page.getByTestId('trend-chart').locator('.recharts-bar-rectangle'));
        // Nothing wider than the screen: the page never scrolls sideways.
        expect(await page.evaluate(() => document.documentElement.scrollWidth), tab).toBeLessThanOrEqual(PHONE.width);
        await screenshot(page, `dashboard-phone-${tab.toLowerCase()}`);
      }
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('polls the live figures every 5 s in Auto mode and not at all in Manual mode', async () => {
    await withNewPage(browser, server.baseUrl, async ({ page }) => {
      await signIn(page, accounts.it_admin);
      const realTime = countRequests(page, '/api/dashboard/real-time');
      await page.getByRole('tab', { name: 'Live' }).click();
      const auto = page.getByRole('button', { name: 'Auto', exact: true });
      expect(await auto.getAttribute('aria-pressed')).toBe('true');
      await visible(page.getByText('Updates every 5 seconds'));
      realTime.reset();
      await page.waitForTimeout(11_000);
      expect(realTime.count()).toBeGreaterThanOrEqual(2);

      await page.getByRole('button', { name: 'Manual', exact: true }).click();
      expect(await page.getByRole('button', { name: 'Manual', exact: true }).getAttribute('aria-pressed')).toBe('true');
      await visible(page.getByText(/^Manual refresh/));
      realTime.reset();
      await page.waitForTimeout(11_000);
      expect(realTime.count()).toBe(0);

      // Refresh still works by hand.
      await page.locator('main').getByRole('button', { name: 'Refresh' }).last().click();
      await page.waitForResponse((r) => new URL(r.url()).pathname === '/api/dashboard/real-time');
      expect(realTime.count()).toBe(1);
    });
  });
});

describe('audit logs', () => {
  it('filters and pages on the server, exports the filtered CSV and shows a diff', async () => {
    await withNewPage(browser, server.baseUrl, async ({ page, errors }) => {
      // A failed sign-in first, so the Failed Login Attempts card has a real one to count.
      const failed = await page.request.post('/api/auth/login', { data: { email: accounts.it_admin.email, password: 'not the password' } });
      expect(failed.status()).toBe(401);
      await signIn(page, accounts.super_admin);
      // Enough entries for more than one page: 30 new students, and one settings change with a diff.
      for (let i = 1; i <= 30; i++) {
        const res = await page.request.post('/api/students', { data: { firstName: 'Audit', lastName: `Student${i}` } });
        expect(res.status()).toBe(201);
      }
      const put = await page.request.put('/api/settings', { data: { notifications: { weeklyReports: false } } });
      expect(put.status()).toBe(200);

      const totalOf = async (query: string) => Number((await page.request.get(`/api/audit-logs?pageSize=1${query}`)).headers()['x-total-count']);
      await page.goto('/audit-logs');
      await visible(page.getByRole('heading', { level: 1, name: 'Audit Logs' }));
      const count = page.getByTestId('audit-count');
      const all = await totalOf('');
      expect(all).toBeGreaterThan(25);
      await visible(page.getByText(`Showing 25 of ${all} audit logs`));
      const rows = page.getByRole('table', { name: 'Audit log entries, newest first' }).locator('tbody tr');
      expect(await rows.count()).toBe(25);

      // Summary cards from the server's figures.
      const summary = (await (await page.request.get('/api/audit-logs/summary')).json()) as {
        recentActivity24h: number;
        failedLoginAttempts24h: number;
        dataModifications: number;
      };
      expect(summary.failedLoginAttempts24h).toBeGreaterThanOrEqual(1);
      expect(await text(page, 'summary-failed-logins')).toContain(`Failed Login Attempts${summary.failedLoginAttempts24h}`);
      expect(await text(page, 'summary-modifications')).toContain(`Data Modifications${summary.dataModifications}`);
      expect(await text(page, 'summary-recent')).toMatch(/Recent Activity \(24h\)\d+/);
      await screenshot(page, 'audit-logs');
      expect(await seriousViolations(page)).toEqual([]);

      // Next shows other rows; Previous comes back.
      const firstRow = await rows.first().textContent();
      await page.getByRole('button', { name: 'Next' }).click();
      await visible(page.getByText(`Showing ${Math.min(25, all - 25)} of ${all} audit logs`));
      await page.waitForFunction((before) => document.querySelector('tbody tr')?.textContent !== before, firstRow);
      expect(await rows.first().textContent()).not.toBe(firstRow);
      await page.getByRole('button', { name: 'Previous' }).click();
      await page.waitForFunction((before) => document.querySelector('tbody tr')?.textContent === before, firstRow);

      // The table filter narrows the total.
      await page.getByLabel('Table', { exact: true }).selectOption('students');
      const students = await totalOf('&table=students');
      expect(students).toBeGreaterThanOrEqual(30);
      expect(students).toBeLessThan(all);
      await visible(page.getByText(`Showing 25 of ${students} audit logs`));
      for (const cell of await rows.locator('td:nth-child(4)').allTextContents()) expect(cell).toBe('Student');

      // Action and a debounced search, sent to the server.
      await page.getByLabel('Table', { exact: true }).selectOption('all');
      await page.getByLabel('Action', { exact: true }).selectOption('Login');
      const logins = await totalOf('&action=Login');
      await visible(page.getByText(`Showing ${Math.min(25, logins)} of ${logins} audit logs`));
      await visible(rows.getByText('Failed', { exact: true }));
      await page.getByLabel('Action', { exact: true }).selectOption('all');
      await page.getByRole('searchbox', { name: 'Search audit logs' }).fill('settings');
      const settingsTotal = await totalOf('&search=settings');
      await visible(page.getByText(`Showing ${settingsTotal} of ${settingsTotal} audit logs`));
      expect(settingsTotal).toBeGreaterThanOrEqual(1);

      // Details: the settings change as a field-by-field diff.
      await rows
        .first()
        .getByRole('button', { name: /^View details/ })
        .click();
      const dialog = await visible(page.getByRole('dialog'));
      const diff = dialog.getByTestId('diff-row').filter({ hasText: 'Notifications › Weekly reports' });
      await visible(diff);
      expect((await diff.textContent())?.replace(/\s+/g, '')).toBe('Notifications›WeeklyreportstruefalseChanged');
      await screenshot(page, 'audit-details');
      expect(await seriousViolations(page)).toEqual([]);
      await page.keyboard.press('Escape');

      // No matches: the SPEC's empty text.
      await page.getByRole('searchbox', { name: 'Search audit logs' }).fill('no such thing anywhere');
      await visible(page.getByText('No audit logs found'));
      await visible(count.getByText('Showing 0 of 0 audit logs'));

      // Export Logs downloads the filtered CSV: the students entries only.
      await page.getByRole('searchbox', { name: 'Search audit logs' }).fill('');
      await page.getByLabel('Table', { exact: true }).selectOption('students');
      await visible(page.getByText(`Showing 25 of ${students} audit logs`));
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export Logs' }).click()]);
      expect(download.suggestedFilename()).toMatch(/^audit-logs-\d{4}-\d{2}-\d{2}\.csv$/);
      const csv = fs
        .readFileSync((await download.path())!, 'utf8')
        .trim()
        .split('\n');
      expect(csv[0]).toBe('id,timestamp,userId,user,action,tableName,recordId,ipAddress,oldValues,newValues');
      expect(csv).toHaveLength(students + 1);
      expect(csv.slice(1).every((line) => line.split(',')[5] === 'students')).toBe(true);
      await visible(page.getByText('Export Complete'));

      // On a phone the filters stack and the table scrolls inside its card, not the page.
      await page.setViewportSize(PHONE);
      await visible(page.getByText(`Showing 25 of ${students} audit logs`));
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
      await screenshot(page, 'audit-logs-phone');
      expect(errors).toEqual([]);
    });
  });
});

describe('settings', () => {
  it('saves the QR expiry as super_admin and a new session uses it', async () => {
    await withNewPage(browser, server.baseUrl, async ({ page, errors }) => {
      await signIn(page, accounts.super_admin);
      await page.goto('/settings');
      await visible(page.getByRole('heading', { level: 1, name: 'Settings' }));
      const expiry = page.getByLabel('QR code expiration (minutes)');
      await visible(expiry);
      expect(await page.getByText('Limited Access').count()).toBe(0);
      await screenshot(page, 'settings-attendance');
      expect(await seriousViolations(page)).toEqual([]);

      await expiry.fill('45');
      await page.getByRole('tabpanel').getByRole('button', { name: 'Save Settings' }).click();
      await visible(page.getByText('Settings Saved'));
      await visible(page.getByText('Attendance settings have been updated successfully.'));
      expect((await getJson<Settings>(page, '/api/settings')).attendance.qrCodeExpirationMinutes).toBe(45);

      const started = await page.request.post('/api/qr-sessions', { data: { scheduleId: schedules[1]!.id } });
      expect(started.status()).toBe(201);
      const session = (await started.json()) as QrSession;
      // Off schedule the session lasts the setting; while its class meets, to the end of class + 15
      // minutes, never less than the setting (docs/decisions/042). Which one depends on the time the test runs.
      const lasts = Date.parse(session.expiresAt) - Date.parse(session.createdAt);
      if (session.warning) expect(lasts).toBe(45 * 60_000);
      else expect(lasts).toBeGreaterThanOrEqual(45 * 60_000);

      // Invalid integers: the shared schema's messages beside the fields, and nothing is sent.
      const puts = { n: 0 };
      page.on('request', (req) => {
        if (req.method() === 'PUT' && new URL(req.url()).pathname === '/api/settings') puts.n += 1;
      });
      await page.getByLabel('Late threshold (minutes)').fill('abc');
      await expiry.fill('500');
      await page.getByLabel('Auto-mark absent after (hours)').fill('');
      await page.getByRole('tabpanel').getByRole('button', { name: 'Save Settings' }).click();
      await visible(page.getByText('Late threshold must be a whole number'));
      await visible(page.getByText('QR code expiration must be at most 240'));
      await visible(page.getByText('Auto-mark absent is required'));
      expect(await expiry.getAttribute('aria-invalid')).toBe('true');
      await screenshot(page, 'settings-invalid');
      await page.waitForTimeout(300);
      expect(puts.n).toBe(0);
      expect((await getJson<Settings>(page, '/api/settings')).attendance).toMatchObject({
        qrCodeExpirationMinutes: 45,
        lateThresholdMinutes: 10,
        autoMarkAbsentHours: 2,
      });
      await page.getByRole('button', { name: 'Discard changes' }).click();
      expect(await expiry.inputValue()).toBe('45');

      // A field error from the server (its 400 body) is shown beside its field.
      await page.route('**/api/settings', (route) =>
        route.request().method() === 'PUT'
          ? route.fulfill({
              status: 400,
              contentType: 'application/json',
              body: JSON.stringify({
                message: 'Invalid settings',
                errors: [{ field: 'attendance.earlyLeaveThresholdMinutes', message: 'Refused by the server for this test' }],
              }),
            })
          : route.continue(),
      );
      await page.getByLabel('Early-leave threshold (minutes)').fill('15');
      await page.getByRole('tabpanel').getByRole('button', { name: 'Save Settings' }).click();
      await visible(page.getByText('Refused by the server for this test'));
      expect(await page.getByLabel('Early-leave threshold (minutes)').getAttribute('aria-invalid')).toBe('true');
      await page.unroute('**/api/settings');
      await page.getByRole('button', { name: 'Discard changes' }).click();

      // The other tabs save their own group with their own SPEC §8 text.
      await page.getByRole('tab', { name: 'Notifications' }).click();
      await page.getByRole('switch', { name: 'SMS notifications' }).click();
      await page.getByRole('tabpanel').getByRole('button', { name: 'Save Settings' }).click();
      await visible(page.getByText('Notification settings have been updated successfully.'));
      expect((await getJson<Settings>(page, '/api/settings')).notifications.smsNotifications).toBe(true);
      await screenshot(page, 'settings-notifications');
      expect(await seriousViolations(page)).toEqual([]);
      // The weekly report's preview cannot pretend to send without SMTP: it says why.
      await page.getByRole('button', { name: 'Send me a preview now' }).click();
      await visible(page.getByText('E-mail is not configured on this server (SMTP_URL is not set).'));

      await page.getByRole('tab', { name: 'Security' }).click();
      await page.getByLabel('Session timeout (minutes)').fill('90');
      await page.getByRole('tabpanel').getByRole('button', { name: 'Save Settings' }).click();
      await visible(page.getByText('System settings have been updated successfully.'));
      expect((await getJson<Settings>(page, '/api/settings')).security.sessionTimeoutMinutes).toBe(90);
      expect(await seriousViolations(page)).toEqual([]);

      // System: real status, no fixed figures.
      await page.getByRole('tab', { name: 'System' }).click();
      await visible(page.getByText('No backup has been made'));
      await visible(page.getByText('Connected', { exact: true }));
      // Back up now (Super Administrator): the real file, its size and where it is.
      await page.getByRole('button', { name: 'Back up now' }).click();
      await visible(page.getByText('Backup Complete'));
      const lastBackup = page.getByTestId('last-backup');
      await visible(lastBackup);
      const backups = await getJson<{ path: string; sizeBytes: number }[]>(page, '/api/backups');
      expect(backups).toHaveLength(1);
      expect(await lastBackup.textContent()).toContain(backups[0]!.path);
      const status = await getJson<{ database: { version: string; sizeBytes: number } }>(page, '/api/settings/system-status');
      await visible(page.getByText(`PostgreSQL ${status.database.version}`));
      expect(await page.getByTestId('database-size').textContent()).toMatch(/^\d+(\.\d)? (KB|MB|GB)$/);
      expect(await page.locator('main').textContent()).not.toContain('2.4 GB');
      // E-mail and SMS say truthfully that they cannot act on this server, and why.
      const delivery = page.getByRole('region', { name: 'E-mail', exact: true });
      await visible(delivery.getByText('Not configured'));
      await visible(delivery.getByText(/SMTP_URL is not set/));
      expect(await delivery.getByRole('button', { name: 'Send me a test e-mail' }).count()).toBe(0);
      await visible(page.getByRole('region', { name: 'Text messages (SMS)' }).getByText('Not configured'));
      await visible(page.getByRole('heading', { name: 'Background jobs' }));
      await page.getByLabel('Data retention (years)').fill('8');
      await page.getByRole('tabpanel').getByRole('button', { name: 'Save Settings' }).click();
      await visible(page.getByText('System settings have been updated successfully.'));
      await screenshot(page, 'settings-system');
      expect(await seriousViolations(page)).toEqual([]);
      expect(errors).toEqual([]);
    });
  });

  it('gives an IT Administrator attendance only, and a Limited Access notice on Security and System', async () => {
    await withNewPage(browser, server.baseUrl, async ({ page, errors }) => {
      await signIn(page, accounts.it_admin);
      await page.goto('/settings');
      await visible(page.getByLabel('QR code expiration (minutes)'));
      const panel = page.getByRole('tabpanel');
      expect(await panel.getByText('Limited Access').count()).toBe(0);
      expect(await panel.getByRole('button', { name: 'Save Settings' }).count()).toBe(1);

      for (const tab of ['Security', 'System']) {
        await page.getByRole('tab', { name: tab }).click();
        await visible(panel.getByText('Limited Access'));
        await visible(panel.getByText(/As an IT Administrator you can modify attendance settings/));
        expect(await panel.getByRole('button', { name: 'Save Settings' }).count(), tab).toBe(0);
        await screenshot(page, `settings-it-admin-${tab.toLowerCase()}`);
        expect(await seriousViolations(page)).toEqual([]);
      }
      expect(await page.getByLabel('Data retention (years)').getAttribute('readonly')).not.toBeNull();
      await page.getByRole('tab', { name: 'Security' }).click();
      expect(await page.getByRole('switch', { name: 'Audit logging' }).isDisabled()).toBe(true);
      // The server refuses it too.
      expect((await page.request.put('/api/settings', { data: { security: { sessionTimeoutMinutes: 30 } } })).status()).toBe(403);
      expect(errors).toEqual([]);
    });
  });

  it('lets an instructor save notifications only, and tells them whom to ask for the rest', async () => {
    const { context, page } = await newPage(browser, server.baseUrl, PHONE);
    try {
      await signIn(page, accounts.instructor);
      await page.goto('/settings');
      const panel = page.getByRole('tabpanel');
      await visible(panel.getByText('Limited Access'));
      await visible(panel.getByText(/contact a Super Administrator or IT Administrator/));
      expect(await panel.getByRole('button', { name: 'Save Settings' }).count()).toBe(0);
      await screenshot(page, 'settings-phone-instructor');
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
      await page.getByRole('tab', { name: 'Notifications' }).click();
      // The Notifications panel has drawn before its notices are counted (count() does not wait).
      await visible(page.getByRole('switch', { name: 'Weekly reports' }));
      expect(await panel.getByText('Limited Access').count()).toBe(0);
      await page.getByRole('switch', { name: 'Weekly reports' }).click();
      await panel.getByRole('button', { name: 'Save Settings' }).click();
      await visible(page.getByText('Notification settings have been updated successfully.'));
    } finally {
      await context.close();
    }
  });

  it("keeps an instructor's notification switches their own: the Live tab says alerts are off for them, the admin's stay on", async () => {
    const mine = await newPage(browser, server.baseUrl);
    const admin = await newPage(browser, server.baseUrl);
    try {
      await signIn(mine.page, accounts.instructor);
      await mine.page.goto('/settings?tab=notifications');
      const panel = mine.page.getByRole('tabpanel');
      await visible(panel.getByRole('heading', { name: 'Your notifications' }));
      await visible(panel.getByText("These switches are yours: they change what you are alerted about and sent, not anyone else's."));
      expect(await panel.getByRole('heading', { name: 'School defaults' }).count()).toBe(0);
      await mine.page.getByRole('switch', { name: 'Low attendance alerts' }).click();
      await panel.getByRole('button', { name: 'Save Settings' }).click();
      await visible(mine.page.getByText('Notification settings have been updated successfully.'));
      expect((await getJson<Settings>(mine.page, '/api/settings')).notifications.lowAttendanceAlerts).toBe(false);

      await mine.page.goto('/?tab=live');
      await visible(mine.page.getByText('Low-attendance alerts are off for you.'));
      expect(await mine.page.getByText('All systems running smoothly').count()).toBe(0);
      expect(await mine.page.getByTestId('alerts-off').getByRole('link', { name: 'Settings › Notifications' }).getAttribute('href')).toBe(
        '/settings?tab=notifications',
      );
      await screenshot(mine.page, 'dashboard-live-alerts-off');
      expect(await seriousViolations(mine.page)).toEqual([]);

      // The administrator's alerts and switches are untouched.
      await signIn(admin.page, accounts.super_admin);
      expect((await getJson<Settings>(admin.page, '/api/settings')).notifications.lowAttendanceAlerts).toBe(true);
      const live = await getJson<RealTime & { alertsOn: boolean }>(admin.page, '/api/dashboard/real-time');
      expect(live.alertsOn).toBe(true);
      expect(live.alerts.length).toBeGreaterThan(0);

      // School defaults: a second section for administrators, saved apart from their own switches.
      await admin.page.goto('/settings?tab=notifications');
      const adminPanel = admin.page.getByRole('tabpanel');
      await visible(adminPanel.getByRole('heading', { name: 'School defaults' }));
      await admin.page.getByRole('switch', { name: 'Weekly summary by default' }).click();
      await adminPanel.getByRole('button', { name: 'Save School Defaults' }).click();
      await visible(admin.page.getByText('School notification defaults have been updated successfully.'));
      expect((await getJson<{ weeklyReports: boolean }>(admin.page, '/api/settings/notification-defaults')).weeklyReports).toBe(false);
      expect(await seriousViolations(admin.page)).toEqual([]);
      expect(mine.errors).toEqual([]);
      expect(admin.errors).toEqual([]);
    } finally {
      await mine.context.close();
      await admin.context.close();
    }
  });
});
