// Make-up sessions: listed, recorded within the program's cap, deleted with a reason.
import type { MakeUpInput, MakeUpSession } from '../../../common/make-ups.ts';
import type { Role } from '../../../common/roles.ts';
import type { Db, DbOrTx } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import { badRequest, notFound } from '../../lib/errors.ts';
import { assertMayDeleteMakeUp, assertMayReadStudent, mayNameMakeUpSupervisor, maySuperviseMakeUps } from '../access/service.ts';
import { recordAudit } from '../audit-logs/service.ts';
import { programPolicy } from '../programs/service.ts';
import { hoursOfMinutes as hours } from '../../../common/hours.ts';
import {
  courseExists,
  deleteMakeUpRow,
  insertMakeUp,
  lockStudentMakeUpMinutes,
  selectMakeUp,
  selectMakeUps,
  selectSupervisor,
  type MakeUpRow,
} from './queries.ts';
import { readableStudent, schoolToday } from './reading.ts';

type User = { id: number; role: Role };
type Ctx = { clock: Clock; ip: string | null };

function toMakeUp(r: MakeUpRow): MakeUpSession {
  return {
    id: r.id,
    studentId: r.studentId,
    date: r.sessionDate,
    startTime: r.startTime.slice(0, 5),
    endTime: r.endTime.slice(0, 5),
    minutes: r.minutes,
    supervisorId: r.supervisorId,
    supervisorName: r.supervisorName,
    courseId: r.courseId,
    courseCode: r.courseCode,
    note: r.note,
    createdAt: r.createdAt.toISOString(),
  };
}

export async function listMakeUps(db: DbOrTx, user: User, studentId: number): Promise<MakeUpSession[]> {
  await assertMayReadStudent(db, user, studentId);
  return (await selectMakeUps(db, studentId)).map(toMakeUp);
}

const minutesOfDay = (t: string) => Number(t.slice(0, 2)) * 60 + Number(t.slice(3, 5));

/**
 * Record a make-up session: the supervisor is an active instructor or administrator (instructors
 * name themselves, for students on their own rosters); not in the future; within the program's
 * make-up cap (checked with the student's make-up minutes locked).
 */
export async function recordMakeUp(db: Db, user: User, studentId: number, input: MakeUpInput, ctx: Ctx): Promise<MakeUpSession> {
  const student = await readableStudent(db, user, studentId);
  const fieldError = (field: string, message: string) => badRequest(message, [{ field, message }]);
  if (!mayNameMakeUpSupervisor(user, input.supervisorId)) throw fieldError('supervisorId', 'Instructors record make-up sessions they supervise themselves');
  const supervisor = await selectSupervisor(db, input.supervisorId);
  if (!supervisor || !supervisor.isActive || !maySuperviseMakeUps(supervisor)) {
    throw fieldError('supervisorId', 'The supervisor must be an active instructor or administrator');
  }
  if (input.courseId != null && !(await courseExists(db, input.courseId))) throw fieldError('courseId', `No course with id ${input.courseId}`);
  const { today } = await schoolToday(db, ctx.clock);
  if (input.date > today) throw fieldError('date', 'A make-up session cannot be recorded for a future date');
  if (student.enrollmentDate && input.date < student.enrollmentDate)
    throw fieldError('date', `The student enrolled on ${student.enrollmentDate}; ${input.date} is before that`);
  const minutes = minutesOfDay(input.endTime) - minutesOfDay(input.startTime);
  const policy = student.programId == null ? undefined : await programPolicy(db, student.programId);
  return db.transaction(async (tx) => {
    const used = await lockStudentMakeUpMinutes(tx, studentId);
    if (policy?.makeUpCapPercent != null) {
      const capMinutes = Math.floor(policy.programHours * 60 * (policy.makeUpCapPercent / 100));
      if (used + minutes > capMinutes) {
        throw fieldError(
          'endTime',
          `This make-up would bring the student to ${hours(used + minutes)} make-up hours, over the program's cap of ${hours(capMinutes)} hours (${policy.makeUpCapPercent}% of ${policy.programHours})`,
        );
      }
    }
    const id = await insertMakeUp(tx, {
      studentId,
      sessionDate: input.date,
      startTime: input.startTime,
      endTime: input.endTime,
      minutes,
      supervisorId: input.supervisorId,
      courseId: input.courseId,
      note: input.note,
      createdBy: user.id,
      createdAt: ctx.clock.now(),
    });
    await recordAudit(tx, {
      userId: user.id,
      action: 'Create',
      tableName: 'make_up_sessions',
      recordId: id,
      ipAddress: ctx.ip,
      newValues: { studentId, ...input, minutes },
      at: ctx.clock.now(),
    });
    return toMakeUp((await selectMakeUps(tx, studentId)).find((m) => m.id === id)!);
  });
}

/** Delete a make-up session with a reason kept in the audit log (administrators; instructors their own). */
export async function deleteMakeUp(db: Db, user: User, studentId: number, sessionId: number, reason: string, ctx: Ctx): Promise<void> {
  await assertMayReadStudent(db, user, studentId);
  await db.transaction(async (tx) => {
    const row = await selectMakeUp(tx, studentId, sessionId);
    if (!row) throw notFound('Make-up session');
    assertMayDeleteMakeUp(user, row);
    await deleteMakeUpRow(tx, sessionId);
    await recordAudit(tx, {
      userId: user.id,
      action: 'Delete',
      tableName: 'make_up_sessions',
      recordId: sessionId,
      ipAddress: ctx.ip,
      oldValues: {
        studentId,
        date: row.sessionDate,
        startTime: row.startTime,
        endTime: row.endTime,
        minutes: row.minutes,
        supervisorId: row.supervisorId,
        reason,
      },
      at: ctx.clock.now(),
    });
  });
}
