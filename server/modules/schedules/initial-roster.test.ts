import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COHORT_NUMBER_REQUIRED } from '../../../common/schedules.ts';
import { buildCourse, buildProgram, buildRosterEntry, buildSchedule, buildStudent } from '../../test/factories.ts';
import { auditEntries, createTestApp, fixedClock, type TestApp } from '../../test/helpers.ts';
import type { StudentStatus } from '../../../common/constants.ts';

// Decision 047: a new schedule silently received the students of the program's other cohorts.
// The roster now starts with the cohort (or what the admin chose), and the form can preview it.

let t: TestApp;
let admin: string;
let courseId: number, otherCourseId: number, noProgramCourseId: number;
const ids: Record<string, number> = {};

beforeAll(async () => {
  t = await createTestApp({ clock: fixedClock('2026-02-02T15:00:00Z') });
  admin = (await t.signedIn('it_admin')).cookie;
  const pn = (await buildProgram(t.db, { programName: 'Practical Nursing' })).id;
  const ma = (await buildProgram(t.db, { programName: 'Medical Assisting' })).id;
  courseId = (await buildCourse(t.db, { courseCode: 'PN-120', courseName: 'Pharmacology', programId: pn })).id;
  otherCourseId = (await buildCourse(t.db, { courseCode: 'PN-101', courseName: 'Fundamentals', programId: pn })).id;
  noProgramCourseId = (await buildCourse(t.db, { courseCode: 'GEN-1', courseName: 'Orientation', programId: null })).id;
  const students: [string, StudentStatus, number][] = [
    ['Ann', 'enrolled', pn],
    ['Bea', 'enrolled', pn], // cohort 7
    ['Cal', 'enrolled', pn],
    ['Dot', 'enrolled', pn],
    ['Eve', 'enrolled', pn], // cohort 6
    ['Fay', 'enrolled', pn], // enrolled, in no class yet
    ['Gus', 'withdrawn', pn],
    ['Hal', 'enrolled', ma],
  ];
  for (const [first, status, prog] of students) {
    ids[first] = (await buildStudent(t.db, { firstName: first, lastName: 'X', status, programId: prog })).id;
  }
  // The cohorts' existing classes, with their students on the rosters.
  for (const [cohort, members] of [
    [7, ['Ann', 'Bea']],
    [6, ['Cal', 'Dot', 'Eve']],
  ] as const) {
    const sc = (await buildSchedule(t.db, { courseId: otherCourseId, cohortNumber: cohort, courseEndDate: '2026-05-29' })).id;
    for (const m of members) await buildRosterEntry(t.db, { scheduleId: sc, studentId: ids[m]! });
  }
});
afterAll(() => t.close());

const schedule = (extra: object = {}) => ({
  courseId,
  cohortNumber: 7,
  termNumber: 2,
  dayOfWeek: 3,
  startTime: '13:00',
  endTime: '16:00',
  courseStartDate: '2026-01-07',
  courseEndDate: '2026-05-27',
  ...extra,
});
const create = (payload: object) => t.app.inject({ method: 'POST', url: '/api/schedules', headers: { cookie: admin }, payload });
const firstNamesOf = async (scheduleId: number) =>
  ((await t.app.inject({ url: `/api/schedules/${scheduleId}/roster`, headers: { cookie: admin } })).json() as { firstName: string }[])
    .map((r) => r.firstName)
    .sort();
const names = (list: { firstName: string }[]) => list.map((s) => s.firstName).sort();

describe('a new schedule’s roster', () => {
  it('previews each choice: the cohort, the program’s students in no class yet, the whole program', async () => {
    const res = await t.app.inject({ url: `/api/schedules/roster-preview?courseId=${courseId}&cohortNumber=7`, headers: { cookie: admin } });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.programName).toBe('Practical Nursing');
    expect(names(body.cohort)).toEqual(['Ann', 'Bea']);
    expect(names(body.unplaced)).toEqual(['Fay']);
    // Enrolled only: Gus withdrew, Hal is in another program.
    expect(names(body.program)).toEqual(['Ann', 'Bea', 'Cal', 'Dot', 'Eve', 'Fay']);
    // A new cohort has no students yet; the program's unplaced students are offered with it.
    const fresh = (await t.app.inject({ url: `/api/schedules/roster-preview?courseId=${courseId}&cohortNumber=8`, headers: { cookie: admin } })).json();
    expect([fresh.cohort, names(fresh.unplaced)]).toEqual([[], ['Fay']]);
    const none = (await t.app.inject({ url: `/api/schedules/roster-preview?courseId=${noProgramCourseId}`, headers: { cookie: admin } })).json();
    expect(none).toEqual({ programName: null, cohort: [], unplaced: [], program: [] });
  });

  it('refuses a bad preview query naming the field, and instructors', async () => {
    const bad = await t.app.inject({ url: `/api/schedules/roster-preview?courseId=99999`, headers: { cookie: admin } });
    expect([bad.statusCode, bad.json().errors[0].field]).toEqual([400, 'courseId']);
    const range = await t.app.inject({ url: `/api/schedules/roster-preview?courseId=${courseId}&cohortNumber=31`, headers: { cookie: admin } });
    expect([range.statusCode, range.json().errors[0].field]).toEqual([400, 'cohortNumber']);
    const instructor = (await t.signedIn('instructor')).cookie;
    expect((await t.app.inject({ url: `/api/schedules/roster-preview?courseId=${courseId}`, headers: { cookie: instructor } })).statusCode).toBe(403);
  });

  it('starts with the cohort by default, never the students of other cohorts', async () => {
    const res = await create(schedule());
    expect(res.statusCode).toBe(201);
    expect(res.json().rosterCount).toBe(3);
    expect(await firstNamesOf(res.json().id)).toEqual(['Ann', 'Bea', 'Fay']);
    expect((await auditEntries(t.db, 'schedules')).at(-1)).toMatchObject({ action: 'Create', new_values: { initialRoster: 'cohort', rosterCount: 3 } });
  });

  it('takes the whole program or nobody when the admin chooses so', async () => {
    const program = await create(schedule({ cohortNumber: 6, initialRoster: 'program' }));
    expect(await firstNamesOf(program.json().id)).toEqual(['Ann', 'Bea', 'Cal', 'Dot', 'Eve', 'Fay']);
    const nobody = await create(schedule({ initialRoster: 'none' }));
    expect(nobody.json().rosterCount).toBe(0);
    const bad = await create(schedule({ initialRoster: 'everyone' }));
    expect([bad.statusCode, bad.json().errors[0].field]).toEqual([400, 'initialRoster']);
  });
});

describe('named cohorts', () => {
  it('stores a cohort name beside the number, numbers a named cohort given without one, and finds it again by name', async () => {
    // Cohorts 6 and 7 run until May: the new name takes the lowest number free, 1.
    const first = await create({ ...schedule({ cohortName: '  PN-26A ' }), cohortNumber: undefined, initialRoster: 'none' });
    expect(first.statusCode).toBe(201);
    expect(first.json()).toMatchObject({ cohortNumber: 1, cohortName: 'PN-26A' });
    await t.app.inject({ method: 'POST', url: `/api/schedules/${first.json().id}/roster`, headers: { cookie: admin }, payload: { studentIds: [ids.Fay] } });
    // The same name, in any case: the same cohort number, and the cohort's students.
    const second = await create({ ...schedule({ cohortName: 'pn-26a', courseId: otherCourseId }), cohortNumber: undefined });
    expect(second.json()).toMatchObject({ cohortNumber: 1, cohortName: 'pn-26a', rosterCount: 1 });
    const preview = (await t.app.inject({ url: `/api/schedules/roster-preview?courseId=${courseId}&cohortName=PN-26A`, headers: { cookie: admin } })).json();
    expect(names(preview.cohort)).toEqual(['Fay']);
    const another = await create({ ...schedule({ cohortName: 'PN-26B' }), cohortNumber: undefined, initialRoster: 'none' });
    expect(another.json().cohortNumber).toBe(2);
    expect((await t.app.inject({ url: '/api/schedules?search=pn-26b', headers: { cookie: admin } })).json()).toHaveLength(1);
  });

  it('keeps SPEC’s cohort number 1–30 and asks for a number or a name', async () => {
    const missing = await create({ ...schedule(), cohortNumber: undefined });
    expect(missing.json().errors).toEqual([{ field: 'cohortNumber', message: COHORT_NUMBER_REQUIRED }]);
    expect((await create(schedule({ cohortNumber: 31, cohortName: 'PN-26C' }))).json().errors[0].field).toBe('cohortNumber');
    expect((await create(schedule({ cohortName: 'x'.repeat(41) }))).json().errors[0].field).toBe('cohortName');
  });
});
