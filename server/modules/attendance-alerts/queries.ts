// Queries of the attendance alerts: the rules' reads over a school's attendance (raw SQL: aggregates
// and arrays per student and class, narrowed by a scope), the students at risk as recorded after
// each day, and alert acknowledgements.
import { and, desc, eq, inArray, sql } from 'drizzle-orm';

import type { DbOrTx } from '../../db/client.ts';
import { classMinutes, meetingCountBetween } from '../../db/meeting-rule.ts';
import type { attendanceRecords, courses, students } from '../../db/schema/index.ts';
import { alertAcknowledgements, schedules, studentsAtRiskDaily, users } from '../../db/schema/index.ts';
import { ATTENDED, ENROLLED, inScope, scopedRecords } from '../../db/scoped-sql.ts';
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
    /** The newest meeting in the window the student was absent from ('YYYY-MM-DD'), if any. */
    lastAbsence: string | null;
    attendedMinutes: number;
    scheduledMinutes: number;
    /** Minutes of the meetings still to come until the course ends. */
    remainingMinutes: number;
  };

/**
 * Per enrolled student and class with meetings in (since, today]: the last `lastN` statuses (newest
 * first), minutes attended and scheduled, and the minutes of the meetings still to come.
 */
export async function studentStandings(db: DbOrTx, scope: ViewerScope, d: { since: string; today: string; lastN: number }): Promise<StudentStanding[]> {
  const { rows } = await db.execute<StudentStanding>(sql`
    with per as (
      select a.student_id, a.schedule_id,
             coalesce(sum(a.minutes_attended), 0)::int as attended_minutes,
             coalesce(sum(a.scheduled_minutes), 0)::int as scheduled_minutes
        from ${scopedRecords(scope)}
       where a.session_date > ${d.since} and a.session_date <= ${d.today}
       group by a.student_id, a.schedule_id
    ), remaining as (
      select s.id as schedule_id,
             ${meetingCountBetween('s', sql`${d.today}::date + 1`, sql`'infinity'::date`)} * ${classMinutes('s')} as remaining_minutes
        from schedules s where ${inScope(scope)}
    )
    select per.student_id as "studentId", per.schedule_id as "scheduleId", st.first_name || ' ' || st.last_name as name,
           c.id as "courseId", c.course_name as "courseName", c.course_code as "courseCode",
           -- The last lastN statuses, newest first: a few rows of an index per student and class,
           -- not a sort of the whole window (decision 026).
           array(select r.status from attendance_records r
                  where r.student_id = per.student_id and r.schedule_id = per.schedule_id
                    and r.session_date > ${d.since} and r.session_date <= ${d.today}
                  order by r.session_date desc limit ${d.lastN}) as recent,
           (select max(r.session_date)::text from attendance_records r
             where r.student_id = per.student_id and r.schedule_id = per.schedule_id and r.status = 'absent'
               and r.session_date > ${d.since} and r.session_date <= ${d.today}) as "lastAbsence",
           per.attended_minutes as "attendedMinutes", per.scheduled_minutes as "scheduledMinutes",
           coalesce(remaining.remaining_minutes, 0) as "remainingMinutes"
      from per join students st on st.id = per.student_id
      join schedules s on s.id = per.schedule_id join courses c on c.id = s.course_id
      left join remaining on remaining.schedule_id = per.schedule_id
     where st.status in ${ENROLLED}`);
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
