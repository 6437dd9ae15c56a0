import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { can, type Action } from '../../../common/permissions.ts';
import type { Role } from '../../../common/roles.ts';
import type { Db } from '../../db/client.ts';
import { studentsInScope } from '../../db/roster-membership.ts';
import {
  attendanceRecords,
  courses,
  makeUpSessions,
  missedPunchRequests,
  programs,
  qrSessions,
  scheduleRosters,
  schedules,
  students,
} from '../../db/schema/index.ts';
import { AppError } from '../../lib/errors.ts';
import { createTestDatabase } from '../../test/helpers.ts';
import { insertUser } from '../auth/service.ts';
import { findSession } from '../qr-sessions/service.ts';
import {
  assertMayChangeRecords,
  assertMayDecideMissedPunch,
  assertMayDeleteMakeUp,
  assertMayListSchedulesOf,
  assertMayReadAttendanceRecord,
  assertMayReadStudent,
  assertMayRunSession,
  assertMayUseSchedule,
  keepsPasswordSignIn,
  mayChangeLockedRecords,
  mayChangeRecordsOfWithdrawn,
  mayChangeRoleOf,
  mayManageRole,
  mayNameMakeUpSupervisor,
  maySuperviseMakeUps,
  receivesWeeklyReport,
  viewerScope,
  WHOLE_SCHOOL,
  type Viewer,
} from './service.ts';

/*
 * Every rule of the access module × every kind of viewer, against real rows (docs/decisions/054).
 *
 * Two instructors, "own" (teaches class A) and "other" (teaches class B), with the three other
 * roles. Student onA is on class A's roster, onB on class B's, onNone on no roster. Class A has a
 * record of onA, a QR session, a missed-punch request and a make-up session supervised by "own".
 *
 * Each row says what every viewer gets: yes (allowed), no (refused: 403 or false), missing (404),
 * or route (the permission table refuses the route before the rule is asked: common/permissions.ts).
 */

type Outcome = 'yes' | 'no' | 'missing' | 'route';
const VIEWERS = ['super_admin', 'it_admin', 'support_staff', 'own instructor', 'other instructor'] as const;
type ViewerName = (typeof VIEWERS)[number];
type Row = { rule: string; action: Action; ask: (v: Viewer) => unknown; expect: readonly [Outcome, Outcome, Outcome, Outcome, Outcome] };

let db: Db;
let drop: () => Promise<void>;
const viewer = {} as Record<ViewerName, Viewer>;
const ids = { onA: 0, onB: 0, onNone: 0, classA: 0, classB: 0, recordA: 0, sessionA: 0, requestA: 0, makeUpA: 0 };
const UNKNOWN = 2_000_000_000;

beforeAll(async () => {
  ({ db, drop } = await createTestDatabase());
  const roleOf: Record<ViewerName, Role> = {
    super_admin: 'super_admin',
    it_admin: 'it_admin',
    support_staff: 'support_staff',
    'own instructor': 'instructor',
    'other instructor': 'instructor',
  };
  for (const name of VIEWERS) {
    const role = roleOf[name];
    const id = await insertUser(db, { email: `${name.replace(' ', '.')}@access.test`, password: null, firstName: 'Access', lastName: name, role });
    viewer[name] = { id, role };
  }
  const [{ id: programId }] = (await db.insert(programs).values({ programName: 'Access PN' }).returning({ id: programs.id })) as [{ id: number }];
  const [{ id: courseId }] = (await db.insert(courses).values({ courseCode: 'ACC-1', courseName: 'Access', programId }).returning({ id: courses.id })) as [
    { id: number },
  ];
  const schedule = async (instructorId: number) =>
    (
      await db
        .insert(schedules)
        .values({
          courseId,
          instructorId,
          cohortNumber: 1,
          termNumber: 1,
          dayOfWeek: 1,
          startTime: '08:00',
          endTime: '12:00',
          courseStartDate: '2026-01-05',
          courseEndDate: '2026-06-01',
        })
        .returning({ id: schedules.id })
    )[0]!.id;
  ids.classA = await schedule(viewer['own instructor'].id);
  ids.classB = await schedule(viewer['other instructor'].id);
  const student = async (name: string, scheduleId: number | null) => {
    const [{ id }] = (await db.insert(students).values({ firstName: name, lastName: 'Access', programId }).returning({ id: students.id })) as [{ id: number }];
    if (scheduleId != null) await db.insert(scheduleRosters).values({ scheduleId, studentId: id });
    return id;
  };
  ids.onA = await student('OnA', ids.classA);
  ids.onB = await student('OnB', ids.classB);
  ids.onNone = await student('OnNone', null);
  ids.recordA = (
    await db
      .insert(attendanceRecords)
      .values({ studentId: ids.onA, scheduleId: ids.classA, sessionDate: '2026-03-02', status: 'present', source: 'manual', scheduledMinutes: 240 })
      .returning({ id: attendanceRecords.id })
  )[0]!.id;
  ids.sessionA = (
    await db
      .insert(qrSessions)
      .values({
        scheduleId: ids.classA,
        tokenSecret: Buffer.alloc(32),
        sessionDate: '2026-03-02',
        createdAt: new Date('2026-03-02T13:00:00Z'),
        expiresAt: new Date('2026-03-02T18:00:00Z'),
      })
      .returning({ id: qrSessions.id })
  )[0]!.id;
  ids.requestA = (
    await db
      .insert(missedPunchRequests)
      .values({
        studentId: ids.onA,
        scheduleId: ids.classA,
        sessionDate: '2026-03-02',
        recordId: ids.recordA,
        checkOutAt: new Date('2026-03-02T18:00:00Z'),
        reason: 'Forgot to check out',
        source: 'hours_link',
      })
      .returning({ id: missedPunchRequests.id })
  )[0]!.id;
  ids.makeUpA = (
    await db
      .insert(makeUpSessions)
      .values({ studentId: ids.onA, sessionDate: '2026-03-03', startTime: '13:00', endTime: '14:00', minutes: 60, supervisorId: viewer['own instructor'].id })
      .returning({ id: makeUpSessions.id })
  )[0]!.id;
});

afterAll(async () => {
  await drop?.();
});

/** What the rule answered: a boolean rule's false and an assertion's 403 are both "no". */
async function outcome(ask: () => unknown): Promise<Outcome> {
  try {
    return (await ask()) === false ? 'no' : 'yes';
  } catch (err) {
    if (err instanceof AppError && err.statusCode === 403) return 'no';
    if (err instanceof AppError && err.statusCode === 404) return 'missing';
    throw err;
  }
}

const sessionRow = async (id: number) => (await findSession(db, String(id)))!;
const requestRow = async (id: number) => (await db.select().from(missedPunchRequests).where(eq(missedPunchRequests.id, id)))[0]!;
const makeUpRow = async (id: number) => (await db.select().from(makeUpSessions).where(eq(makeUpSessions.id, id)))[0]!;
const overrides = (allowed: boolean) => () => Promise.resolve(allowed);
/** A record of class A changed: the class's rule, then the override rule (attendance's assertMayOverride). */
const changeRecordOfA = async (v: Viewer, instructorOverridesAllowed: boolean) => {
  await assertMayUseSchedule(db, v, ids.classA);
  await assertMayChangeRecords(v, overrides(instructorOverridesAllowed));
};

//                                                                     super_admin it_admin  support  own instr. other instr.
const RULES: Row[] = [
  // Students: hours, records, time card, leaves, exceptions, make-ups.
  { rule: 'read a student on class A', action: 'hours:view', ask: (v) => assertMayReadStudent(db, v, ids.onA), expect: ['yes', 'yes', 'yes', 'yes', 'no'] },
  { rule: 'read a student on no roster', action: 'hours:view', ask: (v) => assertMayReadStudent(db, v, ids.onNone), expect: ['yes', 'yes', 'yes', 'no', 'no'] },
  {
    rule: 'read an unknown student (instructors: 403, ids not confirmed)',
    action: 'hours:view',
    ask: (v) => assertMayReadStudent(db, v, UNKNOWN),
    expect: ['missing', 'missing', 'missing', 'no', 'no'],
  },
  {
    rule: "read a class A record's history",
    action: 'hours:view',
    ask: (v) => assertMayReadAttendanceRecord(db, v, ids.recordA),
    expect: ['yes', 'yes', 'yes', 'yes', 'no'],
  },
  {
    rule: "read an unknown record's history",
    action: 'hours:view',
    ask: (v) => assertMayReadAttendanceRecord(db, v, UNKNOWN),
    expect: ['missing', 'missing', 'missing', 'no', 'no'],
  },
  // Schedules: the schedule itself, its roster, its attendance, its cancelled meetings.
  {
    rule: 'use class A (GET /api/schedules/{id}, its roster)',
    action: 'schedules:view',
    ask: (v) => assertMayUseSchedule(db, v, ids.classA),
    expect: ['yes', 'yes', 'yes', 'yes', 'no'],
  },
  {
    rule: "take class A's attendance",
    action: 'attendance:take',
    ask: (v) => assertMayUseSchedule(db, v, ids.classA),
    expect: ['yes', 'yes', 'route', 'yes', 'no'],
  },
  {
    rule: 'use an unknown schedule',
    action: 'schedules:view',
    ask: (v) => assertMayUseSchedule(db, v, UNKNOWN),
    expect: ['missing', 'missing', 'missing', 'missing', 'missing'],
  },
  {
    rule: "list the own instructor's schedules",
    action: 'schedules:view',
    ask: (v) => assertMayListSchedulesOf(v, viewer['own instructor'].id),
    expect: ['yes', 'yes', 'yes', 'yes', 'no'],
  },
  // QR sessions and missed punches.
  {
    rule: "run class A's QR session",
    action: 'attendance:take',
    ask: async (v) => assertMayRunSession(v, await sessionRow(ids.sessionA)),
    expect: ['yes', 'yes', 'route', 'yes', 'no'],
  },
  {
    rule: 'approve or decline a missed punch of class A',
    action: 'attendance:take',
    ask: async (v) => assertMayDecideMissedPunch(db, v, await requestRow(ids.requestA)),
    expect: ['yes', 'yes', 'route', 'yes', 'no'],
  },
  // Correcting records: overrides, manual records, undo, accepted scans, missed-punch approvals.
  {
    rule: 'correct a class A record, instructor overrides on',
    action: 'attendance:take',
    ask: (v) => changeRecordOfA(v, true),
    expect: ['yes', 'yes', 'route', 'yes', 'no'],
  },
  {
    rule: 'correct a class A record, instructor overrides off',
    action: 'attendance:take',
    ask: (v) => changeRecordOfA(v, false),
    expect: ['yes', 'yes', 'route', 'no', 'no'],
  },
  {
    rule: "change a withdrawn student's records (up to the date)",
    action: 'attendance:take',
    ask: (v) => mayChangeRecordsOfWithdrawn(v),
    expect: ['yes', 'yes', 'route', 'no', 'no'],
  },
  { rule: 'change a record past the edit lock', action: 'attendance:take', ask: (v) => mayChangeLockedRecords(v), expect: ['yes', 'no', 'route', 'no', 'no'] },
  // Make-up sessions.
  {
    rule: 'name the own instructor as supervisor',
    action: 'make-up:record',
    ask: (v) => mayNameMakeUpSupervisor(v, viewer['own instructor'].id),
    expect: ['yes', 'yes', 'route', 'yes', 'no'],
  },
  { rule: 'supervise make-up sessions', action: 'make-up:record', ask: (v) => maySuperviseMakeUps(v), expect: ['yes', 'yes', 'route', 'yes', 'yes'] },
  {
    rule: 'delete a make-up the own instructor supervised',
    action: 'make-up:record',
    ask: async (v) => assertMayDeleteMakeUp(v, await makeUpRow(ids.makeUpA)),
    expect: ['yes', 'yes', 'route', 'yes', 'no'],
  },
  // Accounts.
  {
    rule: 'create, change or deactivate a Super Administrator',
    action: 'users:manage',
    ask: (v) => mayManageRole(v, 'super_admin'),
    expect: ['yes', 'no', 'route', 'route', 'route'],
  },
  {
    rule: 'create, change or deactivate an IT Administrator',
    action: 'users:manage',
    ask: (v) => mayManageRole(v, 'it_admin'),
    expect: ['yes', 'yes', 'route', 'route', 'route'],
  },
  {
    rule: 'change their own role',
    action: 'users:manage',
    ask: (v) => mayChangeRoleOf(v, v.id, v.role, 'support_staff'),
    expect: ['no', 'no', 'route', 'route', 'route'],
  },
  {
    rule: "change another user's role",
    action: 'users:manage',
    ask: (v) => mayChangeRoleOf(v, UNKNOWN, 'support_staff', 'instructor'),
    expect: ['yes', 'yes', 'route', 'route', 'route'],
  },
  {
    rule: 'sign in with a password when only single sign-on is on',
    action: 'dashboard:view',
    ask: (v) => keepsPasswordSignIn(v),
    expect: ['yes', 'no', 'no', 'no', 'no'],
  },
  { rule: 'receive the weekly report', action: 'dashboard:view', ask: (v) => receivesWeeklyReport(v), expect: ['yes', 'yes', 'no', 'no', 'no'] },
];

describe('access rules × viewers', () => {
  for (const row of RULES) {
    it(row.rule, async () => {
      const got: Outcome[] = [];
      for (const [i, name] of VIEWERS.entries()) {
        const v = viewer[name];
        // The permission table decides first: a cell it refuses must say so, and the rule is not asked.
        if (!can(v.role, row.action)) {
          expect(row.expect[i], `${name}: ${row.action} is refused by the permission table`).toBe('route');
          got.push('route');
        } else got.push(await outcome(() => row.ask(v)));
      }
      expect(got).toEqual(row.expect);
    });
  }
});

describe('what each viewer sees', () => {
  const visible = async (name: ViewerName) =>
    (
      await db
        .select({ id: students.id })
        .from(students)
        .where(studentsInScope(students.id, viewerScope(viewer[name])))
        .orderBy(students.id)
    ).map((r) => r.id);

  it('instructors see their own classes, everyone else the whole school', () => {
    expect(VIEWERS.map((n) => viewerScope(viewer[n]).instructorId)).toEqual([null, null, null, viewer['own instructor'].id, viewer['other instructor'].id]);
    expect(WHOLE_SCHOOL).toEqual({ instructorId: null });
  });

  it('the one roster rule limits the student lists: instructors their rosters, everyone else every student', async () => {
    const all = [ids.onA, ids.onB, ids.onNone];
    expect(await Promise.all(VIEWERS.map(visible))).toEqual([all, all, all, [ids.onA], [ids.onB]]);
  });
});
