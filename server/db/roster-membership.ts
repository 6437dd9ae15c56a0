import { sql, type Column, type SQL } from 'drizzle-orm';
import { scheduleRosters, schedules } from './schema/index.ts';

// The instructor's need-to-know in SQL, once: a student is theirs when the student is on the roster
// of a schedule they teach. The access module (server/modules/access) asks it of one student; the
// lists that an instructor sees limited to their students (students, hours) filter by it.
//
// It lives here, below the modules, rather than in access/queries.ts: lint lets a module reach
// another only through its service.ts, and a queries file that imported a service would stand a
// module's SQL on another module's business rules. server/db already holds the SQL fragments
// several modules share (meeting-rule.ts, user-name.ts); docs/decisions/054-access-module.md.

/** Whether the student (a column of the outer query, or an id) is on the roster of a schedule this instructor teaches. */
export function onInstructorRoster(student: Column | SQL | number, instructorId: number): SQL {
  return sql`exists (select 1 from ${scheduleRosters} roster_r join ${schedules} roster_s on roster_s.id = roster_r.schedule_id
    where roster_r.student_id = ${student} and roster_s.instructor_id = ${instructorId})`;
}

/**
 * The students a viewer may see, as a condition on a students column (undefined: no condition, the
 * whole school). `scope` is the access module's ViewerScope.
 */
export function studentsInScope(student: Column | SQL, scope: { instructorId: number | null }): SQL | undefined {
  return scope.instructorId == null ? undefined : onInstructorRoster(student, scope.instructorId);
}
