import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attendanceRecords, courses, schedules, students } from '../../db/schema/index.ts';
import { auditEntries, createTestApp, fixedClock, type TestApp } from '../../test/helpers.ts';

/*
 * Decision 050: GET/PUT /api/programs/{id}/time-clock and GET /api/time-clock/presets. Read by every
 * role that sees programs, set by super_admin and it_admin, audited with the old and new values and
 * the number of students whose days a back-dated change recomputed. The ledger's side is
 * server/modules/hours/time-clock.test.ts. Today is Monday 15 June 2026 (UTC, the default zone).
 */

const clock = fixedClock('2026-06-15T17:00:00Z');
let t: TestApp;
let admin: string, superAdmin: string, support: string, instructor: string;
let programId: number;

beforeAll(async () => {
  t = await createTestApp({ clock });
  admin = (await t.signedIn('it_admin')).cookie;
  superAdmin = (await t.signedIn('super_admin')).cookie;
  support = (await t.signedIn('support_staff')).cookie;
  const teacher = await t.signedIn('instructor');
  instructor = teacher.cookie;
  programId = (await t.app.inject({ method: 'POST', url: '/api/programs', headers: { cookie: admin }, payload: { programName: 'Barbering' } })).json().id;
  // Records of two students on 1 June and of one of them on 8 June: a change from 1 June recomputes 2, from 2 June 1.
  const [{ id: courseId }] = (await t.db
    .insert(courses)
    .values({ courseCode: 'BAR-1', courseName: 'Barbering I', programId, clockHours: '100' })
    .returning({ id: courses.id })) as [{ id: number }];
  const [{ id: scheduleId }] = (await t.db
    .insert(schedules)
    .values({
      courseId,
      instructorId: teacher.userId,
      cohortNumber: 1,
      termNumber: 1,
      dayOfWeek: 1,
      startTime: '08:00',
      endTime: '12:00',
      courseStartDate: '2026-06-01',
      courseEndDate: '2026-06-30',
    })
    .returning({ id: schedules.id })) as [{ id: number }];
  const ids = (
    await t.db
      .insert(students)
      .values([
        { firstName: 'Ana', lastName: 'One', programId },
        { firstName: 'Bo', lastName: 'Two', programId },
      ])
      .returning({ id: students.id })
  ).map((s) => s.id);
  await t.db.insert(attendanceRecords).values([
    ...ids.map((studentId) => ({
      studentId,
      scheduleId,
      sessionDate: '2026-06-01',
      status: 'present' as const,
      source: 'manual',
      isManualOverride: true,
      overrideReason: 'Sheet',
    })),
    { studentId: ids[0]!, scheduleId, sessionDate: '2026-06-08', status: 'present', source: 'manual', isManualOverride: true, overrideReason: 'Sheet' },
  ]);
});
afterAll(() => t?.close());

const url = (id = programId) => `/api/programs/${id}/time-clock`;
const get = (cookie: string, id = programId) => t.app.inject({ url: url(id), headers: { cookie } });
const put = (cookie: string, payload: object, id = programId) => t.app.inject({ method: 'PUT', url: url(id), headers: { cookie }, payload });
const fields = (res: { json: () => { errors?: { field: string }[] } }) => (res.json().errors ?? []).map((e) => e.field);

describe('the time-clock policy of a program', () => {
  it('answers the new-program defaults for a program with no version', async () => {
    const res = await get(admin);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      programId,
      missingCheckOut: 'no_credit',
      rounding: 'none',
      roundingMinutes: 15,
      graceMinutes: 0,
      mealDeduction: null,
      dailyMaxMinutes: null,
      weeklyMaxMinutes: null,
      effectiveFrom: null,
      isSet: false,
      versions: [],
      today: '2026-06-15',
    });
    expect((await get(admin, 999_999)).statusCode).toBe(404);
    expect((await put(admin, {}, 999_999)).statusCode).toBe(404);
  });

  it('refuses a bad value with a 400 naming the field', async () => {
    const cases: [object, string][] = [
      [{ missingCheckOut: 'forgive' }, 'missingCheckOut'],
      [{ rounding: 'sideways' }, 'rounding'],
      [{ roundingMinutes: 31 }, 'roundingMinutes'],
      [{ roundingMinutes: 7.5 }, 'roundingMinutes'],
      [{ graceMinutes: -1 }, 'graceMinutes'],
      [{ mealDeduction: { afterMinutes: 30, minutes: 30 } }, 'mealDeduction.afterMinutes'],
      [{ mealDeduction: { afterMinutes: 300 } }, 'mealDeduction.minutes'],
      [{ dailyMaxMinutes: 5000 }, 'dailyMaxMinutes'],
      [{ dailyMaxMinutes: 600, weeklyMaxMinutes: 300 }, 'weeklyMaxMinutes'],
      [{ effectiveFrom: '2026-02-30' }, 'effectiveFrom'],
      [{ lunch: true }, 'lunch'],
    ];
    for (const [payload, field] of cases) {
      const res = await put(admin, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(fields(res), JSON.stringify(payload)).toContain(field);
    }
    expect((await get(admin)).json().versions).toEqual([]);
  });

  it('lets every role that sees programs read it, and only super_admin and it_admin set it', async () => {
    for (const cookie of [instructor, support]) {
      expect((await get(cookie)).statusCode).toBe(200);
      expect((await put(cookie, { missingCheckOut: 'credit_to_scheduled_end' })).statusCode).toBe(403);
      expect((await t.app.inject({ url: `${url()}/impact?effectiveFrom=2026-06-01`, headers: { cookie } })).statusCode).toBe(403);
    }
    expect((await t.app.inject({ url: url() })).statusCode).toBe(401);
    const saved = await put(superAdmin, { missingCheckOut: 'auto_check_out_flagged' });
    expect(saved.statusCode).toBe(200);
    // effectiveFrom left out: today in the school's time zone; no record on or after it.
    expect(saved.json()).toMatchObject({ missingCheckOut: 'auto_check_out_flagged', effectiveFrom: '2026-06-15', isSet: true, recomputedStudents: 0 });
    expect(saved.json().versions).toHaveLength(1);
    expect(saved.json().versions[0]).toMatchObject({ effectiveFrom: '2026-06-15', createdByName: 'Test super_admin' });
  });

  it('audits a back-dated change with the old and new values and the students it recomputed', async () => {
    expect((await t.app.inject({ url: `${url()}/impact?effectiveFrom=2026-06-02`, headers: { cookie: admin } })).json()).toEqual({
      effectiveFrom: '2026-06-02',
      recomputedStudents: 1,
    });
    const rules = {
      missingCheckOut: 'no_credit',
      rounding: 'nearest',
      roundingMinutes: 15,
      graceMinutes: 7,
      mealDeduction: { afterMinutes: 300, minutes: 30 },
      dailyMaxMinutes: 600,
      weeklyMaxMinutes: 2880,
    };
    const res = await put(admin, { ...rules, effectiveFrom: '2026-06-01' });
    expect(res.statusCode).toBe(200);
    // Records from 1 June: Ana and Bo.
    expect(res.json()).toMatchObject({ recomputedStudents: 2, effectiveFrom: '2026-06-15', missingCheckOut: 'auto_check_out_flagged' });
    expect(res.json().versions.map((v: { effectiveFrom: string }) => v.effectiveFrom)).toEqual(['2026-06-15', '2026-06-01']);
    const entry = (await auditEntries(t.db, 'program_time_clock_versions')).at(-1)!;
    expect(entry.action).toBe('Update');
    expect(entry.record_id).toBe(String(programId));
    // Before it, 1 June was counted by the new-program defaults.
    expect(entry.old_values).toEqual({
      missingCheckOut: 'no_credit',
      rounding: 'none',
      roundingMinutes: 15,
      graceMinutes: 0,
      mealDeduction: null,
      dailyMaxMinutes: null,
      weeklyMaxMinutes: null,
      effectiveFrom: null,
      isSet: false,
    });
    expect(entry.new_values).toEqual({ ...rules, effectiveFrom: '2026-06-01', recomputedStudents: 2 });

    // Saved again for the same date: that version is replaced, and the old values are the ones it had.
    const again = await put(admin, { ...rules, dailyMaxMinutes: 480, effectiveFrom: '2026-06-01' });
    expect(again.json().versions).toHaveLength(2);
    const second = (await auditEntries(t.db, 'program_time_clock_versions')).at(-1)!;
    expect(second.old_values).toMatchObject({ dailyMaxMinutes: 600, effectiveFrom: '2026-06-01', isSet: true });
    expect(second.new_values).toMatchObject({ dailyMaxMinutes: 480, effectiveFrom: '2026-06-01' });
  });
});

describe('presets', () => {
  it('names starting points with the rule each comes from and a note to confirm the board’s rules', async () => {
    const res = await t.app.inject({ url: '/api/time-clock/presets', headers: { cookie: instructor } });
    expect(res.statusCode).toBe(200);
    const presets = res.json() as { name: string; source: string; note: string; rules: Record<string, unknown> }[];
    expect(presets.map((p) => p.name)).toEqual(
      expect.arrayContaining(['Mississippi cosmetology', 'Texas TDLR', 'Ohio', 'Tennessee', 'CourseKey-style mandatory check-out']),
    );
    for (const p of presets) {
      expect(p.source.length).toBeGreaterThan(20);
      expect(p.note).toContain('confirms its own board');
    }
    expect(presets.find((p) => p.name === 'Tennessee')!.rules).toMatchObject({ dailyMaxMinutes: 600, weeklyMaxMinutes: 2880 });
    expect(presets.find((p) => p.name === 'Mississippi cosmetology')!.rules).toMatchObject({ missingCheckOut: 'no_credit' });
    // A preset is a valid PUT as it is.
    expect((await put(admin, { ...presets.find((p) => p.name === 'Ohio')!.rules, effectiveFrom: '2026-07-01' })).statusCode).toBe(200);
  });
});
