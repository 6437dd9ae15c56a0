import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { purgeExpiredData } from '../../jobs/retention.ts';
import { buildWithdrawal } from '../../test/factories.ts';
import { createTestApp, fixedClock, type TestApp } from '../../test/helpers.ts';
import { seedClass, type TestClass } from '../attendance/test-support.ts';

// Retention must never erase a student's hours (decision 049; COMPLIANCE.md, "Retention"): attendance
// detail goes only for students who left longer ago than the retention period, counted from their
// exit, and only after their hours are frozen for good. Before, dataRetentionYears deleted every
// record older than the period by its own date: a graduate's hours, time card and reports vanished.
// The class meets on Mondays 08:00–12:00 in Chicago, 2026-01-05 to 2026-06-01 (test-support.ts).

const clock = fixedClock('2026-03-16T18:00:00Z');
let t: TestApp;
let cls: TestClass;
let sa: string;
const MONDAYS = [
  '2026-01-05',
  '2026-01-12',
  '2026-01-19',
  '2026-01-26',
  '2026-02-02',
  '2026-02-09',
  '2026-02-16',
  '2026-02-23',
  '2026-03-02',
  '2026-03-09',
  '2026-03-16',
];

const recordsOf = async (studentId: number) =>
  (await t.db.execute<{ n: number }>(sql`select count(*)::int as n from attendance_records where student_id = ${studentId}`)).rows[0]!.n;
const hours = async (studentId: number) => {
  // Signed in afresh: the clock jumps years between reads.
  const res = await t.app.inject({ url: `/api/students/${studentId}/hours`, headers: { cookie: (await t.signedIn('super_admin')).cookie } });
  expect(res.statusCode).toBe(200);
  return res.json();
};

beforeAll(async () => {
  t = await createTestApp({ clock });
  cls = await seedClass(t, 3);
  sa = (await t.signedIn('super_admin')).cookie;
  // Every Monday so far: students 0 and 2 present, student 1 present until 2 March, then absent.
  for (const date of MONDAYS) {
    for (const [i, s] of cls.students.entries()) {
      const status = i === 1 && date > '2026-03-02' ? 'absent' : date === '2026-02-09' && i === 0 ? 'late' : 'present';
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/attendance',
        headers: { cookie: cls.admin },
        payload: {
          scheduleId: cls.scheduleId,
          studentId: s.id,
          sessionDate: date,
          status,
          overrideReason: 'Paper sheet',
          ...(status === 'late' ? { scanInTime: '2026-02-09T14:40:00Z' } : {}),
        },
      });
      expect(res.statusCode, res.body).toBe(201);
    }
  }
  // Student 0 graduates at the end of the course; student 1 withdrew on 9 March (LDA 2 March); student 2 is still enrolled.
  await t.db.execute(sql`update students set status = 'graduated', graduation_date = '2026-06-01' where id = ${cls.students[0]!.id}`);
  await t.db.execute(sql`update students set status = 'withdrawn' where id = ${cls.students[1]!.id}`);
  await buildWithdrawal(t.db, {
    studentId: cls.students[1]!.id,
    withdrawalDate: '2026-03-09',
    determinationDate: '2026-03-16',
    lastDateOfAttendance: '2026-03-02',
    reason: 'Moved away',
    statusBefore: 'enrolled',
  });
  const put = await t.app.inject({ method: 'PUT', url: '/api/settings', headers: { cookie: sa }, payload: { system: { dataRetentionYears: 7 } } });
  expect(put.statusCode).toBe(200);
});
afterAll(() => t?.close());

describe('retention keeps hours', () => {
  it('removes the detail of students who left more than the period ago, keeps everyone else, and their hours read the same', async () => {
    clock.set('2026-06-02T18:00:00Z');
    const [graduate, withdrawn, enrolled] = cls.students.map((s) => s.id) as [number, number, number];
    const before = await hours(graduate);
    const beforeWithdrawn = await hours(withdrawn);
    expect(before.totals.creditedMinutes).toBeGreaterThan(0);
    expect(before.transcript).toBeUndefined();

    // Seven years after the January records, but less than seven after either exit: nothing goes.
    clock.set('2033-03-01T12:00:00Z');
    const early = await purgeExpiredData(t.db, clock);
    expect(early).toMatchObject({ removed: { attendance_records: 0 } });
    expect(await recordsOf(graduate)).toBe(MONDAYS.length);
    expect(await recordsOf(withdrawn)).toBe(MONDAYS.length);
    expect(await recordsOf(enrolled)).toBe(MONDAYS.length);

    // Eight years on: both have left more than seven years ago; the enrolled student's old records stay.
    clock.set('2034-06-15T12:00:00Z');
    const run = await purgeExpiredData(t.db, clock);
    expect(run).toMatchObject({ hoursTranscriptsFrozen: 2, removed: { attendance_records: 2 * MONDAYS.length } });
    expect(await recordsOf(graduate)).toBe(0);
    expect(await recordsOf(withdrawn)).toBe(0);
    expect(await recordsOf(enrolled)).toBe(MONDAYS.length);

    const after = await hours(graduate);
    expect(after.transcript).toMatchObject({ exitDate: '2026-06-01' });
    expect(after.totals).toEqual(before.totals);
    expect(after.paymentPeriods).toEqual(before.paymentPeriods);
    expect(after.lastDateOfAttendance).toBe(before.lastDateOfAttendance);
    expect(after.days).toEqual([]);
    const afterWithdrawn = await hours(withdrawn);
    expect(afterWithdrawn.transcript).toMatchObject({ exitDate: '2026-03-09' });
    expect(afterWithdrawn.totals).toEqual(beforeWithdrawn.totals);
    expect(afterWithdrawn.lastDateOfAttendance).toBe('2026-03-02');

    // The hours list reads the transcript too.
    const list = await t.app.inject({
      url: `/api/hours?search=${encodeURIComponent(cls.students[0]!.last)}`,
      headers: { cookie: (await t.signedIn('super_admin')).cookie },
    });
    expect(list.statusCode).toBe(200);
    expect(list.json()[0]).toMatchObject({ studentId: graduate, totals: before.totals });

    // Said in the audit log; a second run changes nothing.
    const { rows } = await t.db.execute<{ v: { hoursTranscriptsFrozen: number } }>(
      sql`select new_values as v from audit_logs where action = 'Purge' order by id desc limit 1`,
    );
    expect(rows[0]!.v.hoursTranscriptsFrozen).toBe(2);
    expect(await purgeExpiredData(t.db, clock)).toMatchObject({ hoursTranscriptsFrozen: 0, removed: { attendance_records: 0 } });
    const { rows: kept } = await t.db.execute<{ n: number }>(sql`select count(*)::int as n from student_hours_transcripts`);
    expect(kept[0]!.n).toBe(2);
  });
});
