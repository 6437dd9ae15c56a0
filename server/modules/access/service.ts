import { isAdministrator, isInstructor, isSuperAdmin, mayManageRole, maySuperviseMakeUps, type Role } from '../../../common/roles.ts';
import type { DbOrTx } from '../../db/client.ts';
import { forbidden, notFound } from '../../lib/errors.ts';
import { isOnInstructorRoster, selectRecordStudentId, selectScheduleTeacher, studentExists } from './queries.ts';

// Who may do what to which record: every rule that looks at a user's role, in one file, one
// function per question (docs/decisions/054-access-module.md). The permission table
// (common/permissions.ts, enforced on every route) says which roles may call a route at all; the
// rules here say which records a role that passed it may touch. Lint forbids comparing roles
// anywhere else in the server: a new rule (campuses, clinical sites) is added here, once.
//
// This module stands at the bottom of the module graph: it imports server/db, server/lib and
// common only, so that every module can call it. access.test.ts walks every rule × role.

/** The signed-in user, as the rules need them. */
export type Viewer = { id: number; role: Role };

// ---- Roles ----

// The plain role questions live in common/roles.ts, where the screens ask them too.
export { isInstructor, isSuperAdmin, mayManageRole, maySuperviseMakeUps };

// ---- What a viewer sees ----

/**
 * Which classes and students a read covers: one instructor's (their own schedules and the students
 * on those schedules' rosters), or, with instructorId null, the whole school.
 */
export type ViewerScope = { instructorId: number | null };

/** The whole school: for jobs and for a read after a write the permission table already admitted. */
export const WHOLE_SCHOOL: ViewerScope = Object.freeze({ instructorId: null });

/** Instructors see their own classes and the students on their rosters; support staff and administrators the whole school. */
export function viewerScope(user: Viewer): ViewerScope {
  return { instructorId: isInstructor(user) ? user.id : null };
}

// ---- Students ----

const NOT_ON_ROSTER = 'You can see the hours of students on your own class rosters only';

/**
 * Need-to-know for one student's hours, records, time card, leaves and exceptions: administrators
 * and support staff any student (404 when there is none); instructors only students on their own
 * rosters — 403 otherwise, for unknown ids too, decided before anything about the student is read.
 * With `read`, the student is read by it after the check (404 when it finds none) and returned.
 */
export async function assertMayReadStudent(db: DbOrTx, user: Viewer, studentId: number): Promise<void>;
export async function assertMayReadStudent<T>(
  db: DbOrTx,
  user: Viewer,
  studentId: number,
  read: (db: DbOrTx, studentId: number) => Promise<T | undefined>,
): Promise<T>;
export async function assertMayReadStudent<T>(
  db: DbOrTx,
  user: Viewer,
  studentId: number,
  read?: (db: DbOrTx, studentId: number) => Promise<T | undefined>,
): Promise<T | void> {
  if (isInstructor(user) && !(await isOnInstructorRoster(db, studentId, user.id))) throw forbidden(NOT_ON_ROSTER);
  if (!read) {
    if (!(await studentExists(db, studentId))) throw notFound('Student');
    return;
  }
  const student = await read(db, studentId);
  if (student === undefined) throw notFound('Student');
  return student;
}

/** An attendance record's history: the need-to-know of its student (instructors: unknown ids get the same 403). */
export async function assertMayReadAttendanceRecord(db: DbOrTx, user: Viewer, recordId: number): Promise<void> {
  const studentId = await selectRecordStudentId(db, recordId);
  if (studentId == null) {
    if (isInstructor(user)) throw forbidden(NOT_ON_ROSTER);
    throw notFound('Attendance record');
  }
  await assertMayReadStudent(db, user, studentId);
}

// ---- Schedules, sessions and the records of a class ----

/** A schedule as the rules need it: who teaches it. */
type Taught = { instructorId: number | null };

const teaches = (user: Viewer, schedule: Taught) => schedule.instructorId === user.id;

/**
 * Instructors see and run only their own schedules (roster, attendance, sessions, cancelled
 * meetings, flags, missed punches); support staff and administrators any. Given an id, 404 when
 * there is no such schedule, before the 403.
 */
export async function assertMayUseSchedule(db: DbOrTx, user: Viewer, scheduleOrId: number | Taught): Promise<void> {
  const schedule = typeof scheduleOrId === 'number' ? await selectScheduleTeacher(db, scheduleOrId) : scheduleOrId;
  if (!schedule) throw notFound('Schedule');
  if (isInstructor(user) && !teaches(user, schedule)) throw forbidden('This schedule belongs to another instructor');
}

/** One instructor's schedule list: an instructor may ask only for their own. */
export function assertMayListSchedulesOf(user: Viewer, instructorId: number): void {
  if (isInstructor(user) && instructorId !== user.id) throw forbidden('Instructors can list only their own schedules');
}

/** A QR session (end, extend, the projector's detail): its schedule's instructor, or anyone but an instructor. */
export function assertMayRunSession(user: Viewer, session: Taught): void {
  if (isInstructor(user) && !teaches(user, session)) throw forbidden('This session belongs to another instructor');
}

/** Approve or decline a missed-punch request: whoever may use its schedule (the correction then obeys assertMayChangeRecords). */
export async function assertMayDecideMissedPunch(db: DbOrTx, user: Viewer, request: { scheduleId: number }): Promise<void> {
  await assertMayUseSchedule(db, user, request.scheduleId);
}

/**
 * Change a record of a schedule the user may use (overrides, manual records, undoing a check-out,
 * an accepted scan, a missed-punch approval): administrators always; instructors only while
 * Settings › Attendance allows instructor overrides (asked only of instructors).
 */
export async function assertMayChangeRecords(user: Viewer, instructorOverridesAllowed: () => Promise<boolean>): Promise<void> {
  if (isInstructor(user) && !(await instructorOverridesAllowed())) throw forbidden('Instructor overrides are turned off in Settings; ask an administrator');
}

/** A withdrawn student's records up to the withdrawal date: administrators only. */
export const mayChangeRecordsOfWithdrawn = (user: Viewer): boolean => isAdministrator(user);

/** A record past the program's attendanceEditLockDays: the Super Administrator only. */
export const mayChangeLockedRecords = (user: Viewer): boolean => isSuperAdmin(user);

// ---- Make-up sessions ----

/** Instructors record make-up sessions they supervise themselves; administrators name any supervisor. */
export const mayNameMakeUpSupervisor = (user: Viewer, supervisorId: number): boolean => !isInstructor(user) || supervisorId === user.id;

/** Delete a make-up session: administrators any; anyone else only those they supervised. */
export function assertMayDeleteMakeUp(user: Viewer, makeUp: { supervisorId: number | null }): void {
  if (!isAdministrator(user) && makeUp.supervisorId !== user.id) throw forbidden('Instructors can delete only make-up sessions they supervised');
}

// ---- Users and sign-in ----

/** Nobody changes their own role. */
export const mayChangeRoleOf = (actor: Viewer, userId: number, from: Role, to: Role): boolean => userId !== actor.id || from === to;

/** With single sign-on working and local sign-in off, who still signs in with a password: the Super Administrator (the way back in). */
export const keepsPasswordSignIn = (user: { role: Role }): boolean => isSuperAdmin(user);

// ---- Who hears about what ----

/** The weekly report goes to administrators. */
export const receivesWeeklyReport = (user: { role: Role }): boolean => isAdministrator(user);

/** A student's low attendance is told to administrators and to the class's instructor. */
export const hearsOfLowAttendanceIn = (user: { id: number; role: Role }, schedule: Taught): boolean =>
  isAdministrator(user) || user.id === schedule.instructorId;
