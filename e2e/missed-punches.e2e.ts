import { sql } from 'drizzle-orm';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localDate, zonedInstant } from '../server/lib/school-time.ts';
import {
  launchBrowser,
  newPage,
  newPhonePage,
  screenshot,
  seriousViolations,
  signIn,
  startServer,
  usingPage,
  visible,
  type E2eServer,
  type TestUser,
} from './support.ts';

/**
 * Missed-punch requests (docs/decisions/053): Rosa checked in at yesterday's class from
 * her phone and forgot to check out. On the phone she asks for the correction (the scan page's
 * link); her instructor approves it on the roster of that meeting; the student page and the
 * Compliance screen show the exception. Each screen and the dialog pass axe.
 */

let browser: Browser;
let server: E2eServer;
let instructor: TestUser;
let admin: TestUser;
const PHONE = 'phoneE2EAAAAAAAAAAAAAAAAAA';
const seeded = {} as { scheduleId: number; studentId: number; date: string };

beforeAll(async () => {
  [browser, server] = await Promise.all([launchBrowser(), startServer()]);
  instructor = await server.createUser('instructor', { firstName: 'Irene', lastName: 'Iverson' });
  admin = await server.createUser('it_admin', { firstName: 'Morgan', lastName: 'Admin' });
  const one = async <T>(q: ReturnType<typeof sql>) => (await server.db.execute<T & Record<string, unknown>>(q)).rows[0] as T;
  const { time_zone: timeZone } = await one<{ time_zone: string }>(sql`select time_zone from school_settings`);
  // Yesterday's class, 08:00–12:00 school time: over, and within the 14 days a student may ask about.
  const date = localDate(new Date(Date.now() - 86_400_000), timeZone);
  const weekday = new Date(`${date}T00:00:00Z`).getUTCDay();
  const { id: instructorId } = await one<{ id: number }>(sql`select id from users where lower(email) = lower(${instructor.email})`);
  const { id: programId } = await one<{ id: number }>(sql`insert into programs (program_name) values ('Cosmetology') returning id`);
  const { id: courseId } = await one<{ id: number }>(
    sql`insert into courses (course_code, course_name, program_id, clock_hours) values ('COS-101', 'Hair Design', ${programId}, 60) returning id`,
  );
  const { id: scheduleId } = await one<{ id: number }>(sql`
    insert into schedules (course_id, instructor_id, cohort_number, term_number, day_of_week, start_time, end_time, course_start_date, course_end_date)
    values (${courseId}, ${instructorId}, 1, 1, ${weekday}, '08:00', '12:00', ${date}::date - 28, ${date}::date + 60) returning id`);
  const { id: studentId } = await one<{ id: number }>(
    sql`insert into students (first_name, last_name, email, sis_student_id, program_id) values ('Rosa', 'Luna', 'rosa.luna@student.example', 'STU-2001', ${programId}) returning id`,
  );
  await server.db.execute(sql`insert into schedule_rosters (schedule_id, student_id) values (${scheduleId}, ${studentId})`);
  await server.db.execute(sql`
    insert into attendance_records (student_id, schedule_id, session_date, status, source, scan_in_time, scheduled_minutes, minutes_attended, device_id)
    values (${studentId}, ${scheduleId}, ${date}, 'present', 'qr', ${zonedInstant(date, 8 * 60 + 5, timeZone).toISOString()}, 240, 235, ${PHONE})`);
  Object.assign(seeded, { scheduleId, studentId, date });
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('a missed check-out', () => {
  it('is asked for on the phone that checked in, approved on the roster, and counted as an exception', async () => {
    await usingPage(newPhonePage(browser, server.baseUrl), async ({ page, errors }) => {
      await page.context().addCookies([{ name: 'muster_device', value: PHONE, domain: '127.0.0.1', path: '/attendance/scan' }]);
      await page.goto('/attendance/missed-punch');
      await visible(page.getByRole('heading', { level: 1, name: 'Forgot to check in or out?' }));
      expect(new URL(page.url()).pathname).toBe('/attendance/scan/missed-punch');
      await visible(page.getByText('No check-out · Checked in at 8:05 AM'));
      expect(await seriousViolations(page)).toEqual([]);
      await page.getByLabel('Time you left').fill('11:55');
      await page.getByLabel('Why is it missing?').fill('My phone died at the end of class');
      await page.getByRole('button', { name: 'Ask for the correction' }).click();
      await visible(page.getByText('Your request was sent. Your instructor will approve or decline it.'));
      await visible(page.getByText('You already asked; your instructor will decide.'));
      await screenshot(page, 'missed-punch-phone');
      expect(await seriousViolations(page)).toEqual([]);
      expect(errors).toEqual([]);
    });

    await usingPage(newPage(browser, server.baseUrl), async ({ page, errors }) => {
      await signIn(page, instructor);
      await page.goto(`/attendance?schedule=${seeded.scheduleId}&date=${seeded.date}`);
      await visible(page.getByRole('heading', { name: 'Missed-punch requests (1)' }));
      await visible(page.getByText('Forgot to check out · says they left at 11:55 AM'));
      await page.getByRole('button', { name: 'Approve the missed punch of Rosa Luna' }).click();
      const dialog = page.getByRole('dialog', { name: 'Approve missed punch' });
      await visible(dialog);
      expect(await dialog.getByLabel('Left at').inputValue()).toBe('11:55');
      await dialog.getByLabel('Reason for approving').fill('I saw her leave at 11:55');
      expect(await seriousViolations(page)).toEqual([]);
      await screenshot(page, 'missed-punch-approve');
      await dialog.getByRole('button', { name: 'Approve', exact: true }).click();
      await visible(page.getByText('Missed punch approved').first());
      await page.getByRole('heading', { name: 'Missed-punch requests (1)' }).waitFor({ state: 'detached' });
      expect(errors).toEqual([]);
    });

    const [record] = (
      await server.db.execute<{ scan_out_time: Date; status: string }>(
        sql`select scan_out_time, status from attendance_records where student_id = ${seeded.studentId}`,
      )
    ).rows;
    expect(record!.status).toBe('present');

    await usingPage(newPage(browser, server.baseUrl), async ({ page, errors }) => {
      await signIn(page, admin);
      await page.goto(`/students/${seeded.studentId}`);
      const summary = page.getByRole('region', { name: 'Punch exceptions' });
      await visible(summary);
      await visible(summary.getByText('rate 100%'));
      expect(await seriousViolations(page)).toEqual([]);
      await page.goto('/compliance');
      const report = page.getByRole('region', { name: 'Punch exceptions' });
      await visible(report.getByRole('link', { name: 'Rosa Luna' }));
      await screenshot(page, 'missed-punch-compliance');
      expect(await seriousViolations(page)).toEqual([]);
      expect(errors).toEqual([]);
    });
  });
});
