// Exception rates: how often a student's meetings needed a missed punch corrected.
import { exceptionRateOf, type ExceptionRates, type ExceptionRatesQuery, type StudentExceptions } from '../../../common/missed-punches.ts';
import type { Role } from '../../../common/roles.ts';
import type { DbOrTx } from '../../db/client.ts';
import { assertMayReadStudent, viewerScope } from '../access/service.ts';
import { countOpenRequests, selectExceptionCounts } from './queries.ts';

type User = { id: number; role: Role };

/**
 * GET /api/missed-punch-requests/exception-rates: the students with exceptions in the period, by
 * rate, highest first. Instructors count their own schedules' meetings only.
 */
export async function exceptionRates(db: DbOrTx, user: User, q: ExceptionRatesQuery): Promise<ExceptionRates> {
  const rows = await selectExceptionCounts(db, { from: q.from, to: q.to, programId: q.programId, instructorId: viewerScope(user).instructorId }, true);
  return {
    from: q.from,
    to: q.to,
    items: rows.map((r) => ({
      studentId: r.studentId,
      name: `${r.firstName} ${r.lastName}`,
      sisStudentId: r.sisStudentId,
      meetingsAttended: r.meetings,
      exceptions: r.exceptions,
      exceptionRate: exceptionRateOf(r.exceptions, r.meetings),
    })),
  };
}

/** GET /api/students/{id}/exceptions: the student's exceptions over all their meetings, and requests waiting; the hours' need-to-know. */
export async function studentExceptions(db: DbOrTx, user: User, studentId: number): Promise<StudentExceptions> {
  await assertMayReadStudent(db, user, studentId);
  const [[counts], openRequests] = await Promise.all([selectExceptionCounts(db, { studentId }, false), countOpenRequests(db, studentId)]);
  const meetings = counts?.meetings ?? 0;
  const exceptions = counts?.exceptions ?? 0;
  return { exceptions, meetingsAttended: meetings, exceptionRate: exceptionRateOf(exceptions, meetings), openRequests };
}
