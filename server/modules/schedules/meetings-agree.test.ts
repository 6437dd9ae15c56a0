import fc from 'fast-check';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, whyNotAMeeting } from '../../../common/hours.ts';
import { meetingCountBetween } from '../../db/meeting-rule.ts';
import { createTestApp, type TestApp } from '../../test/helpers.ts';
import { seedClass } from '../attendance/test-support.ts';
import { selectMeetingsOn } from './queries.ts';

// A meeting is said twice: in TypeScript (common/hours.ts whyNotAMeeting: the ledger, manual
// records, the start check) and in SQL (server/db/meeting-rule.ts: today's classes, the dashboard's
// classes of a day and meetings still to come). On random calendars the two must name the same days.

let t: TestApp;
let scheduleId: number;
beforeAll(async () => {
  t = await createTestApp();
  scheduleId = (await seedClass(t, 1, 'M')).scheduleId;
});
afterAll(() => t.close());

const day = (offset: number) => addDays('2026-01-05', offset);

describe('the meeting rule in SQL and in TypeScript', () => {
  it('agree on which days a schedule meets', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          date: fc.integer({ min: 0, max: 150 }),
          // Days from the course's start to the date (negative: the course starts after it).
          sinceStart: fc.integer({ min: -10, max: 60 }),
          length: fc.integer({ min: 0, max: 90 }),
          onItsWeekday: fc.boolean(),
          otherWeekday: fc.integer({ min: 0, max: 6 }),
          holidays: fc.uniqueArray(fc.integer({ min: -10, max: 160 }), { maxLength: 4 }),
          makeups: fc.uniqueArray(fc.integer({ min: -10, max: 160 }), { maxLength: 2 }),
          dateIsHoliday: fc.boolean(),
          dateIsMakeup: fc.boolean(),
          isActive: fc.boolean(),
        }),
        async (c) => {
          // Biased towards the edges that matter: the date on the class's weekday, within its dates,
          // on a holiday or a make-up date, about half the time each.
          const date = day(c.date);
          const weekday = new Date(`${date}T00:00:00Z`).getUTCDay();
          const plusDate = (days: number[], add: boolean) => [...new Set([...days.map(day), ...(add ? [date] : [])])];
          const calendar = {
            courseStartDate: day(c.date - c.sinceStart),
            courseEndDate: day(c.date - c.sinceStart + c.length),
            dayOfWeek: c.onItsWeekday ? weekday : c.otherWeekday,
            holidayExceptions: plusDate(c.holidays, c.dateIsHoliday),
            makeupDates: plusDate(c.makeups, c.dateIsMakeup),
          };
          await t.db.execute(sql`
            update schedules set course_start_date = ${calendar.courseStartDate}, course_end_date = ${calendar.courseEndDate},
                   day_of_week = ${calendar.dayOfWeek}, is_active = ${c.isActive},
                   holiday_exceptions = ${`{${calendar.holidayExceptions.join(',')}}`}::date[], makeup_dates = ${`{${calendar.makeupDates.join(',')}}`}::date[]
             where id = ${scheduleId}`);
          const inSql = (await selectMeetingsOn(t.db, { date, now: new Date(), scheduleId })).length === 1;
          // A make-up date is a meeting even of an inactive schedule; otherwise the schedule must be active.
          const inTs = calendar.makeupDates.includes(date) || (c.isActive && whyNotAMeeting(date, calendar) === null);
          expect(inSql, JSON.stringify({ ...calendar, isActive: c.isActive, date })).toBe(inTs);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('agree on how many meetings are left, make-up dates after the course end included (the dashboard once left them out)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          from: fc.integer({ min: 0, max: 120 }),
          length: fc.integer({ min: 0, max: 90 }),
          weekday: fc.integer({ min: 0, max: 6 }),
          holidays: fc.uniqueArray(fc.integer({ min: 0, max: 130 }), { maxLength: 4 }),
          makeups: fc.uniqueArray(fc.integer({ min: 0, max: 160 }), { maxLength: 3 }),
          isActive: fc.boolean(),
        }),
        async (c) => {
          const calendar = { courseStartDate: day(10), courseEndDate: day(10 + c.length), dayOfWeek: c.weekday, holidayExceptions: c.holidays.map(day), makeupDates: c.makeups.map(day) };
          await t.db.execute(sql`
            update schedules set course_start_date = ${calendar.courseStartDate}, course_end_date = ${calendar.courseEndDate},
                   day_of_week = ${calendar.dayOfWeek}, is_active = ${c.isActive},
                   holiday_exceptions = ${`{${calendar.holidayExceptions.join(',')}}`}::date[], makeup_dates = ${`{${calendar.makeupDates.join(',')}}`}::date[]
             where id = ${scheduleId}`);
          const from = day(c.from);
          const { rows } = await t.db.execute<{ n: number }>(sql`select ${meetingCountBetween('s', sql`${from}::date`, sql`'infinity'::date`)} as n from schedules s where s.id = ${scheduleId}`);
          let inTs = 0;
          for (let d = from; d <= day(170); d = addDays(d, 1)) if (calendar.makeupDates.includes(d) || (c.isActive && whyNotAMeeting(d, calendar) === null)) inTs++;
          expect(rows[0]!.n, JSON.stringify({ ...calendar, isActive: c.isActive, from })).toBe(inTs);
        },
      ),
      { numRuns: 100 },
    );
  });
});
