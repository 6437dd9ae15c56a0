import { desc, eq, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { attendanceRecords, courses, programs, schedules, students, users } from '../../db/schema/index.ts';

import { scheduleMeetsOn } from '../../db/meeting-rule.ts';
import { ATTENDED, ENROLLED, inScope, scopedRecords, scopedTotals } from '../../db/scoped-sql.ts';
import type { ViewerScope } from '../access/service.ts';

// Queries of the dashboard: analytic aggregates over a school's attendance, so raw SQL (filters,
// series, window functions); each row type is built from the schema's column types. Every read is
// narrowed by a scope (the whole school, or one instructor's schedules). The alert rules' reads
// are the attendance-alerts module's.

type RecordColumns = typeof attendanceRecords.$inferSelect;
type CourseColumns = typeof courses.$inferSelect;

/** Schedules that meet on a date: weekly pattern within course dates minus holidays, make-up dates, or a session that ran. */
function meetingOn(date: string, scope: ViewerScope): SQL {
  return sql`
    select s.id from schedules s
     where ${inScope(scope)} and (
       ${scheduleMeetsOn('s', sql`${date}::date`)}
       or exists (select 1 from qr_sessions q where q.schedule_id = s.id and q.session_date = ${date}))`;
}

/** Students expected today so far (on the rosters of the classes that have begun) and those checked in to them. */
export async function todayCounts(db: DbOrTx, scope: ViewerScope, today: string, timeNow: string): Promise<{ expected: number; checkedIn: number }> {
  // Only the classes that have begun (or whose session was started early): the afternoon's
  // classes are not yet missed by anyone at noon.
  const { rows } = await db.execute<{ expected: number; checkedIn: number }>(sql`
    with meeting as (
      select m.id from (${meetingOn(today, scope)}) m join schedules s on s.id = m.id
       where s.start_time <= ${timeNow}::time
          or exists (select 1 from qr_sessions q where q.schedule_id = s.id and q.session_date = ${today}))
    select (select count(*) from schedule_rosters r join students st on st.id = r.student_id join meeting m on m.id = r.schedule_id
             where st.status in ${ENROLLED})::int as expected,
           (select count(*) from attendance_records a join meeting m on m.id = a.schedule_id
             where a.session_date = ${today} and a.status in ${ATTENDED})::int as "checkedIn"`);
  return rows[0]!;
}

/** One trivial statement: the database answers. */
export async function pingDatabase(db: DbOrTx): Promise<void> {
  await db.execute(sql`select 1`);
}

/** Records waiting for the SIS export, and those it refused. */
export async function syncCounts(db: DbOrTx, scope: ViewerScope): Promise<{ pending: number; failed: number }> {
  const { rows } = await db.execute<{ pending: number; failed: number }>(sql`
    select count(*) filter (where a.sync_status = 'pending')::int as pending, count(*) filter (where a.sync_status = 'failed')::int as failed
      from ${scopedRecords(scope)}
     where a.sync_status in ('pending', 'failed')`);
  return rows[0]!;
}

type OpenSessionCounts = Pick<RecordColumns, 'scheduleId' | 'sessionDate'> & { expected: number; checkedIn: number };

/** Per open QR session's meeting: students expected and checked in. */
export async function openSessionCounts(db: DbOrTx, scope: ViewerScope, now: Date): Promise<OpenSessionCounts[]> {
  const { rows } = await db.execute<OpenSessionCounts>(sql`
    select q.schedule_id as "scheduleId", q.session_date::text as "sessionDate",
           (select count(*) from schedule_rosters r join students st on st.id = r.student_id where r.schedule_id = q.schedule_id and st.status in ${ENROLLED})::int as expected,
           (select count(*) from attendance_records a where a.schedule_id = q.schedule_id and a.session_date = q.session_date and a.status in ${ATTENDED})::int as "checkedIn"
      from qr_sessions q join schedules s on s.id = q.schedule_id
     where q.is_active and q.expires_at > ${now} and ${inScope(scope)}`);
  return rows;
}

/** Students checked in and not yet out at the meetings of open QR sessions. */
export async function studentsInClass(db: DbOrTx, scope: ViewerScope, now: Date): Promise<number> {
  const { rows } = await db.execute<{ n: number }>(sql`
    select count(distinct a.student_id)::int as n
      from attendance_records a join qr_sessions q on q.schedule_id = a.schedule_id and q.session_date = a.session_date
      join schedules s on s.id = a.schedule_id
     where q.is_active and q.expires_at > ${now} and a.scan_in_time is not null and a.scan_out_time is null and ${inScope(scope)}`);
  return rows[0]!.n;
}

type RateTotals = { attended: number; onTime: number; total: number; minutes: number; scheduled: number };

/** Records of meetings in (from, to]: attended, on time, all; minutes attended and scheduled. */
export async function rateBetween(db: DbOrTx, scope: ViewerScope, from: string, to: string): Promise<RateTotals> {
  return (await ratesBetween(db, scope, [{ from, to }]))[0]!;
}

/**
 * The same totals for several date ranges, in one pass over the per-meeting totals of all of them
 * (the analytics trends compare four overlapping ranges).
 */
export async function ratesBetween<const R extends readonly { from: string; to: string }[]>(
  db: DbOrTx,
  scope: ViewerScope,
  ranges: R,
): Promise<{ [K in keyof R]: RateTotals }> {
  const from = ranges.reduce((m, r) => (r.from < m ? r.from : m), ranges[0]!.from);
  const to = ranges.reduce((m, r) => (r.to > m ? r.to : m), ranges[0]!.to);
  const columns = ranges.map((r, i) => {
    const within = sql`t.session_date > ${r.from} and t.session_date <= ${r.to}`;
    return sql`coalesce(sum(t.records) filter (where ${within} and t.status in ${ATTENDED}), 0)::int as ${sql.identifier(`attended${i}`)},
           coalesce(sum(t.records) filter (where ${within} and t.status = 'present'), 0)::int as ${sql.identifier(`onTime${i}`)},
           coalesce(sum(t.records) filter (where ${within}), 0)::int as ${sql.identifier(`total${i}`)},
           coalesce(sum(t.minutes_attended) filter (where ${within}), 0)::bigint::float8 as ${sql.identifier(`minutes${i}`)},
           coalesce(sum(t.scheduled_minutes) filter (where ${within}), 0)::bigint::float8 as ${sql.identifier(`scheduled${i}`)}`;
  });
  const { rows } = await db.execute<Record<string, number>>(sql`
    select ${sql.join(columns, sql`, `)}
      from ${scopedTotals(scope)}
     where t.session_date > ${from} and t.session_date <= ${to}`);
  const row = rows[0]!;
  return ranges.map((_, i) => ({
    attended: row[`attended${i}`]!,
    onTime: row[`onTime${i}`]!,
    total: row[`total${i}`]!,
    minutes: row[`minutes${i}`]!,
    scheduled: row[`scheduled${i}`]!,
  })) as { [K in keyof R]: RateTotals };
}

/** Attended and all records per day over [from, to], every day listed. */
export async function dailyTotals(
  db: DbOrTx,
  scope: ViewerScope,
  from: string,
  to: string,
): Promise<{ date: RecordColumns['sessionDate']; attended: number; total: number }[]> {
  const { rows } = await db.execute<{ date: RecordColumns['sessionDate']; attended: number; total: number }>(sql`
    select d::date::text as date,
           coalesce(sum(t.records) filter (where t.status in ${ATTENDED}), 0)::int as attended, coalesce(sum(t.records), 0)::int as total
      from generate_series(${from}::date, ${to}::date, interval '1 day') d
      left join (select t.session_date, t.status, t.records from ${scopedTotals(scope)}
                  where t.session_date between ${from}::date and ${to}::date) t on t.session_date = d::date
     group by d order by d`);
  return rows;
}

type CourseTotals = { courseId: CourseColumns['id'] } & Pick<CourseColumns, 'courseName' | 'courseCode'> & {
    sessions: number;
    attended: number;
    total: number;
    recentAtt: number;
    recentTotal: number;
    olderAtt: number;
    olderTotal: number;
  };

/** Per active course, meetings in (since, today]: sessions held, attended and all records, split at `split`. */
export async function courseTotals(db: DbOrTx, scope: ViewerScope, d: { since: string; split: string; today: string }): Promise<CourseTotals[]> {
  const { rows } = await db.execute<CourseTotals>(sql`
    -- Per meeting first, from the per-meeting totals (a meeting whose records were all removed is none).
    with meetings as (
      select t.schedule_id, t.session_date,
             sum(t.records) filter (where t.status in ${ATTENDED}) as att, sum(t.records) as tot
        from ${scopedTotals(scope)}
       where t.session_date > ${d.since} and t.session_date <= ${d.today}
       group by t.schedule_id, t.session_date
      having sum(t.records) > 0
    )
    select c.id as "courseId", c.course_name as "courseName", c.course_code as "courseCode",
           count(m.schedule_id)::int as sessions,
           coalesce(sum(m.att), 0)::int as attended, coalesce(sum(m.tot), 0)::int as total,
           coalesce(sum(m.att) filter (where m.session_date > ${d.split}), 0)::int as "recentAtt",
           coalesce(sum(m.tot) filter (where m.session_date > ${d.split}), 0)::int as "recentTotal",
           coalesce(sum(m.att) filter (where m.session_date <= ${d.split}), 0)::int as "olderAtt",
           coalesce(sum(m.tot) filter (where m.session_date <= ${d.split}), 0)::int as "olderTotal"
      from courses c join schedules s on s.course_id = c.id and ${inScope(scope)}
      left join meetings m on m.schedule_id = s.id
     where c.is_active
     group by c.id, c.course_name, c.course_code
     order by c.course_code`);
  return rows;
}

/** Sign-ins of the last day and the average sign-in length of the last week (an instructor's own). */
export async function signInActivity(db: DbOrTx, scope: ViewerScope, now: Date): Promise<{ daily: number; avgMinutes: number | null }> {
  const { rows } = await db.execute<{ daily: number; avgMinutes: number | null }>(sql`
    select count(*) filter (where ls.created_at > ${now}::timestamptz - interval '24 hours')::int as daily,
           avg(extract(epoch from (coalesce(ls.ended_at, ls.last_seen_at) - ls.created_at)) / 60)
             filter (where ls.created_at > ${now}::timestamptz - interval '7 days')::float8 as "avgMinutes"
      from login_sessions ls where ${ownSignIns(scope)}`);
  return rows[0]!;
}

/** The three users with the most sign-ins over the last week. */
export async function mostActiveUsers(db: DbOrTx, scope: ViewerScope, now: Date): Promise<{ name: string; sessions: number }[]> {
  const { rows } = await db.execute<{ name: string; sessions: number }>(sql`
    select coalesce(nullif(trim(u.first_name || ' ' || u.last_name), ''), u.email) as name, count(*)::int as sessions
      from login_sessions ls join users u on u.id = ls.user_id
     where ls.created_at > ${now}::timestamptz - interval '7 days' and ${ownSignIns(scope)}
     group by u.id order by sessions desc, name limit 3`);
  return rows;
}

const ownSignIns = (scope: ViewerScope): SQL => (scope.instructorId == null ? sql`true` : sql`ls.user_id = ${scope.instructorId}`);

type SchoolCounts = {
  totalStudents: number;
  enrolledStudents: number;
  totalCourses: number;
  activeCourses: number;
  activeSchedules: number;
  instructors: number;
  classesToday: number;
};

export async function schoolCounts(db: DbOrTx, scope: ViewerScope, today: string): Promise<SchoolCounts> {
  const { rows } = await db.execute<SchoolCounts>(sql`
    select (select count(*) from students)::int as "totalStudents",
           (select count(*) from students where status in ${ENROLLED})::int as "enrolledStudents",
           (select count(*) from courses)::int as "totalCourses",
           (select count(*) from courses where is_active)::int as "activeCourses",
           (select count(*) from schedules s where s.is_active and ${inScope(scope)})::int as "activeSchedules",
           (select count(*) from users where role = 'instructor' and is_active)::int as "instructors",
           (select count(*) from (${meetingOn(today, scope)}) m)::int as "classesToday"`);
  return rows[0]!;
}

type SetupCounts = { programs: number; courses: number; students: number; instructors: number; schedules: number; attendanceRecords: number };

/** How much the school has set up, counted over every row (the checklist is school-wide). */
export async function setupCounts(db: DbOrTx): Promise<SetupCounts> {
  const { rows } = await db.execute<SetupCounts>(sql`
    select (select count(*) from ${programs})::int as "programs",
           (select count(*) from ${courses})::int as "courses",
           (select count(*) from ${students})::int as "students",
           (select count(*) from ${users} where ${users.role} = 'instructor')::int as "instructors",
           (select count(*) from ${schedules})::int as "schedules",
           (select count(*) from ${attendanceRecords})::int as "attendanceRecords"`);
  return rows[0]!;
}

/** The 20 records changed last, with their student and course. */
export async function latestRecords(db: DbOrTx, scope: ViewerScope) {
  return db
    .select({
      id: attendanceRecords.id,
      studentId: attendanceRecords.studentId,
      studentName: sql<string>`${students.firstName} || ' ' || ${students.lastName}`,
      courseCode: courses.courseCode,
      courseName: courses.courseName,
      sessionDate: attendanceRecords.sessionDate,
      status: attendanceRecords.status,
      scanInTime: attendanceRecords.scanInTime,
      scanOutTime: attendanceRecords.scanOutTime,
      source: attendanceRecords.source,
    })
    .from(attendanceRecords)
    .innerJoin(students, eq(students.id, attendanceRecords.studentId))
    .innerJoin(schedules, eq(schedules.id, attendanceRecords.scheduleId))
    .innerJoin(courses, eq(courses.id, schedules.courseId))
    .where(scope.instructorId == null ? undefined : eq(schedules.instructorId, scope.instructorId))
    .orderBy(desc(attendanceRecords.updatedAt), desc(attendanceRecords.id))
    .limit(20);
}
