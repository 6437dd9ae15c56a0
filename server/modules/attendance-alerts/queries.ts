// Queries of the attendance alerts: the rules' reads over a school's attendance (raw SQL: aggregates
// and arrays per student and class, narrowed by a scope), the students at risk as recorded after
// each day, and alert acknowledgements.
import { and, desc, eq, inArray, sql } from 'drizzle-orm';

import type { DbOrTx } from '../../db/client.ts';
import { classMinutes, meetingCountBetween } from '../../db/meeting-rule.ts';
import type { attendanceRecords, courses, students } from '../../db/schema/index.ts';
import { alertAcknowledgements, schedules, studentsAtRiskDaily, users } from '../../db/schema/index.ts';
import { ATTENDED, ENROLLED, inScope } from '../../db/scoped-sql.ts';
import { userFullName } from '../../db/user-name.ts';

import type { ViewerScope } from '../access/service.ts';

type RecordColumns = typeof attendanceRecords.$inferSelect;
type CourseColumns = typeof courses.$inferSelect;
type StudentColumns = typeof students.$inferSelect;

// ---- The rules' reads ----

type CourseRate = { courseId: CourseColumns['id'] } & Pick<CourseColumns, 'courseName' | 'courseCode'> & { attended: number; total: number };

/** Per course, meetings in (since, today]: attended and all records, for courses with at least `minRecords`. */
export async function courseRates(db: DbOrTx, scope: ViewerScope, d: { since: string; today: string; minRecords: number }): Promise<CourseRate[]> {
  const { rows } = await db.execute<CourseRate>(sql`
    select c.id as "courseId", c.course_name as "courseName", c.course_code as "courseCode",
           coalesce(sum(t.records) filter (where t.status in ${ATTENDED}), 0)::int as attended, sum(t.records)::int as total
      from meeting_status_totals t join schedules s on s.id = t.schedule_id join courses c on c.id = s.course_id
     where t.session_date > ${d.since} and t.session_date <= ${d.today} and ${inScope(scope)}
     group by c.id, c.course_name, c.course_code
    having sum(t.records) >= ${d.minRecords}`);
  return rows;
}

type StudentStanding = Pick<RecordColumns, 'studentId' | 'scheduleId'> &
  Pick<CourseColumns, 'courseName' | 'courseCode'> & {
    courseId: CourseColumns['id'];
    name: StudentColumns['firstName'];
    /** Statuses of the last meetings, newest first. */
    recent: RecordColumns['status'][] | null;
    /** The last meeting of the class the student was absent from ('YYYY-MM-DD'), if any. */
    lastAbsence: string | null;
    /** Minutes attended and scheduled in the class so far. */
    attendedMinutes: number;
    scheduledMinutes: number;
    /** Minutes of the meetings still to come until the course ends. */
    remainingMinutes: number;
  };

/** How many of the last statuses student_class_totals keeps (student_class_recent() in migration 0030 says the same; a test holds them together). */
export const KEPT_RECENT_STATUSES = 5;

/**
 * Per enrolled student and class with a meeting recorded in (since, today]: the last `lastN`
 * statuses (newest first), the minutes attended and scheduled in the class so far, and the minutes
 * of the meetings still to come. The class's figures are kept as records are written
 * (student_class_totals, decision 058): one row per student and class, not every record of a
 * window. Records are never dated after today (overrides.ts refuses them).
 */
export async function studentStandings(db: DbOrTx, scope: ViewerScope, d: { since: string; today: string; lastN: number }): Promise<StudentStanding[]> {
  if (d.lastN > KEPT_RECENT_STATUSES) throw new Error(`student_class_totals keeps the last ${KEPT_RECENT_STATUSES} statuses, not ${d.lastN}`);
  const { rows } = await db.execute<StudentStanding>(sql`
    with remaining as (
      select s.id as schedule_id,
             ${meetingCountBetween('s', sql`${d.today}::date + 1`, sql`'infinity'::date`)} * ${classMinutes('s')} as remaining_minutes
        from schedules s where ${inScope(scope)}
    )
    select k.student_id as "studentId", k.schedule_id as "scheduleId", st.first_name || ' ' || st.last_name as name,
           c.id as "courseId", c.course_name as "courseName", c.course_code as "courseCode",
           k.recent[1:${d.lastN}] as recent,
           k.last_absence_date::text as "lastAbsence",
           k.minutes_attended::int as "attendedMinutes", k.scheduled_minutes::int as "scheduledMinutes",
           coalesce(remaining.remaining_minutes, 0) as "remainingMinutes"
      from student_class_totals k join students st on st.id = k.student_id
      join schedules s on s.id = k.schedule_id join courses c on c.id = s.course_id
      left join remaining on remaining.schedule_id = k.schedule_id
     where k.last_session_date > ${d.since} and st.status in ${ENROLLED} and ${inScope(scope)}`);
  return rows;
}

// ---- Students at risk, as recorded after each day ----

/** The scope as the daily record names it. */
const atRiskScopeKey = (scope: ViewerScope) => (scope.instructorId == null ? 'school' : `instructor:${scope.instructorId}`);

export async function recordedStudentsAtRisk(db: DbOrTx, scope: ViewerScope, asOf: string): Promise<number | null> {
  const [row] = await db
    .select({ students: studentsAtRiskDaily.students })
    .from(studentsAtRiskDaily)
    .where(and(eq(studentsAtRiskDaily.scopeKey, atRiskScopeKey(scope)), eq(studentsAtRiskDaily.asOf, asOf)));
  return row?.students ?? null;
}

/** Keeps the first figure recorded for a scope and day. */
export async function recordStudentsAtRisk(db: DbOrTx, scope: ViewerScope, asOf: string, students: number, now: Date): Promise<void> {
  await db
    .insert(studentsAtRiskDaily)
    .values({ scopeKey: atRiskScopeKey(scope), asOf, students, recordedAt: now })
    .onConflictDoNothing();
}

/** The scopes whose dashboards show the trend: the school, and each instructor with an active class. */
export async function dashboardScopes(db: DbOrTx): Promise<ViewerScope[]> {
  const rows = await db.selectDistinct({ instructorId: schedules.instructorId }).from(schedules).where(eq(schedules.isActive, true));
  return [{ instructorId: null }, ...rows.filter((r) => r.instructorId != null).map((r) => ({ instructorId: r.instructorId }))];
}

type AlertAcknowledgement = Pick<typeof alertAcknowledgements.$inferSelect, 'alertId' | 'reason' | 'note' | 'acknowledgedAt'> & {
  acknowledgedBy: string | null;
};

/** The acknowledgements of these alerts (any reason), newest first, with who acknowledged them. */
export async function selectAcknowledgements(db: DbOrTx, alertIds: string[]): Promise<AlertAcknowledgement[]> {
  if (alertIds.length === 0) return [];
  return db
    .select({
      alertId: alertAcknowledgements.alertId,
      reason: alertAcknowledgements.reason,
      note: alertAcknowledgements.note,
      acknowledgedAt: alertAcknowledgements.acknowledgedAt,
      acknowledgedBy: userFullName,
    })
    .from(alertAcknowledgements)
    .leftJoin(users, eq(users.id, alertAcknowledgements.acknowledgedBy))
    .where(inArray(alertAcknowledgements.alertId, alertIds))
    .orderBy(desc(alertAcknowledgements.acknowledgedAt), desc(alertAcknowledgements.id));
}

/** Records an acknowledgement of an alert for its reason now. */
export async function insertAcknowledgement(
  tx: DbOrTx,
  a: Pick<typeof alertAcknowledgements.$inferInsert, 'alertId' | 'reason' | 'note' | 'acknowledgedBy' | 'acknowledgedAt'>,
): Promise<{ id: number; acknowledgedAt: Date }> {
  const [row] = await tx
    .insert(alertAcknowledgements)
    .values(a)
    .returning({ id: alertAcknowledgements.id, acknowledgedAt: alertAcknowledgements.acknowledgedAt });
  return row!;
}
