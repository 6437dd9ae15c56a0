import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCourse } from '../../test/factories.ts';
import { auditEntries, createTestApp, type TestApp } from '../../test/helpers.ts';

let t: TestApp;
let admin: string, superAdmin: string, support: string, instructor: string;
let programId: number;
beforeAll(async () => {
  t = await createTestApp();
  admin = (await t.signedIn('it_admin')).cookie;
  superAdmin = (await t.signedIn('super_admin')).cookie;
  support = (await t.signedIn('support_staff')).cookie;
  instructor = (await t.signedIn('instructor')).cookie;
  programId = (
    await t.app.inject({ method: 'POST', url: '/api/programs', headers: { cookie: admin }, payload: { programName: 'Cosmetology', programCode: 'COS' } })
  ).json().id;
  // Ten active courses of 150 hours (1,500) and an inactive one that must not count.
  for (let i = 0; i < 10; i++)
    await buildCourse(t.db, { courseCode: `COS-${i}`, courseName: `Cosmetology ${i}`, programId, clockHours: '150', isActive: true });
  await buildCourse(t.db, { courseCode: 'COS-OLD', courseName: 'Retired', programId, clockHours: '100', isActive: false });
});
afterAll(() => t.close());

const url = (id = programId) => `/api/programs/${id}/policy`;
const get = (cookie: string, id = programId) => t.app.inject({ url: url(id), headers: { cookie } });
const put = (cookie: string, payload: object, id = programId) => t.app.inject({ method: 'PUT', url: url(id), headers: { cookie }, payload });
const fields = (res: { json: () => { errors?: { field: string }[] } }) => (res.json().errors ?? []).map((e) => e.field);

describe('program policy', () => {
  it('answers the defaults for a program without a policy', async () => {
    const res = await get(admin);
    expect(res.statusCode).toBe(200);
    // programHours: the active courses' hours; programWeeks: 1,500 ÷ 900 × 26 = 43.3, rounded up.
    expect(res.json()).toEqual({
      programId,
      programHours: 1500,
      programWeeks: 44,
      academicYearHours: 900,
      academicYearWeeks: 26,
      excusedCapPercent: 10,
      minimumAttendancePercent: 80,
      sapCheckpointHours: [450, 900, 1200, 1500],
      withdrawAfterDays: 14,
      makeUpDeadlineDays: 14,
      makeUpThresholdMinutes: 30,
      makeUpCapPercent: null,
      attendanceEditLockDays: null,
      consecutiveAbsenceAlert: null,
      alertCopyToStudent: false,
      recordsStartDate: null,
      isSet: { programHours: false, programWeeks: false, sapCheckpointHours: false },
      paymentPeriods: [
        { number: 1, startHours: 0, endHours: 450, weeks: 13 },
        { number: 2, startHours: 450, endHours: 900, weeks: 13 },
        { number: 3, startHours: 900, endHours: 1200, weeks: 9 },
        { number: 4, startHours: 1200, endHours: 1500, weeks: 9 },
      ],
      updatedAt: null,
    });
  });

  it('404s an unknown program', async () => {
    expect((await get(admin, 999_999)).statusCode).toBe(404);
    expect((await put(admin, {}, 999_999)).statusCode).toBe(404);
    expect((await t.app.inject({ url: '/api/programs/999999', headers: { cookie: admin } })).statusCode).toBe(404);
    expect((await t.app.inject({ url: `/api/programs/${programId}`, headers: { cookie: instructor } })).json()).toMatchObject({
      id: programId,
      programName: 'Cosmetology',
    });
  });

  it('sets the COMPLIANCE.md example: 1,500 h over 50 weeks with 900 h / 30 week years', async () => {
    const res = await put(superAdmin, {
      programWeeks: 50,
      academicYearWeeks: 30,
      excusedCapPercent: 5,
      minimumAttendancePercent: 85,
      withdrawAfterDays: 10,
      makeUpDeadlineDays: 7,
      makeUpCapPercent: 5,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      programHours: 1500,
      programWeeks: 50,
      academicYearHours: 900,
      academicYearWeeks: 30,
      excusedCapPercent: 5,
      minimumAttendancePercent: 85,
      sapCheckpointHours: [450, 900, 1200, 1500],
      withdrawAfterDays: 10,
      makeUpDeadlineDays: 7,
      makeUpCapPercent: 5,
      isSet: { programHours: false, programWeeks: true, sapCheckpointHours: false },
    });
    // Hours 1-450 (week 15), 451-900 (week 30), 901-1,200 (week 40), 1,201-1,500 (week 50).
    expect(res.json().paymentPeriods).toEqual([
      { number: 1, startHours: 0, endHours: 450, weeks: 15 },
      { number: 2, startHours: 450, endHours: 900, weeks: 15 },
      { number: 3, startHours: 900, endHours: 1200, weeks: 10 },
      { number: 4, startHours: 1200, endHours: 1500, weeks: 10 },
    ]);
    expect(res.json().updatedAt).toEqual(expect.any(String));
    // Every role that sees the program reads the same policy.
    for (const cookie of [admin, support, instructor]) {
      const read = await get(cookie);
      expect(read.statusCode).toBe(200);
      expect(read.json()).toEqual(res.json());
    }
  });

  it('audits the settings that changed, old and new', async () => {
    await put(admin, { programWeeks: 50, academicYearWeeks: 30, excusedCapPercent: 5 });
    const before = (await auditEntries(t.db, 'program_policies')).length;
    const res = await put(admin, { programWeeks: 50, academicYearWeeks: 30, excusedCapPercent: 7.5, sapCheckpointHours: [300, 750, 1500] });
    expect(res.statusCode).toBe(200);
    const entries = await auditEntries(t.db, 'program_policies');
    expect(entries).toHaveLength(before + 1);
    expect(entries.at(-1)).toMatchObject({
      action: 'Update',
      record_id: String(programId),
      old_values: { excusedCapPercent: 5, sapCheckpointHours: null },
      new_values: { excusedCapPercent: 7.5, sapCheckpointHours: [300, 750, 1500] },
    });
    expect(Object.keys(entries.at(-1)!.new_values!).sort()).toEqual(['excusedCapPercent', 'sapCheckpointHours']);
    expect(res.json()).toMatchObject({ sapCheckpointHours: [300, 750, 1500], isSet: { sapCheckpointHours: true } });
  });

  it('a value left out or null goes back to its default', async () => {
    await put(admin, {
      programHours: 1200,
      programWeeks: 40,
      academicYearHours: 1000,
      academicYearWeeks: 30,
      sapCheckpointHours: [600, 1200],
      makeUpCapPercent: 3,
    });
    const res = await put(admin, { programHours: null, programWeeks: null, sapCheckpointHours: null, makeUpCapPercent: null });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      programHours: 1500,
      programWeeks: 44,
      academicYearHours: 900,
      academicYearWeeks: 26,
      excusedCapPercent: 10,
      minimumAttendancePercent: 80,
      sapCheckpointHours: [450, 900, 1200, 1500],
      withdrawAfterDays: 14,
      makeUpDeadlineDays: 14,
      makeUpCapPercent: null,
      isSet: { programHours: false, programWeeks: false, sapCheckpointHours: false },
    });
    expect((await get(admin)).json()).toEqual(res.json());
  });

  it('programHours set by hand replaces the courses’ sum; a program of a year or less is two halves', async () => {
    const res = await put(admin, { programHours: 600 });
    // The program's own hours: one figure (decision 040).
    expect((await t.app.inject({ url: `/api/programs/${programId}`, headers: { cookie: admin } })).json().durationHours).toBe(600);
    // 600 ÷ 900 × 26 = 17.3 → 18 weeks; two periods of 300 hours and 9 weeks.
    expect(res.json()).toMatchObject({ programHours: 600, programWeeks: 18, sapCheckpointHours: [300, 600], isSet: { programHours: true } });
    expect(res.json().paymentPeriods).toEqual([
      { number: 1, startHours: 0, endHours: 300, weeks: 9 },
      { number: 2, startHours: 300, endHours: 600, weeks: 9 },
    ]);
    // Left out, the program's hours stay; null gives the default back.
    expect((await put(admin, {})).json()).toMatchObject({ programHours: 600, isSet: { programHours: true } });
    expect((await put(admin, { programHours: null })).json()).toMatchObject({ programHours: 1500, isSet: { programHours: false } });
  });

  it('refuses bad values with a 400 naming the field, and changes nothing', async () => {
    await put(admin, { excusedCapPercent: 4 });
    const before = (await get(admin)).json();
    const audits = (await auditEntries(t.db, 'program_policies')).length;
    const cases: [object, string][] = [
      [{ excusedCapPercent: 11 }, 'excusedCapPercent'],
      [{ excusedCapPercent: -1 }, 'excusedCapPercent'],
      [{ academicYearHours: 800 }, 'academicYearHours'],
      [{ academicYearWeeks: 25 }, 'academicYearWeeks'],
      [{ withdrawAfterDays: 15 }, 'withdrawAfterDays'],
      [{ withdrawAfterDays: 0 }, 'withdrawAfterDays'],
      [{ withdrawAfterDays: 7.5 }, 'withdrawAfterDays'],
      [{ minimumAttendancePercent: 101 }, 'minimumAttendancePercent'],
      [{ programHours: 'lots' }, 'programHours'],
      [{ makeUpCapPercent: 100.5 }, 'makeUpCapPercent'],
      [{ sapCheckpointHours: [900, 450] }, 'sapCheckpointHours'],
      // Checkpoints past the program's hours (1,500 from the courses; 1,000 when set).
      [{ sapCheckpointHours: [450, 1600] }, 'sapCheckpointHours'],
      [{ programHours: 1000, sapCheckpointHours: [500, 1200] }, 'sapCheckpointHours'],
    ];
    for (const [payload, field] of cases) {
      const res = await put(admin, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(fields(res), JSON.stringify(payload)).toContain(field);
    }
    const unknown = await put(admin, { excusedCapPercent: 5, graceMinutes: 10 });
    expect(unknown.statusCode).toBe(400);
    expect(fields(unknown)).toEqual(['graceMinutes']);
    expect(unknown.json().message).toContain('graceMinutes');
    expect((await get(admin)).json()).toEqual(before);
    expect(await auditEntries(t.db, 'program_policies')).toHaveLength(audits);
  });

  it('lets only administrators change it', async () => {
    for (const cookie of [instructor, support]) {
      expect((await put(cookie, { excusedCapPercent: 5 })).statusCode).toBe(403);
      expect((await get(cookie)).statusCode).toBe(200);
    }
    expect((await t.app.inject({ url: url() })).statusCode).toBe(401);
  });
});
