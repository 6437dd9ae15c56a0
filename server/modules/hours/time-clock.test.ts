import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attendanceBreaks, attendanceRecords, courses, meetingBreaks, programs, scheduleRosters, schedules, students } from '../../db/schema/index.ts';
import { MIGRATIONS_FOLDER } from '../../db/migrate.ts';
import { createTestApp, fixedClock, type TestApp } from '../../test/helpers.ts';

/*
 * Decision 050: the time-clock rules as the ledger applies them, each scenario a school of its own with
 * hand-computed figures. Chicago; every date below is in April–June 2026 (CDT, UTC−5), so a school
 * time "08:00" is 13:00Z. Read on Monday 15 June 2026.
 */

const clock = fixedClock('2026-06-15T17:00:00Z');
let t: TestApp;
let admin: string;
let instructorId: number;

/** A school-local time on a date (CDT). */
const at = (date: string, hhmm: string) => new Date(`${date}T${hhmm}:00-05:00`);

type Class = { day: number; start: string; end: string; breaks?: { start: string; end: string }[] };
type School = { programId: number; studentId: number; scheduleOf: (day: number, start?: string) => number };

/** A program (new: no time-clock version of its own), a course, its classes and one student on their rosters. */
async function school(name: string, classes: Class[], from: string, to: string): Promise<School> {
  const [{ id: programId }] = (await t.db.insert(programs).values({ programName: name }).returning({ id: programs.id })) as [{ id: number }];
  const [{ id: courseId }] = (await t.db
    .insert(courses)
    .values({ courseCode: `${name.slice(0, 6).toUpperCase()}-${programId}`, courseName: name, programId, clockHours: '600' })
    .returning({ id: courses.id })) as [{ id: number }];
  const ids = new Map<string, number>();
  for (const c of classes) {
    const [{ id }] = (await t.db
      .insert(schedules)
      .values({
        courseId,
        instructorId,
        cohortNumber: 1,
        termNumber: 1,
        dayOfWeek: c.day,
        startTime: c.start,
        endTime: c.end,
        courseStartDate: from,
        courseEndDate: to,
        breaks: c.breaks ?? [],
      })
      .returning({ id: schedules.id })) as [{ id: number }];
    ids.set(`${c.day}|${c.start}`, id);
  }
  const [{ id: studentId }] = (await t.db
    .insert(students)
    .values({ firstName: name, lastName: 'Student', programId, enrollmentDate: from })
    .returning({ id: students.id })) as [{ id: number }];
  await t.db.insert(scheduleRosters).values([...ids.values()].map((scheduleId) => ({ scheduleId, studentId })));
  const scheduleOf = (day: number, start?: string) => (start ? ids.get(`${day}|${start}`)! : [...ids.entries()].find(([k]) => k.startsWith(`${day}|`))![1]);
  return { programId, studentId, scheduleOf };
}

/**
 * A scanned record: check-in and check-out (null: never checked out) school-local on its date, and
 * the breaks between them ([out, back]; back null: never came back). Answers the record's id.
 */
async function punch(
  s: School,
  date: string,
  checkIn: string,
  checkOut: string | null,
  start?: string,
  breaks: [string, string | null][] = [],
): Promise<number> {
  const day = new Date(`${date}T00:00:00Z`).getUTCDay();
  const [{ id }] = (await t.db
    .insert(attendanceRecords)
    .values({
      studentId: s.studentId,
      scheduleId: s.scheduleOf(day, start),
      sessionDate: date,
      status: 'present',
      source: 'qr',
      scanInTime: at(date, checkIn),
      scanOutTime: checkOut ? at(date, checkOut) : null,
    })
    .returning({ id: attendanceRecords.id })) as [{ id: number }];
  for (const [out, back] of breaks) {
    await t.db.insert(attendanceBreaks).values({ recordId: id, kind: 'break', startedAt: at(date, out), endedAt: back ? at(date, back) : null });
  }
  return id;
}

type Day = Record<string, number | string | boolean>;
async function hours(
  s: School,
  from: string,
  to: string,
): Promise<{ days: Map<string, Day>; totals: Record<string, number>; lastDateOfAttendance: string | null }> {
  const res = await t.app.inject({ url: `/api/students/${s.studentId}/hours?asOf=${to}&from=${from}&to=${to}`, headers: { cookie: admin } });
  expect(res.statusCode, res.body).toBe(200);
  const h = res.json();
  return { days: new Map(h.days.map((d: Day) => [d.date, d])), totals: h.totals, lastDateOfAttendance: h.lastDateOfAttendance };
}

const putRules = (programId: number, payload: object) =>
  t.app.inject({ method: 'PUT', url: `/api/programs/${programId}/time-clock`, headers: { cookie: admin }, payload });

let legacy: School;

beforeAll(async () => {
  t = await createTestApp({ clock });
  const sa = (await t.signedIn('super_admin')).cookie;
  await t.app.inject({ method: 'PUT', url: '/api/settings', headers: { cookie: sa }, payload: { attendance: { timeZone: 'America/Chicago' } } });
  admin = (await t.signedIn('it_admin')).cookie;
  instructorId = (await t.signedIn('instructor')).userId;
  // A program that existed before the rules: migration 0026's own statement gives it its version.
  legacy = await school('Legacy', [{ day: 1, start: '08:00', end: '12:00' }], '2026-04-06', '2026-06-30');
  const statements = fs.readFileSync(path.join(MIGRATIONS_FOLDER, '0026_time_clock_rules.sql'), 'utf8').split('--> statement-breakpoint');
  await t.db.$client.query(statements.at(-1)!);
});
afterAll(() => t?.close());

describe('missed punches', () => {
  it('Mississippi-style no_credit, the new-program default: a missed check-out earns 0 and waits as an exception', async () => {
    // Mon 08:00–12:00. 4/6: in 07:55, out 12:05 → 240 (from the start, to the end). 4/13: in 08:10, no out →
    // 0 credited; it would have earned 08:10–12:00 = 230, shown as pendingExceptionMinutes; raw 0 (no pair).
    const s = await school('Mississippi', [{ day: 1, start: '08:00', end: '12:00' }], '2026-04-06', '2026-06-30');
    await punch(s, '2026-04-06', '07:55', '12:05');
    await punch(s, '2026-04-13', '08:10', null);
    const policy = (await t.app.inject({ url: `/api/programs/${s.programId}/time-clock`, headers: { cookie: admin } })).json();
    expect(policy).toMatchObject({ missingCheckOut: 'no_credit', isSet: false, effectiveFrom: null, versions: [] });
    const h = await hours(s, '2026-04-06', '2026-04-13');
    expect(h.days.get('2026-04-06')).toMatchObject({
      scheduledMinutes: 240,
      rawMinutes: 240,
      roundedMinutes: 240,
      attendedMinutes: 240,
      pendingExceptionMinutes: 0,
    });
    expect(h.days.get('2026-04-13')).toMatchObject({
      scheduledMinutes: 240,
      rawMinutes: 0,
      roundedMinutes: 0,
      attendedMinutes: 0,
      creditedMinutes: 0,
      pendingExceptionMinutes: 230,
    });
    expect(h.totals).toMatchObject({ attendedMinutes: 240, creditedMinutes: 240, pendingExceptionMinutes: 230 });
    // The student was there on 4/13: it is their last date of attendance all the same.
    expect(h.lastDateOfAttendance).toBe('2026-04-13');
  });

  it('credit_to_scheduled_end, as before, for a program that existed before the rules', async () => {
    // Mon 08:00–12:00; 4/6: in 08:20, no out → 08:20–12:00 = 220 credited, as Muster always counted it.
    await punch(legacy, '2026-04-06', '08:20', null);
    const policy = (await t.app.inject({ url: `/api/programs/${legacy.programId}/time-clock`, headers: { cookie: admin } })).json();
    expect(policy).toMatchObject({
      missingCheckOut: 'credit_to_scheduled_end',
      rounding: 'none',
      mealDeduction: null,
      dailyMaxMinutes: null,
      weeklyMaxMinutes: null,
      effectiveFrom: null,
      isSet: true,
    });
    const h = await hours(legacy, '2026-04-06', '2026-04-06');
    expect(h.days.get('2026-04-06')).toMatchObject({
      rawMinutes: 0,
      roundedMinutes: 220,
      attendedMinutes: 220,
      creditedMinutes: 220,
      pendingExceptionMinutes: 0,
      autoCheckOutMinutes: 0,
    });
  });

  it('auto_check_out_flagged: checked out at the class end, and flagged', async () => {
    // Mon 08:00–12:00; 4/6: in 08:20, no out → 220 credited, all 220 flagged for review.
    const s = await school('Flagged', [{ day: 1, start: '08:00', end: '12:00' }], '2026-04-06', '2026-06-30');
    expect((await putRules(s.programId, { missingCheckOut: 'auto_check_out_flagged', effectiveFrom: '2026-04-01' })).statusCode).toBe(200);
    await punch(s, '2026-04-06', '08:20', null);
    const h = await hours(s, '2026-04-06', '2026-04-06');
    expect(h.days.get('2026-04-06')).toMatchObject({ attendedMinutes: 220, autoCheckOutMinutes: 220, pendingExceptionMinutes: 0 });
    expect(h.totals).toMatchObject({ autoCheckOutMinutes: 220 });
  });
});

describe('rounding, grace and the meal deduction', () => {
  it('rounds to the nearest 15 minutes with 7 minutes’ grace', async () => {
    // Mon 08:00–12:00, marks every 15 minutes from 08:00.
    //  4/6:  in 08:07 (within grace → 08:00), out 11:53 (233 min → 15.5 marks → 16 → 12:00): 240; raw 226.
    //  4/13: in 08:08 (past grace; 8 → 0.53 → 1 mark → 08:15), out 11:37 (217 → 14.47 → 14 → 11:30): 195; raw 209.
    //  4/20: in 08:23 (23 → 1.53 → 2 → 08:30), out 12:10 (250 → 16.67 → 17 → 12:15, no later than 12:00): 210; raw 217.
    const s = await school('Rounding', [{ day: 1, start: '08:00', end: '12:00' }], '2026-04-06', '2026-06-30');
    expect(
      (await putRules(s.programId, { missingCheckOut: 'no_credit', rounding: 'nearest', roundingMinutes: 15, graceMinutes: 7, effectiveFrom: '2026-04-01' }))
        .statusCode,
    ).toBe(200);
    await punch(s, '2026-04-06', '08:07', '11:53');
    await punch(s, '2026-04-13', '08:08', '11:37');
    await punch(s, '2026-04-20', '08:23', '12:10');
    const h = await hours(s, '2026-04-06', '2026-04-20');
    expect(h.days.get('2026-04-06')).toMatchObject({ rawMinutes: 226, roundedMinutes: 240, attendedMinutes: 240 });
    expect(h.days.get('2026-04-13')).toMatchObject({ rawMinutes: 209, roundedMinutes: 195, attendedMinutes: 195 });
    expect(h.days.get('2026-04-20')).toMatchObject({ rawMinutes: 217, roundedMinutes: 210, attendedMinutes: 210 });
    // 652 raw, 645 counted.
    expect(h.totals).toMatchObject({ rawMinutes: 652, roundedMinutes: 645, attendedMinutes: 645 });
  });

  it('deducts lunch from a 9-hour day without a break punch, not from a day with the break', async () => {
    // Meal rule: after 300 minutes of continuous attendance, 30 minutes.
    //  Tue 4/7, one class 08:00–17:00: in 07:58, out 17:02 → 540 in one stretch (> 300) → 30 deducted: 510.
    //  Wed 4/8, two classes 08:00–12:00 and 12:30–17:30, punched in and out of each: 240 + 300 = 540 with
    //  a 30-minute break between; neither stretch is longer than 300 → nothing deducted: 540.
    const s = await school(
      'Lunch',
      [
        { day: 2, start: '08:00', end: '17:00' },
        { day: 3, start: '08:00', end: '12:00' },
        { day: 3, start: '12:30', end: '17:30' },
      ],
      '2026-04-07',
      '2026-06-30',
    );
    expect(
      (await putRules(s.programId, { missingCheckOut: 'no_credit', mealDeduction: { afterMinutes: 300, minutes: 30 }, effectiveFrom: '2026-04-01' }))
        .statusCode,
    ).toBe(200);
    await punch(s, '2026-04-07', '07:58', '17:02');
    await punch(s, '2026-04-08', '08:00', '12:00', '08:00');
    await punch(s, '2026-04-08', '12:30', '17:30', '12:30');
    const h = await hours(s, '2026-04-07', '2026-04-08');
    expect(h.days.get('2026-04-07')).toMatchObject({
      scheduledMinutes: 540,
      rawMinutes: 540,
      roundedMinutes: 540,
      deductedMinutes: 30,
      attendedMinutes: 510,
      creditedMinutes: 510,
    });
    expect(h.days.get('2026-04-08')).toMatchObject({ scheduledMinutes: 540, rawMinutes: 540, roundedMinutes: 540, deductedMinutes: 0, attendedMinutes: 540 });
    expect(h.totals).toMatchObject({ deductedMinutes: 30, attendedMinutes: 1050 });
  });
});

describe('caps', () => {
  it('counts at most 10 hours a day and 48 a week (Sunday to Saturday), showing what is capped', async () => {
    // Mon–Fri 07:00–19:00 (720), Sat and Sun 08:00–12:00 (240); every meeting punched in full.
    //  Mon 4/6 – Thu 4/9: 720 → 600 counted, 120 capped by the day (2,400 counted this week).
    //  Fri 4/10: 720 → 600 by the day, and only 2,880 − 2,400 = 480 left in the week: 480 counted, 240 capped.
    //  Sat 4/11: 240, the week is full: 0 counted, 240 capped. Sun 4/12 starts a new week: 240 counted.
    //  Totals: 4,080 rounded = 3,120 counted + 960 capped.
    const classes: Class[] = [1, 2, 3, 4, 5].map((day) => ({ day, start: '07:00', end: '19:00' }));
    classes.push({ day: 6, start: '08:00', end: '12:00' }, { day: 0, start: '08:00', end: '12:00' });
    const s = await school('Caps', classes, '2026-04-06', '2026-04-12');
    const saved = await putRules(s.programId, { missingCheckOut: 'no_credit', dailyMaxMinutes: 600, weeklyMaxMinutes: 2880, effectiveFrom: '2026-04-01' });
    expect(saved.statusCode).toBe(200);
    for (const d of ['2026-04-06', '2026-04-07', '2026-04-08', '2026-04-09', '2026-04-10']) await punch(s, d, '07:00', '19:00');
    await punch(s, '2026-04-11', '08:00', '12:00');
    await punch(s, '2026-04-12', '08:00', '12:00');
    const h = await hours(s, '2026-04-06', '2026-04-12');
    for (const d of ['2026-04-06', '2026-04-07', '2026-04-08', '2026-04-09'])
      expect(h.days.get(d), d).toMatchObject({ roundedMinutes: 720, attendedMinutes: 600, cappedMinutes: 120 });
    expect(h.days.get('2026-04-10')).toMatchObject({ roundedMinutes: 720, attendedMinutes: 480, cappedMinutes: 240, creditedMinutes: 480 });
    expect(h.days.get('2026-04-11')).toMatchObject({ roundedMinutes: 240, attendedMinutes: 0, cappedMinutes: 240 });
    expect(h.days.get('2026-04-12')).toMatchObject({ roundedMinutes: 240, attendedMinutes: 240, cappedMinutes: 0 });
    expect(h.totals).toMatchObject({ roundedMinutes: 4080, attendedMinutes: 3120, cappedMinutes: 960, creditedMinutes: 3120 });
    // Capped days were attended all the same.
    expect(h.lastDateOfAttendance).toBe('2026-04-12');
  });
});

describe('a change of rules', () => {
  it('applies from its date: the days before keep the rules in force then', async () => {
    // Mon 08:00–12:00, every check-in at 08:20 and no check-out (220 minutes to the class end).
    //  Before any version (a new program): no_credit → 4/27: 0, 220 pending.
    //  Version of 5/1, credit_to_scheduled_end → 5/4 and 5/11: 220 each.
    //  Version of 5/15, no_credit, saved on 15 June (back-dated) → 5/18 and 5/25: 0, 220 pending each;
    //  5/4 and 5/11 unchanged. It recomputed one student's days (the only one with records from 5/15).
    const s = await school('Midmonth', [{ day: 1, start: '08:00', end: '12:00' }], '2026-04-27', '2026-06-30');
    for (const d of ['2026-04-27', '2026-05-04', '2026-05-11', '2026-05-18', '2026-05-25']) await punch(s, d, '08:20', null);
    expect((await putRules(s.programId, { missingCheckOut: 'credit_to_scheduled_end', effectiveFrom: '2026-05-01' })).json()).toMatchObject({
      recomputedStudents: 1,
    });
    const before = await hours(s, '2026-04-27', '2026-05-25');
    expect([...before.days.values()].filter((d) => d.scheduledMinutes).map((d) => [d.date, d.attendedMinutes, d.pendingExceptionMinutes])).toEqual([
      ['2026-04-27', 0, 220],
      ['2026-05-04', 220, 0],
      ['2026-05-11', 220, 0],
      ['2026-05-18', 220, 0],
      ['2026-05-25', 220, 0],
    ]);

    expect((await t.app.inject({ url: `/api/programs/${s.programId}/time-clock/impact?effectiveFrom=2026-05-15`, headers: { cookie: admin } })).json()).toEqual(
      { effectiveFrom: '2026-05-15', recomputedStudents: 1 },
    );
    const res = await putRules(s.programId, { missingCheckOut: 'no_credit', effectiveFrom: '2026-05-15' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ missingCheckOut: 'no_credit', effectiveFrom: '2026-05-15', isSet: true, recomputedStudents: 1 });
    expect(res.json().versions.map((v: { effectiveFrom: string; missingCheckOut: string }) => [v.effectiveFrom, v.missingCheckOut])).toEqual([
      ['2026-05-15', 'no_credit'],
      ['2026-05-01', 'credit_to_scheduled_end'],
    ]);
    const after = await hours(s, '2026-04-27', '2026-05-25');
    expect([...after.days.values()].filter((d) => d.scheduledMinutes).map((d) => [d.date, d.attendedMinutes, d.pendingExceptionMinutes])).toEqual([
      ['2026-04-27', 0, 220],
      ['2026-05-04', 220, 0],
      ['2026-05-11', 220, 0],
      ['2026-05-18', 0, 220],
      ['2026-05-25', 0, 220],
    ]);
    expect(after.totals).toMatchObject({ attendedMinutes: 440, pendingExceptionMinutes: 660 });
  });
});

describe('several punches per meeting', () => {
  it('takes each break out of the day, and a punched lunch instead of the meal deduction', async () => {
    // Meal rule: after 300 minutes of continuous attendance, 30 minutes. Tue 08:00–17:00 (540).
    //  4/7: in 07:58, lunch 12:00–12:45, out 17:02 → stretches 240 and 255, neither over 300:
    //       raw = rounded = 495, nothing deducted, 495 counted (the punched 45 instead of the rule's 30).
    //  4/14: in 08:00, break 10:00–10:10, out 17:00 → stretches 120 and 410: the second is over 300,
    //       so 30 deducted: 530 − 30 = 500.
    //  4/21: in 08:00, out for a break at 11:00 and never back → the break's start is the check-out:
    //       180, no missing check-out, nothing pending.
    const s = await school('Punches', [{ day: 2, start: '08:00', end: '17:00' }], '2026-04-07', '2026-06-30');
    expect(
      (await putRules(s.programId, { missingCheckOut: 'no_credit', mealDeduction: { afterMinutes: 300, minutes: 30 }, effectiveFrom: '2026-04-01' }))
        .statusCode,
    ).toBe(200);
    await punch(s, '2026-04-07', '07:58', '17:02', undefined, [['12:00', '12:45']]);
    await punch(s, '2026-04-14', '08:00', '17:00', undefined, [['10:00', '10:10']]);
    await punch(s, '2026-04-21', '08:00', null, undefined, [['11:00', null]]);
    const h = await hours(s, '2026-04-07', '2026-04-21');
    expect(h.days.get('2026-04-07')).toMatchObject({ scheduledMinutes: 540, rawMinutes: 495, roundedMinutes: 495, deductedMinutes: 0, attendedMinutes: 495 });
    expect(h.days.get('2026-04-14')).toMatchObject({ rawMinutes: 530, roundedMinutes: 530, deductedMinutes: 30, attendedMinutes: 500 });
    expect(h.days.get('2026-04-21')).toMatchObject({ rawMinutes: 180, attendedMinutes: 180, pendingExceptionMinutes: 0 });
    expect(h.totals).toMatchObject({ attendedMinutes: 1175, deductedMinutes: 30 });
  });

  it('rounds every punch, a return from a break included', async () => {
    // Nearest 15 with 7 minutes' grace, Mon 08:00–12:00: in 08:05 (→ 08:00), break out 09:52 (→ 09:45),
    // back 10:08 (→ 10:15: grace is for the class start only), out 11:56 (→ 12:00): 105 + 105 = 210.
    // Raw: 107 (08:05–09:52) + 108 (10:08–11:56) = 215.
    const s = await school('RoundBreaks', [{ day: 1, start: '08:00', end: '12:00' }], '2026-04-06', '2026-06-30');
    expect(
      (await putRules(s.programId, { missingCheckOut: 'no_credit', rounding: 'nearest', roundingMinutes: 15, graceMinutes: 7, effectiveFrom: '2026-04-01' }))
        .statusCode,
    ).toBe(200);
    await punch(s, '2026-04-06', '08:05', '11:56', undefined, [['09:52', '10:08']]);
    const h = await hours(s, '2026-04-06', '2026-04-06');
    expect(h.days.get('2026-04-06')).toMatchObject({ rawMinutes: 215, roundedMinutes: 210, attendedMinutes: 210 });
  });

  it('never counts a scheduled break as class time, for the schedule or the student', async () => {
    // Wed 08:00–17:00 with a scheduled lunch 12:00–12:30: 510 scheduled. In 07:55, out 17:05: 510 counted;
    // the meal rule (after 300) finds stretches of 240 and 270, nothing to deduct.
    // Missed check-out under auto_check_out_flagged: in 13:00 → to 17:00, 240 credited and flagged.
    const s = await school(
      'ScheduledLunch',
      [{ day: 3, start: '08:00', end: '17:00', breaks: [{ start: '12:00', end: '12:30' }] }],
      '2026-04-08',
      '2026-06-30',
    );
    expect(
      (
        await putRules(s.programId, {
          missingCheckOut: 'auto_check_out_flagged',
          mealDeduction: { afterMinutes: 300, minutes: 30 },
          effectiveFrom: '2026-04-01',
        })
      ).statusCode,
    ).toBe(200);
    await punch(s, '2026-04-08', '07:55', '17:05');
    await punch(s, '2026-04-15', '11:00', null);
    const h = await hours(s, '2026-04-08', '2026-04-15');
    expect(h.days.get('2026-04-08')).toMatchObject({ scheduledMinutes: 510, rawMinutes: 510, deductedMinutes: 0, attendedMinutes: 510 });
    // 11:00–17:00 less the 30-minute lunch: 330, all of it for the missing check-out.
    expect(h.days.get('2026-04-15')).toMatchObject({ scheduledMinutes: 510, attendedMinutes: 330, autoCheckOutMinutes: 330 });
  });

  it('takes an instructor-led break out of the meeting for everyone; who never came back left at its start', async () => {
    // Thu 08:00–12:00 (240); the instructor's break 10:00–10:15 makes it 225 scheduled.
    //  Back in the window (the break ends at the meeting break's end): 120 + 105 = 225.
    //  Never back: 120. Checked in at 10:05, during the break: from 10:15, 105.
    const a = await school('LedBreakA', [{ day: 4, start: '08:00', end: '12:00' }], '2026-04-09', '2026-06-30');
    await putRules(a.programId, { missingCheckOut: 'no_credit', effectiveFrom: '2026-04-01' });
    const scheduleId = a.scheduleOf(4);
    const [{ id: meetingBreakId }] = (await t.db
      .insert(meetingBreaks)
      .values({
        scheduleId,
        sessionDate: '2026-04-09',
        startedAt: at('2026-04-09', '10:00'),
        endedAt: at('2026-04-09', '10:15'),
        recheckUntil: at('2026-04-09', '10:20'),
      })
      .returning({ id: meetingBreaks.id })) as [{ id: number }];
    const classmate = async (n: number): Promise<School> => {
      const [{ id }] = (await t.db
        .insert(students)
        .values({ firstName: `Led${n}`, lastName: 'Student', programId: a.programId, enrollmentDate: '2026-04-09' })
        .returning({ id: students.id })) as [{ id: number }];
      await t.db.insert(scheduleRosters).values({ scheduleId, studentId: id });
      return { ...a, studentId: id };
    };
    const b = await classmate(1);
    const c = await classmate(2);
    const back = await punch(a, '2026-04-09', '08:00', '12:00');
    const gone = await punch(b, '2026-04-09', '08:00', null);
    await punch(c, '2026-04-09', '10:05', '12:00');
    await t.db.insert(attendanceBreaks).values([
      { recordId: back, kind: 'instructor', meetingBreakId, startedAt: at('2026-04-09', '10:00'), endedAt: at('2026-04-09', '10:15') },
      { recordId: gone, kind: 'instructor', meetingBreakId, startedAt: at('2026-04-09', '10:00'), endedAt: null },
    ]);
    const day = async (s: School) => (await hours(s, '2026-04-09', '2026-04-09')).days.get('2026-04-09');
    expect(await day(a)).toMatchObject({ scheduledMinutes: 225, attendedMinutes: 225 });
    expect(await day(b)).toMatchObject({ scheduledMinutes: 225, attendedMinutes: 120, pendingExceptionMinutes: 0 });
    expect(await day(c)).toMatchObject({ scheduledMinutes: 225, attendedMinutes: 105 });
  });
});
