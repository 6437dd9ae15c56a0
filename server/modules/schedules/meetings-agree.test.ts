import fc from 'fast-check';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '../../../common/dates.ts';
import { whyNotAMeeting } from '../../../common/meeting-rule.ts';
import { classMinutes, meetingCountBetween } from '../../db/meeting-rule.ts';
import { createTestApp, type TestApp } from '../../test/helpers.ts';
import { classWindow, scheduledMinutes } from '../attendance/service.ts';
import { seedClass } from '../attendance/test-support.ts';
import { selectMeetingsOn } from './queries.ts';

// A meeting is said twice: in TypeScript (common/hours.ts whyNotAMeeting: the ledger, manual
// records, the start check) and in SQL (server/db/meeting-rule.ts: today's classes, the dashboard's
// classes of a day and meetings still to come). On random calendars the two must name the same days.
// A class's length too: attendance/rules.ts scheduledMinutes and meeting-rule.ts classMinutes (the
// dashboard's minutes still to come), both less the schedule's breaks (decision 052).

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
          const calendar = {
            courseStartDate: day(10),
            courseEndDate: day(10 + c.length),
            dayOfWeek: c.weekday,
            holidayExceptions: c.holidays.map(day),
            makeupDates: c.makeups.map(day),
          };
          await t.db.execute(sql`
            update schedules set course_start_date = ${calendar.courseStartDate}, course_end_date = ${calendar.courseEndDate},
                   day_of_week = ${calendar.dayOfWeek}, is_active = ${c.isActive},
                   holiday_exceptions = ${`{${calendar.holidayExceptions.join(',')}}`}::date[], makeup_dates = ${`{${calendar.makeupDates.join(',')}}`}::date[]
             where id = ${scheduleId}`);
          const from = day(c.from);
          const { rows } = await t.db.execute<{ n: number }>(
            sql`select ${meetingCountBetween('s', sql`${from}::date`, sql`'infinity'::date`)} as n from schedules s where s.id = ${scheduleId}`,
          );
          let inTs = 0;
          for (let d = from; d <= day(170); d = addDays(d, 1))
            if (calendar.makeupDates.includes(d) || (c.isActive && whyNotAMeeting(d, calendar) === null)) inTs++;
          expect(rows[0]!.n, JSON.stringify({ ...calendar, isActive: c.isActive, from })).toBe(inTs);
        },
      ),
      { numRuns: 100 },
    );
  });

  it("agree on a class's scheduled minutes, less its breaks, on random times (past midnight too)", async () => {
    const hhmm = (m: number) => `${String(Math.floor((m % 1440) / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          start: fc.integer({ min: 0, max: 1439 }),
          length: fc.integer({ min: 1, max: 1439 }),
          // Cut points inside the class: each pair of neighbours may be a break (none overlap, as the contract keeps them).
          cuts: fc.uniqueArray(fc.integer({ min: 0, max: 1000 }), { minLength: 0, maxLength: 8 }),
          taken: fc.array(fc.boolean(), { minLength: 4, maxLength: 4 }),
        }),
        async (c) => {
          const points = [...new Set(c.cuts.map((x) => Math.floor((x * c.length) / 1000)))].sort((a, b) => a - b);
          const breaks: { start: string; end: string }[] = [];
          for (let i = 0; i + 1 < points.length && breaks.length < 4; i += 2) {
            if (c.taken[breaks.length] && points[i + 1]! > points[i]!) breaks.push({ start: hhmm(c.start + points[i]!), end: hhmm(c.start + points[i + 1]!) });
          }
          const startTime = hhmm(c.start);
          const endTime = hhmm(c.start + c.length);
          await t.db.execute(
            sql`update schedules set start_time = ${startTime}::time, end_time = ${endTime}::time, breaks = ${JSON.stringify(breaks)}::jsonb where id = ${scheduleId}`,
          );
          const { rows } = await t.db.execute<{ n: number }>(sql`select ${classMinutes('s')} as n from schedules s where s.id = ${scheduleId}`);
          // A day without a daylight-saving change: the SQL counts the clock, the TypeScript real minutes.
          const inTs = scheduledMinutes(classWindow('2026-01-12', startTime, endTime, 'America/Chicago', breaks));
          expect(rows[0]!.n, JSON.stringify({ startTime, endTime, breaks })).toBe(inTs);
        },
      ),
      { numRuns: 200 },
    );
  });
});
