import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INSTRUCTOR_REQUIRED } from '../../../common/schedules.ts';
import { buildCourse, buildProgram, buildStudent } from '../../test/factories.ts';
import { auditEntries, createTestApp, type TestApp } from '../../test/helpers.ts';

let t: TestApp;
let admin: string;
let instr: { cookie: string; userId: number };
let other: { cookie: string; userId: number };
let courseId: number, programId: number;
const studentIds: number[] = [];

beforeAll(async () => {
  t = await createTestApp();
  admin = (await t.signedIn('it_admin')).cookie;
  instr = await t.signedIn('instructor', { firstName: 'Grace', lastName: 'Hopper' });
  other = await t.signedIn('instructor');
  programId = (await buildProgram(t.db, { programName: 'PN' })).id;
  courseId = (await buildCourse(t.db, { courseCode: 'NUR-101', courseName: 'Fundamentals', programId })).id;
  for (const [first, status, prog] of [
    ['Ann', 'enrolled', programId],
    ['Ben', 'enrolled', programId],
    ['Cal', 'withdrawn', programId],
    ['Dot', 'enrolled', null],
  ] as const) {
    studentIds.push((await buildStudent(t.db, { firstName: first, lastName: 'X', status, programId: prog })).id);
  }
});
afterAll(() => t.close());

const schedule = (extra: object = {}) => ({
  courseId,
  instructorId: instr.userId,
  cohortNumber: 3,
  termNumber: 2,
  dayOfWeek: 1,
  startTime: '08:00',
  endTime: '12:00',
  roomNumber: 'B-204',
  courseStartDate: '2026-01-05',
  courseEndDate: '2026-05-29',
  ...extra,
});
const create = (payload: object) => t.app.inject({ method: 'POST', url: '/api/schedules', headers: { cookie: admin }, payload });

describe('schedules', () => {
  let scheduleId: number;

  it('creates a schedule whose roster starts with the enrolled students of the program', async () => {
    const res = await create(schedule({ sisScheduleId: 'SCH-1' }));
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ courseName: 'Fundamentals', courseCode: 'NUR-101', instructorName: 'Grace Hopper', rosterCount: 2, startTime: '08:00' });
    scheduleId = res.json().id;
    const roster = await t.app.inject({ url: `/api/schedules/${scheduleId}/roster`, headers: { cookie: admin } });
    expect(roster.json().map((r: { firstName: string }) => r.firstName)).toEqual(['Ann', 'Ben']);
    expect((await auditEntries(t.db, 'schedules')).at(-1)).toMatchObject({ action: 'Create', new_values: { rosterCount: 2 } });
  });

  it('validates cohort, term, day, times, dates and the instructor role, naming each field', async () => {
    const res = await create(schedule({ cohortNumber: 31, termNumber: 0, dayOfWeek: 7, startTime: '25:00' }));
    expect([...new Set(res.json().errors.map((e: { field: string }) => e.field))].sort()).toEqual(['cohortNumber', 'dayOfWeek', 'startTime', 'termNumber']);
    expect((await create(schedule({ startTime: '12:00', endTime: '08:00' }))).json().errors[0].field).toBe('endTime');
    expect((await create(schedule({ courseEndDate: '2025-12-01' }))).json().errors[0].field).toBe('courseEndDate');
    const notInstructor = await create(schedule({ instructorId: (await t.signedIn('support_staff')).userId }));
    expect(notInstructor.json().message).toBe(INSTRUCTOR_REQUIRED);
    expect((await create(schedule({ courseId: 99999 }))).json().errors[0].field).toBe('courseId');
    const dup = await create(schedule({ sisScheduleId: 'SCH-1' }));
    expect(dup.statusCode).toBe(409);
    expect(dup.json().errors[0].field).toBe('sisScheduleId');
  });

  it('edits a schedule and audits the change', async () => {
    const res = await t.app.inject({
      method: 'PUT',
      url: `/api/schedules/${scheduleId}`,
      headers: { cookie: admin },
      payload: schedule({ roomNumber: 'C-101', sisScheduleId: 'SCH-1' }),
    });
    expect(res.json().roomNumber).toBe('C-101');
    expect((await auditEntries(t.db, 'schedules')).at(-1)).toMatchObject({
      action: 'Update',
      old_values: { roomNumber: 'B-204' },
      new_values: { roomNumber: 'C-101' },
    });
  });

  it('adds and removes roster students', async () => {
    const add = await t.app.inject({
      method: 'POST',
      url: `/api/schedules/${scheduleId}/roster`,
      headers: { cookie: admin },
      payload: { studentIds: [studentIds[3]] },
    });
    expect(add.json().map((r: { firstName: string }) => r.firstName)).toEqual(['Ann', 'Ben', 'Dot']);
    expect(
      (await t.app.inject({ method: 'POST', url: `/api/schedules/${scheduleId}/roster`, headers: { cookie: admin }, payload: { studentIds: [777777] } }))
        .statusCode,
    ).toBe(400);
    const del = await t.app.inject({ method: 'DELETE', url: `/api/schedules/${scheduleId}/roster/${studentIds[0]}`, headers: { cookie: admin } });
    expect(del.statusCode).toBe(204);
    expect((await t.app.inject({ method: 'DELETE', url: `/api/schedules/${scheduleId}/roster/${studentIds[0]}`, headers: { cookie: admin } })).statusCode).toBe(
      404,
    );
    expect((await auditEntries(t.db, 'schedule_rosters')).map((a) => a.action)).toEqual(['Create', 'Delete']);
  });

  it('shows instructors only their own schedules', async () => {
    expect((await t.app.inject({ url: '/api/schedules', headers: { cookie: instr.cookie } })).json()).toHaveLength(1);
    expect((await t.app.inject({ url: '/api/schedules', headers: { cookie: other.cookie } })).json()).toHaveLength(0);
    expect((await t.app.inject({ url: `/api/schedules/instructor/${instr.userId}`, headers: { cookie: instr.cookie } })).json()[0].id).toBe(scheduleId);
    expect((await t.app.inject({ url: `/api/schedules/instructor/${instr.userId}`, headers: { cookie: other.cookie } })).statusCode).toBe(403);
    expect((await t.app.inject({ url: `/api/schedules/instructor/${instr.userId}`, headers: { cookie: admin } })).json()).toHaveLength(1);
    expect((await t.app.inject({ url: `/api/schedules/${scheduleId}/roster`, headers: { cookie: other.cookie } })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'POST', url: '/api/schedules', headers: { cookie: instr.cookie }, payload: schedule() })).statusCode).toBe(403);
  });

  it('searches by course, room and instructor', async () => {
    expect((await t.app.inject({ url: '/api/schedules?search=hopper', headers: { cookie: admin } })).json()).toHaveLength(1);
    expect((await t.app.inject({ url: '/api/schedules?search=C-101', headers: { cookie: admin } })).json()).toHaveLength(1);
    expect((await t.app.inject({ url: '/api/schedules?search=zzz', headers: { cookie: admin } })).json()).toHaveLength(0);
  });
});
