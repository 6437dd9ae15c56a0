import { sql, type SQL } from 'drizzle-orm';
import { ATTENDED_STATUSES } from '../../common/constants.ts';

// SQL pieces the aggregates over a school's attendance share (the dashboard's read model and the
// attendance alerts' rules): which statuses count as attended, which students are expected in
// class, and how a read is narrowed to a viewer's scope.

/** The access module's ViewerScope, by its shape (this floor imports no module): the whole school, or one instructor's schedules. */
type Scope = { instructorId: number | null };

/** `('present', 'late', 'incomplete')` from the one list of attended statuses (our own constants, not input). */
export const ATTENDED = sql.raw(`(${ATTENDED_STATUSES.map((s) => `'${s}'`).join(', ')})`);
/** Students who are expected in class. */
export const ENROLLED = sql.raw(`('enrolled', 'active')`);

/** A condition on a `schedules` alias limiting rows to the scope. */
export function inScope(scope: Scope, alias = 's'): SQL {
  return scope.instructorId == null ? sql`true` : sql`${sql.identifier(alias)}.instructor_id = ${scope.instructorId}`;
}

/**
 * The records of the scope's schedules, as alias `a`. Every record has a schedule (a foreign key),
 * so the school-wide scope needs no join at all: at 120,000 records a join only to say `true`
 * was a third of the alert rules' time (decision 026).
 */
export function scopedRecords(scope: Scope): SQL {
  return scope.instructorId == null
    ? sql`attendance_records a`
    : sql`attendance_records a join schedules s on s.id = a.schedule_id and s.instructor_id = ${scope.instructorId}`;
}

/**
 * Records per meeting and status (meeting_status_totals, kept by triggers as records are written),
 * as alias `t`, in the scope: a window of weeks is a few rows per class and day, not every record.
 */
export function scopedTotals(scope: Scope): SQL {
  return scope.instructorId == null
    ? sql`meeting_status_totals t`
    : sql`meeting_status_totals t join schedules s on s.id = t.schedule_id and s.instructor_id = ${scope.instructorId}`;
}
