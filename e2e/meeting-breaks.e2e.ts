import { sql } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { hidden, newPage, screenshot, seedClassNow, seriousViolations, signIn, useBrowserAndServer, usingPage, visible } from './support.ts';

// Breaks (docs/decisions/052): an administrator gives a schedule a break on its form (a
// break outside the class is refused beside its field), the card shows it; an instructor sends the
// class on a break from Take Attendance, sees it after a reload, ends it and sees the re-check-in window.

const env = useBrowserAndServer();
const toastWith = (page: Page, title: string) => page.getByRole('region', { name: /Notification/ }).getByText(title, { exact: true });

describe('breaks', () => {
  it('a scheduled break on the schedule form; a break for everyone on Take Attendance', async () => {
    const { browser, server } = env;
    const admin = await server.createUser('it_admin');
    const instructor = await server.createUser('instructor', { firstName: 'Rosa', lastName: 'Breaks' });
    const cls = await seedClassNow(server.db, instructor.email, [
      { sisStudentId: 'STU-4001', firstName: 'Ana', lastName: 'Ruiz', email: 'ana.ruiz@student.example' },
      { sisStudentId: 'STU-4002', firstName: 'Ben', lastName: 'Ode', email: 'ben.ode@student.example' },
    ]);

    await usingPage(newPage(browser, server.baseUrl, { width: 1280, height: 900 }), async ({ page }) => {
      await signIn(page, admin);
      await page.goto('/schedules');
      // The other schedule (13:00–15:00, room C-110).
      const card = page
        .locator('div')
        .filter({ has: page.getByText('Room C-110', { exact: true }) })
        .filter({ has: page.getByRole('button', { name: /^Edit / }) })
        .last();
      await card.getByRole('button', { name: /^Edit / }).click();
      const form = page.getByRole('dialog', { name: 'Edit Schedule' });
      await visible(form);
      const breaks = form.getByRole('group', { name: 'Breaks' });
      await visible(breaks.getByText('No breaks.'));
      await breaks.getByRole('button', { name: 'Add break' }).click();
      await breaks.getByLabel('Break 1 start').fill('14:50');
      await breaks.getByLabel('Break 1 end').fill('15:10');
      await form.getByRole('button', { name: 'Save changes' }).click();
      // Refused beside its field, and focus goes there.
      const end = breaks.getByLabel('Break 1 end');
      await visible(breaks.getByText('Break 1 must end by the end of class (15:00)'));
      expect(await end.getAttribute('aria-invalid')).toBe('true');
      expect(await seriousViolations(page)).toEqual([]);
      await screenshot(page, 'schedule-breaks-form');
      await breaks.getByLabel('Break 1 start').fill('14:00');
      await end.fill('14:15');
      await form.getByRole('button', { name: 'Save changes' }).click();
      await hidden(form);
      await visible(card.getByText(/^Break 2:00\sPM – 2:15\sPM$/));
      // A row is removed by its own named button.
      await card.getByRole('button', { name: /^Edit / }).click();
      await visible(form.getByRole('button', { name: 'Remove break 1' }));
      await form.getByRole('button', { name: 'Cancel' }).click();
    });
    const { rows } = await server.db.execute<{ breaks: unknown }>(sql`select breaks from schedules where id = ${cls.otherScheduleId}`);
    expect(rows[0]!.breaks).toEqual([{ start: '14:00', end: '14:15' }]);

    await usingPage(newPage(browser, server.baseUrl, { width: 1280, height: 900 }), async ({ page, errors }) => {
      await signIn(page, instructor);
      const started = await page.request.post('/api/qr-sessions', { data: { scheduleId: cls.scheduleId } });
      expect(started.status()).toBe(201);
      const session = (await started.json()) as { sessionDate: string };
      // Ana is in class; Ben has not come.
      await server.db.execute(sql`
        insert into attendance_records (student_id, schedule_id, session_date, status, scan_in_time, source, minutes_attended, scheduled_minutes)
        values (${cls.students[0]!.id}, ${cls.scheduleId}, ${session.sessionDate}, 'present', now() - interval '3 minutes', 'qr', 117, 120)`);
      await page.goto(`/attendance?schedule=${cls.scheduleId}`);
      const state = page.getByRole('status').filter({ hasText: /Class in session|On break since|Re-check-in open until/ });
      await visible(state.getByText('Class in session'));

      // Asked first; Cancel sends nobody out.
      await page.getByRole('button', { name: 'Break for everyone' }).click();
      const ask = page.getByRole('dialog', { name: 'Send the class on a break?' });
      await visible(ask.getByText(/Everyone checked in to .+ is checked out now/));
      expect(await seriousViolations(page)).toEqual([]);
      await ask.getByRole('button', { name: 'Cancel' }).click();
      await hidden(ask);
      await page.getByRole('button', { name: 'Break for everyone' }).click();
      await ask.getByRole('button', { name: 'Start break' }).click();
      await visible(toastWith(page, 'Class On Break'));
      await visible(state.getByText(/^On break since \d{1,2}:\d{2}\s[AP]M$/));
      const out = await server.db.execute<{ n: number }>(sql`select count(*)::int as n from attendance_breaks where kind = 'instructor' and ended_at is null`);
      expect(out.rows[0]!.n).toBe(1);

      // After a reload the screen still says so.
      await page.reload();
      await visible(state.getByText(/^On break since /));
      expect(await seriousViolations(page)).toEqual([]);
      await screenshot(page, 'class-on-break');

      await page.getByRole('button', { name: 'End break' }).click();
      await visible(toastWith(page, 'Break Ended'));
      await visible(state.getByText(/^Re-check-in open until \d{1,2}:\d{2}\s[AP]M$/));
      const timer = page.getByRole('timer', { name: 'Re-check-in closes in' });
      await visible(timer);
      expect(await timer.textContent()).toMatch(/^0[45]:\d{2}$/);
      await visible(page.getByRole('button', { name: 'Break for everyone' }));
      expect(await seriousViolations(page)).toEqual([]);
      await screenshot(page, 'class-back-from-break');
      expect(errors).toEqual([]);
    });
  });
});
