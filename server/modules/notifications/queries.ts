import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { NAMED_LOCK_CLASSES } from '../../db/advisory-locks.ts';

export type MeetingRow = { id: number; studentId: number; scheduleId: number; sessionDate: string; status: string };

/** Attendance of students still in school, newest first per student and class, since a date. */
export async function selectRecentMeetings(db: DbOrTx, since: string, today: string): Promise<MeetingRow[]> {
  const { rows } = await db.execute<{ id: number; student_id: number; schedule_id: number; session_date: string; status: string }>(sql`
    select ar.id, ar.student_id, ar.schedule_id, ar.session_date::text as session_date, ar.status
      from attendance_records ar
      join students s on s.id = ar.student_id
     where ar.session_date between ${since}::date and ${today}::date
       and s.status in ('enrolled', 'active')
     order by ar.student_id, ar.schedule_id, ar.session_date desc`);
  return rows.map((r) => ({ id: r.id, studentId: r.student_id, scheduleId: r.schedule_id, sessionDate: r.session_date, status: r.status }));
}

type AlertContextRow = {
  studentId: number;
  scheduleId: number;
  firstName: string;
  lastName: string;
  email: string | null;
  phone: string | null;
  optedOut: boolean;
  programId: number | null;
  consecutiveAbsenceAlert: number | null;
  alertCopyToStudent: boolean;
  makeUpDeadlineDays: number | null;
  courseCode: string;
  courseName: string;
  instructorId: number | null;
};

/** Who and what an alert is about: the student, their program's alert policy, the class and its instructor. */
export async function selectAlertContext(db: DbOrTx, pairs: { studentId: number; scheduleId: number }[]): Promise<AlertContextRow[]> {
  if (pairs.length === 0) return [];
  const values = sql.join(
    pairs.map((p) => sql`(${p.studentId}::int, ${p.scheduleId}::int)`),
    sql`, `,
  );
  const { rows } = await db.execute<Record<string, unknown>>(sql`
    select s.id as student_id, sc.id as schedule_id, s.first_name, s.last_name, s.email, s.phone,
           s.notices_opt_out_at is not null as opted_out, s.program_id,
           pp.consecutive_absence_alert, coalesce(pp.alert_copy_to_student, false) as alert_copy_to_student, pp.make_up_deadline_days,
           c.course_code, c.course_name, sc.instructor_id
      from (values ${values}) as p(student_id, schedule_id)
      join students s on s.id = p.student_id
      join schedules sc on sc.id = p.schedule_id
      join courses c on c.id = sc.course_id
      left join program_policies pp on pp.program_id = s.program_id`);
  return rows.map((r) => ({
    studentId: r.student_id as number,
    scheduleId: r.schedule_id as number,
    firstName: r.first_name as string,
    lastName: r.last_name as string,
    email: (r.email as string | null) ?? null,
    phone: (r.phone as string | null) ?? null,
    optedOut: r.opted_out as boolean,
    programId: (r.program_id as number | null) ?? null,
    consecutiveAbsenceAlert: (r.consecutive_absence_alert as number | null) ?? null,
    alertCopyToStudent: r.alert_copy_to_student as boolean,
    makeUpDeadlineDays: (r.make_up_deadline_days as number | null) ?? null,
    courseCode: r.course_code as string,
    courseName: r.course_name as string,
    instructorId: (r.instructor_id as number | null) ?? null,
  }));
}

/** Serialise alert decisions for one student and rule across instances, until the transaction ends. */
export async function lockStudentRule(db: DbOrTx, studentId: number, rule: string): Promise<void> {
  await db.execute(sql`select pg_advisory_xact_lock(hashtext(${NAMED_LOCK_CLASSES.studentAlert}), hashtext(${`${studentId}:${rule}`}))`);
}

export async function firedWithin(db: DbOrTx, studentId: number, rule: string, since: Date): Promise<boolean> {
  const { rows } = await db.execute(
    sql`select 1 from student_alerts where student_id = ${studentId} and rule = ${rule} and fired_at > ${since.toISOString()} limit 1`,
  );
  return rows.length > 0;
}

export async function insertStudentAlert(db: DbOrTx, studentId: number, rule: string, details: object, at: Date): Promise<void> {
  await db.execute(
    sql`insert into student_alerts (student_id, rule, details, fired_at) values (${studentId}, ${rule}, ${JSON.stringify(details)}::jsonb, ${at.toISOString()})`,
  );
}

/** The statuses the named meetings have now (read in the sending transaction). */
export async function selectStatuses(db: DbOrTx, recordIds: number[]): Promise<string[]> {
  if (recordIds.length === 0) return [];
  const { rows } = await db.execute<{ status: string }>(
    sql`select status from attendance_records where id in (${sql.join(
      recordIds.map((id) => sql`${id}`),
      sql`, `,
    )}) for share`,
  );
  return rows.map((r) => r.status);
}

/** Whether the user or student an unsubscribe link names exists (one indexed lookup either way). */
export async function unsubscribeTargetExists(db: DbOrTx, target: { userId: number } | { studentId: number }): Promise<boolean> {
  const { rows } = await db.execute(
    'userId' in target ? sql`select 1 from users where id = ${target.userId}` : sql`select 1 from students where id = ${target.studentId}`,
  );
  return rows.length > 0;
}

export async function setStudentOptOut(db: DbOrTx, studentId: number, at: Date): Promise<boolean> {
  const { rows } = await db.execute(
    sql`update students set notices_opt_out_at = coalesce(notices_opt_out_at, ${at.toISOString()}) where id = ${studentId} returning id`,
  );
  return rows.length > 0;
}
