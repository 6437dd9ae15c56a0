import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { SeededClass, TestUser } from './support.ts';
import { newPage, screenshot, seedClassNow, seriousViolations, signIn, useBrowserAndServer, usingPage, visible } from './support.ts';

/**
 * The smaller things, in real Chromium: the sign-in page's focus and its line for
 * a forgotten password; the projector's "1 of 2 checked in" and its localhost warning; support
 * staff told why they cannot record make-up; the dashboard's alert figures agreeing, Resolve Alerts
 * opening the alerts, each linked to its student and acknowledged; the audit log in words.
 */
const env = useBrowserAndServer();
const PHONE = { width: 390, height: 844 };
let admin: TestUser;
let instructor: TestUser;
let support: TestUser;
let cls: SeededClass;

type Counts = { open: number; high: number; students: number; acknowledged: number };

beforeAll(async () => {
  const { server } = env;
  admin = await server.createUser('super_admin', { firstName: 'Ada', lastName: 'Admin' });
  instructor = await server.createUser('instructor', { firstName: 'Rosa', lastName: 'Teacher' });
  support = await server.createUser('support_staff', { firstName: 'Sam', lastName: 'Support' });
  cls = await seedClassNow(server.db, instructor.email, [
    { sisStudentId: 'STU-2801', firstName: 'Ana', lastName: 'Ruiz', email: 'ana.ruiz@student.example' },
    { sisStudentId: 'STU-2802', firstName: 'Ben', lastName: 'Okafor', email: 'ben.okafor@student.example' },
  ]);
  // Ben missed the last three weeks' meetings: alerts name him (before any dashboard has read the rules).
  const ben = cls.students[1]!;
  for (const weeksAgo of [1, 2, 3]) {
    await server.db.execute(sql`insert into attendance_records (student_id, schedule_id, session_date, status, minutes_attended, scheduled_minutes, source)
                                values (${ben.id}, ${cls.scheduleId}, current_date - ${weeksAgo * 7}::int, 'absent', 0, 120, 'manual')`);
  }
});

describe('the smaller things', () => {
  it('sign-in puts the cursor in the e-mail field and says what to do about a forgotten password', async () => {
    await usingPage(newPage(env.browser, env.server.baseUrl), async ({ page, errors }) => {
      await page.goto('/login');
      await visible(page.getByText('Forgot password? Ask your administrator.'));
      await page.waitForFunction(() => (document.activeElement as HTMLInputElement | null)?.name === 'email');
      // Typing goes straight into the field.
      await page.keyboard.type(admin.email);
      expect(await page.getByLabel('E-mail').inputValue()).toBe(admin.email);
      expect(await seriousViolations(page)).toEqual([]);
      expect(errors).toEqual([]);
    });
  });

  it('the projector shows who has checked in of those expected, and warns that phones cannot reach localhost', async () => {
    await usingPage(newPage(env.browser, env.server.baseUrl, { width: 1366, height: 768 }), async ({ page, errors }) => {
      await signIn(page, instructor);
      const started = await page.request.post('/api/qr-sessions', { data: { scheduleId: cls.scheduleId } });
      expect(started.status()).toBe(201);
      const { sessionId, sessionDate } = (await started.json()) as { sessionId: string; sessionDate: string };
      await page.goto(`/attendance/present?session=${sessionId}`);
      const count = await visible(page.getByTestId('projector-count'));
      expect((await count.textContent())?.replace(/\s+/g, ' ')).toBe('0 of 2 checked in');
      // Ana checks in: the count follows within a poll.
      await env.server.db.execute(sql`insert into attendance_records (student_id, schedule_id, session_date, status, scan_in_time, source)
                                      values (${cls.students[0]!.id}, ${cls.scheduleId}, ${sessionDate}, 'present', now(), 'qr')`);
      await page.waitForFunction(
        () => document.querySelector('[data-testid="projector-count"]')?.textContent?.replace(/\s+/g, ' ') === '1 of 2 checked in',
        null,
        { timeout: 10_000 },
      );
      // The server runs on 127.0.0.1 here: the same warning as the session panel's.
      const warning = await visible(page.getByTestId('projector-loopback'));
      expect(await warning.textContent()).toContain('Phones can’t reach 127.0.0.1.');
      await screenshot(page, 'projector-count-loopback-1366');
      expect(await seriousViolations(page)).toEqual([]);
      expect(errors).toEqual([]);
    });
  });

  it('support staff read make-up sessions and are told who records them', async () => {
    await usingPage(newPage(env.browser, env.server.baseUrl, PHONE), async ({ page, errors }) => {
      await signIn(page, support);
      await page.goto(`/students/${cls.students[0]!.id}`);
      await visible(page.getByRole('heading', { name: 'Make-up sessions' }));
      const note = await visible(page.getByTestId('make-up-read-only'));
      expect(await note.textContent()).toBe('Read only: make-up sessions are recorded by a Super Administrator, IT Administrator, or Instructor.');
      expect(await page.getByRole('button', { name: 'Record make-up' }).count()).toBe(0);
      await note.first().scrollIntoViewIfNeeded();
      await screenshot(page, 'make-up-read-only-390');
      expect(await seriousViolations(page)).toEqual([]);
      expect(errors).toEqual([]);
    });
  });

  it('the alert figures agree; Resolve Alerts opens the alerts, linked to the student, and one is acknowledged', async () => {
    await usingPage(newPage(env.browser, env.server.baseUrl, { width: 1366, height: 900 }), async ({ page, errors }) => {
      await signIn(page, admin);
      const summary = (await (await page.request.get('/api/dashboard/executive-summary')).json()) as {
        todayMetrics: { criticalAlerts: number };
        alerts: Counts;
      };
      expect(summary.alerts.open).toBeGreaterThanOrEqual(2);
      const words = (c: Counts) =>
        `${c.open} open ${c.open === 1 ? 'alert' : 'alerts'} · ${c.high} high · ${c.students} ${c.students === 1 ? 'student' : 'students'}`;
      // Overview: Critical Alerts with the same figures as Live's, leading there.
      const tile = page.getByTestId('today-critical-alerts');
      await visible(tile.getByRole('link', { name: words(summary.alerts) }));

      await page.getByRole('link', { name: /^Resolve Alerts/ }).click();
      await page.waitForURL((url) => url.search === '?tab=live' && url.hash === '#alerts');
      expect((await (await visible(page.getByTestId('alert-figures'))).textContent()) ?? '').toBe(words(summary.alerts));
      const ben = cls.students[1]!;
      const item = page.getByTestId('live-alert').filter({ hasText: `${ben.firstName} ${ben.lastName}: 3 consecutive absences` });
      await visible(item);
      expect(await item.getByRole('link', { name: `${ben.firstName} ${ben.lastName}’s record` }).getAttribute('href')).toBe(`/students/${ben.id}`);
      await screenshot(page, 'dashboard-live-alerts-1366');
      expect(await seriousViolations(page)).toEqual([]);

      await item.getByRole('button', { name: /^Acknowledge/ }).click();
      const dialog = await visible(page.getByRole('dialog', { name: 'Acknowledge alert' }));
      await dialog.getByLabel('Note (optional)').fill('Called Ben; back next week');
      expect(await seriousViolations(page)).toEqual([]);
      await dialog.getByRole('button', { name: 'Acknowledge' }).click();
      await visible(page.getByText('Alert Acknowledged'));
      await page.waitForFunction(
        (text) => ![...document.querySelectorAll('[data-testid="live-alert"]')].some((el) => el.textContent?.includes(text)),
        `${ben.firstName} ${ben.lastName}: 3 consecutive absences`,
      );
      const after = (await (await page.request.get('/api/dashboard/real-time')).json()) as { alertCounts: Counts };
      expect(after.alertCounts.open).toBe(summary.alerts.open - 1);
      expect(after.alertCounts.acknowledged).toBe(1);
      await page.waitForFunction((text) => document.querySelector('[data-testid="alert-figures"]')?.textContent === text, words(after.alertCounts));
      // Kept, not lost: listed under Acknowledged with who and the note.
      const acknowledged = page.getByTestId('acknowledged-alerts');
      await acknowledged.getByText('Acknowledged (1)').click();
      await visible(acknowledged.getByText('Acknowledged by Ada Admin', { exact: false }));
      await visible(acknowledged.getByText('“Called Ben; back next week”', { exact: false }));
      // On a phone: nothing wider than the screen, axe clean.
      await page.setViewportSize(PHONE);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
      expect(await seriousViolations(page)).toEqual([]);
      await screenshot(page, 'dashboard-live-alerts-390');
      await page.setViewportSize({ width: 1366, height: 900 });

      // Analytics' Students at Risk is the same figure.
      await page.getByRole('tab', { name: 'Analytics' }).click();
      const atRisk = page.getByTestId('kpi').filter({ hasText: 'Students at Risk' });
      await visible(atRisk.getByText(`${after.alertCounts.students} students`, { exact: true }));
      expect(errors).toEqual([]);
    });
  }, 120_000);

  it('the audit log says which table, field and record in words', async () => {
    await usingPage(newPage(env.browser, env.server.baseUrl, { width: 1366, height: 900 }), async ({ page, errors }) => {
      await signIn(page, admin);
      const created = await page.request.post('/api/students', { data: { firstName: 'Nguyễn', lastName: 'Thi Lan' } });
      expect(created.status(), await created.text()).toBe(201);
      await page.goto('/audit-logs');
      await page.getByLabel('Table', { exact: true }).selectOption('students');
      const row = page.getByRole('table', { name: 'Audit log entries, newest first' }).locator('tbody tr').filter({ hasText: 'Nguyễn Thi Lan' }).first();
      await visible(row);
      expect(await row.locator('td:nth-child(4)').textContent()).toBe('Student');
      await row.getByRole('button', { name: /^View details/ }).click();
      const dialog = await visible(page.getByRole('dialog'));
      await visible(dialog.getByRole('heading', { name: /^Create · Student · Nguyễn Thi Lan$/ }));
      await visible(dialog.getByRole('rowheader', { name: 'First name' }));
      await screenshot(page, 'audit-details-in-words-1366');
      expect(await seriousViolations(page)).toEqual([]);
      await page.keyboard.press('Escape');
      await page.setViewportSize(PHONE);
      await visible(row);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
      await screenshot(page, 'audit-logs-in-words-390');
      expect(errors).toEqual([]);
    });
  });
});
