import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { hidden, newPage, seriousViolations, useBrowserAndServer, usingPage, visible, type TestUser } from './support.ts';

// Decision 046: changing the school's time zone recounted all history (overdue withdrawals
// 4 → 23) and said only "Settings saved". Now Save first shows what the new zone recounts, from the
// server's preview, and saves only on an explicit confirmation.
//
// The school: classes Mon–Fri 08:00–14:00 for ten weeks; Ana checked in and out of every one of
// them through yesterday, Ben never came. On the school's clock Ben alone is overdue; on a clock
// seven or eight hours away none of Ana's check-ins falls in a class and she is overdue too.

const env = useBrowserAndServer();
let admin: TestUser;
let schoolZone: string;
let newZone: string;

beforeAll(async () => {
  const { db } = env.server;
  admin = await env.server.createUser('super_admin');
  const instructor = await env.server.createUser('instructor');
  const one = async <T>(q: ReturnType<typeof sql>) => (await db.execute<T & Record<string, unknown>>(q)).rows[0] as T;
  schoolZone = (await one<{ z: string }>(sql`select time_zone as z from school_settings`)).z;
  newZone = schoolZone === 'America/Los_Angeles' ? 'Europe/Berlin' : 'America/Los_Angeles';
  const { id: programId } = await one<{ id: number }>(sql`insert into programs (program_name) values ('Practical Nursing') returning id`);
  const { id: courseId } = await one<{ id: number }>(
    sql`insert into courses (course_code, course_name, program_id, clock_hours) values ('PN-100', 'Nursing I', ${programId}, 150) returning id`,
  );
  const { id: userId } = await one<{ id: number }>(sql`select id from users where email = ${instructor.email}`);
  const ids: number[] = [];
  for (const day of [1, 2, 3, 4, 5]) {
    const { id } = await one<{ id: number }>(sql`
      insert into schedules (course_id, instructor_id, cohort_number, term_number, day_of_week, start_time, end_time, room_number, course_start_date, course_end_date)
      values (${courseId}, ${userId}, 1, 1, ${day}, '08:00', '14:00', 'B-1', current_date - 70, current_date + 60) returning id`);
    ids.push(id);
  }
  for (const [first, last] of [
    ['Ana', 'Diaz'],
    ['Ben', 'Okafor'],
  ] as const) {
    const { id } = await one<{ id: number }>(sql`
      insert into students (first_name, last_name, sis_student_id, program_id, enrollment_date) values (${first}, ${last}, ${`TZ-${first}`}, ${programId}, current_date - 70) returning id`);
    for (const scheduleId of ids) await db.execute(sql`insert into schedule_rosters (schedule_id, student_id) values (${scheduleId}, ${id})`);
    if (first === 'Ana') {
      await db.execute(sql`
        insert into attendance_records (student_id, schedule_id, session_date, status, source, scan_in_time, scan_out_time)
        select ${id}, s.id, d::date, 'present', 'qr', (d + time '07:58') at time zone ${schoolZone}, (d + time '14:01') at time zone ${schoolZone}
          from schedules s cross join generate_series(current_date - 70, current_date - 1, interval '1 day') d
         where s.id = any(${`{${ids.join(',')}}`}::int[]) and extract(dow from d) = s.day_of_week`);
    }
  }
});

/** The zone the server keeps now. */
const savedZone = async () => (await env.server.db.execute<{ z: string }>(sql`select time_zone as z from school_settings`)).rows[0]!.z;

async function openAttendanceSettings(page: Page): Promise<void> {
  const res = await page.context().request.post('/api/auth/login', { data: { email: admin.email, password: admin.password } });
  expect(res.ok()).toBe(true);
  await page.goto('/settings?tab=attendance');
  await visible(page.getByRole('heading', { name: 'Attendance Rules' }));
}

describe('changing the school time zone', () => {
  it('shows what the new zone recounts before saving, saves nothing on Cancel, and saves only on confirmation', async () => {
    await usingPage(newPage(env.browser, env.server.baseUrl, { width: 1366, height: 900 }), async ({ page, errors }) => {
      await openAttendanceSettings(page);
      await page.getByLabel('School time zone').selectOption(newZone);
      await visible(page.getByText('A new time zone recounts every day of history on the new clock.', { exact: false }));
      await page.getByRole('button', { name: 'Save Settings' }).first().click();

      const dialog = page.getByRole('dialog', { name: 'Change the school time zone?' });
      await visible(dialog);
      const impact = dialog.getByTestId('time-zone-impact');
      await visible(impact);
      const text = (await impact.textContent())!;
      expect(text).toContain(`to ${newZone.replaceAll('_', ' ')}`);
      expect(text).toMatch(/a class at 08:00 happens \d+ hours? (later|earlier) than it does now/);
      expect(text).toMatch(/5 class schedules are read on the new clock/);
      expect(text).toMatch(/Overdue withdrawals: 1 → 2/);
      expect(await seriousViolations(page)).toEqual([]);
      await page.screenshot({ path: path.resolve('docs/screenshots/time-zone-change-1366.png'), scale: 'css' });

      // Cancel: nothing saved, the choice still on the form.
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await hidden(dialog);
      expect(await savedZone()).toBe(schoolZone);

      // Save again and confirm: saved.
      await page.getByRole('button', { name: 'Save Settings' }).first().click();
      await visible(dialog.getByTestId('time-zone-impact'));
      await dialog.getByRole('button', { name: 'Change time zone and recount' }).click();
      await hidden(dialog);
      await visible(page.getByText('Attendance settings have been updated successfully.'));
      expect(await savedZone()).toBe(newZone);
      expect(errors).toEqual([]);
    });
  });

  it('other attendance changes save at once, without the dialog', async () => {
    await usingPage(newPage(env.browser, env.server.baseUrl, { width: 1366, height: 900 }), async ({ page }) => {
      await openAttendanceSettings(page);
      await page.getByLabel('Late threshold (minutes)').fill('12');
      await page.getByRole('button', { name: 'Save Settings' }).first().click();
      await visible(page.getByText('Attendance settings have been updated successfully.'));
      expect(await page.getByRole('dialog').count()).toBe(0);
    });
  });
});
