import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, fixedClock, type TestApp } from '../../test/helpers.ts';
import { seedClass, type TestClass } from './test-support.ts';
import { whyNotAMeeting } from './rules.ts';

// Manual records: an instructor may add a record only for a meeting of that class,
// not for any past date. The class meets on Mondays, 2026-01-05 to 2026-06-01 (test-support.ts).

// Monday 16 March 2026, 10:00 in Chicago.
const clock = fixedClock('2026-03-16T15:00:00Z');
let t: TestApp;
let cls: TestClass;

beforeAll(async () => {
  t = await createTestApp({ clock });
  cls = await seedClass(t, 4);
  // Spring break on Monday 9 March, made up on Wednesday 11 March; the last student enrolled in February.
  await t.db.execute(sql`update schedules set holiday_exceptions = '{2026-03-09}', makeup_dates = '{2026-03-11}' where id = ${cls.scheduleId}`);
  await t.db.execute(sql`update students set enrollment_date = '2026-02-01' where id = ${cls.students[3]!.id}`);
});
afterAll(() => t?.close());

const add = (studentIndex: number, sessionDate: string | undefined, cookie = cls.instructor.cookie) =>
  t.app.inject({
    method: 'POST',
    url: '/api/attendance',
    headers: { cookie },
    payload: {
      scheduleId: cls.scheduleId,
      studentId: cls.students[studentIndex]!.id,
      status: 'present',
      overrideReason: 'Signed the paper sheet',
      ...(sessionDate ? { sessionDate } : {}),
    },
  });

const refusedField = (res: { statusCode: number; json: () => { errors?: { field: string; message: string }[] } }) => {
  expect(res.statusCode).toBe(400);
  return res.json().errors?.[0];
};

describe('POST /api/attendance (a manual record)', () => {
  it('refuses a date outside the course, even a Monday in 2020', async () => {
    const error = refusedField(await add(0, '2020-03-02'));
    expect(error).toMatchObject({ field: 'sessionDate' });
    expect(error!.message).toContain('2026-01-05 to 2026-06-01');
  });

  it('refuses a day the class does not meet', async () => {
    const error = refusedField(await add(0, '2026-03-10')); // a Tuesday
    expect(error).toEqual({ field: 'sessionDate', message: 'The class meets on Mondays; 2026-03-10 is a Tuesday' });
  });

  it('refuses a holiday of the class, and accepts its make-up date', async () => {
    expect(refusedField(await add(0, '2026-03-09'))).toMatchObject({ field: 'sessionDate', message: expect.stringContaining('holiday') });
    const makeup = await add(0, '2026-03-11'); // a Wednesday, but a make-up meeting
    expect(makeup.statusCode).toBe(201);
    expect(makeup.json()).toMatchObject({ sessionDate: '2026-03-11', status: 'present', source: 'manual', isManualOverride: true });
  });

  it('refuses a meeting before the student enrolled, and accepts one after', async () => {
    expect(refusedField(await add(3, '2026-01-26'))).toEqual({
      field: 'sessionDate',
      message: 'The student enrolled on 2026-02-01; 2026-01-26 is before that',
    });
    expect((await add(3, '2026-02-02')).statusCode).toBe(201);
  });

  it('refuses a future meeting, and takes today when it is a meeting', async () => {
    expect(refusedField(await add(1, '2026-03-23'))).toMatchObject({ field: 'sessionDate' });
    const today = await add(1, undefined);
    expect(today.statusCode).toBe(201);
    expect(today.json().sessionDate).toBe('2026-03-16');
  });

  it('refuses a day the whole school is closed, even a make-up date, as it refuses holidays', async () => {
    const admin = (await t.signedIn('super_admin')).cookie;
    const closure = await t.app.inject({
      method: 'POST',
      url: '/api/calendar/closures',
      headers: { cookie: admin },
      payload: { startDate: '2026-02-16', endDate: '2026-02-18', name: "Presidents' Day" },
    });
    expect(closure.statusCode).toBe(201);
    await t.db.execute(sql`update schedules set makeup_dates = '{2026-03-11,2026-02-18}' where id = ${cls.scheduleId}`);
    expect(refusedField(await add(0, '2026-02-16'))).toEqual({
      field: 'sessionDate',
      message: "The school is closed on 2026-02-16 (Presidents' Day): the class does not meet that day",
    });
    expect(refusedField(await add(0, '2026-02-18'))).toMatchObject({ field: 'sessionDate', message: expect.stringContaining('closed') });
    const { rows } = await t.db.execute<{ n: number }>(
      sql`select count(*)::int as n from attendance_records where session_date between '2026-02-16' and '2026-02-18'`,
    );
    expect(rows[0]!.n).toBe(0);
    expect((await add(0, '2026-02-23')).statusCode).toBe(201);
  });

  it('refuses today when the class does not meet today, for administrators too', async () => {
    clock.set('2026-03-17T15:00:00Z'); // Tuesday
    const admin = (await t.signedIn('it_admin')).cookie;
    expect(refusedField(await add(2, undefined, admin))).toMatchObject({
      field: 'sessionDate',
      message: 'The class meets on Mondays; 2026-03-17 is a Tuesday',
    });
    const { rows } = await t.db.execute<{ n: number }>(sql`select count(*)::int as n from attendance_records where student_id = ${cls.students[2]!.id}`);
    expect(rows[0]!.n).toBe(0);
  });
});

describe('whyNotAMeeting', () => {
  const calendar = { courseStartDate: '2026-01-05', courseEndDate: '2026-06-01', dayOfWeek: 1, holidayExceptions: ['2026-03-09'], makeupDates: ['2026-06-03'] };
  it('takes the first and last days of the course and make-up dates past its end', () => {
    expect(whyNotAMeeting('2026-01-05', calendar)).toBeNull();
    expect(whyNotAMeeting('2026-06-01', calendar)).toBeNull();
    expect(whyNotAMeeting('2026-06-03', calendar)).toBeNull();
    expect(whyNotAMeeting('2025-12-29', calendar)).toContain('outside');
    expect(whyNotAMeeting('2026-06-08', calendar)).toContain('outside');
  });
  it('names the weekday for a Sunday class (day 0)', () => {
    expect(whyNotAMeeting('2026-03-02', { ...calendar, dayOfWeek: 0 })).toBe('The class meets on Sundays; 2026-03-02 is a Monday');
    expect(whyNotAMeeting('2026-03-01', { ...calendar, dayOfWeek: 0 })).toBeNull();
  });
});
