import { sql } from 'drizzle-orm';
import type { z } from 'zod';
import { INSTRUCTOR_REQUIRED, type Schedule, type scheduleInputSchema } from '../../../common/schedules.ts';
import type { Role } from '../../../common/roles.ts';
import type { Db, DbOrTx } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import { withUniqueFields } from '../../lib/db-errors.ts';
import { badRequest, forbidden, notFound } from '../../lib/errors.ts';
import { changedFields, recordAudit } from '../audit-logs/service.ts';

type Input = z.output<typeof scheduleInputSchema>;
type Ctx = { actorId: number; ip: string | null; clock: Clock };
const UNIQUE = { schedules_sis_schedule_id_unique: { field: 'sisScheduleId', message: 'Another schedule already has this SIS schedule ID' } };

type Row = {
  id: number;
  course_id: number;
  course_name: string;
  course_code: string;
  instructor_id: number | null;
  instructor_name: string | null;
  cohort_number: number;
  term_number: number;
  day_of_week: number;
  start_time: string;
  end_time: string;
  room_number: string | null;
  course_start_date: string;
  course_end_date: string;
  sis_schedule_id: string | null;
  is_active: boolean;
  roster_count: number;
};
const toSchedule = (r: Row): Schedule => ({
  id: r.id,
  courseId: r.course_id,
  courseName: r.course_name,
  courseCode: r.course_code,
  instructorId: r.instructor_id,
  instructorName: r.instructor_name,
  cohortNumber: r.cohort_number,
  termNumber: r.term_number,
  dayOfWeek: r.day_of_week,
  startTime: r.start_time.slice(0, 5),
  endTime: r.end_time.slice(0, 5),
  roomNumber: r.room_number,
  courseStartDate: r.course_start_date,
  courseEndDate: r.course_end_date,
  sisScheduleId: r.sis_schedule_id,
  isActive: r.is_active,
  rosterCount: r.roster_count,
});

const SELECT = sql`
  select s.id, s.course_id, c.course_name, c.course_code, s.instructor_id,
         nullif(trim(coalesce(u.first_name, '') || ' ' || coalesce(u.last_name, '')), '') as instructor_name,
         s.cohort_number, s.term_number, s.day_of_week, s.start_time::text, s.end_time::text, s.room_number,
         s.course_start_date::text, s.course_end_date::text, s.sis_schedule_id, s.is_active,
         (select count(*)::int from schedule_rosters r where r.schedule_id = s.id) as roster_count
    from schedules s join courses c on c.id = s.course_id left join users u on u.id = s.instructor_id`;

export async function listSchedules(db: DbOrTx, opts: { instructorId?: number; search?: string } = {}): Promise<Schedule[]> {
  const filters = [sql`true`];
  if (opts.instructorId != null) filters.push(sql`s.instructor_id = ${opts.instructorId}`);
  if (opts.search) {
    const term = `%${opts.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    filters.push(sql`(c.course_name ilike ${term} or c.course_code ilike ${term} or s.room_number ilike ${term}
                      or s.sis_schedule_id ilike ${term} or (u.first_name || ' ' || u.last_name) ilike ${term})`);
  }
  const { rows } = await db.execute<Row>(sql`${SELECT} where ${sql.join(filters, sql` and `)} order by c.course_code, s.cohort_number, s.day_of_week, s.start_time`);
  return rows.map(toSchedule);
}

export async function getSchedule(db: DbOrTx, id: number): Promise<Schedule> {
  const { rows } = await db.execute<Row>(sql`${SELECT} where s.id = ${id}`);
  if (!rows[0]) throw notFound('Schedule');
  return toSchedule(rows[0]);
}

/** Instructors see and run only their own schedules; admins any. */
export async function assertCanUseSchedule(db: DbOrTx, user: { id: number; role: Role }, scheduleId: number): Promise<Schedule> {
  const schedule = await getSchedule(db, scheduleId);
  if (user.role === 'instructor' && schedule.instructorId !== user.id) throw forbidden('This schedule belongs to another instructor');
  return schedule;
}

async function checkReferences(tx: DbOrTx, input: Input) {
  const { rows: course } = await tx.execute(sql`select 1 from courses where id = ${input.courseId}`);
  if (course.length === 0) throw badRequest('Course does not exist', [{ field: 'courseId', message: `No course with id ${input.courseId}` }]);
  if (input.instructorId != null) {
    const { rows } = await tx.execute(sql`select 1 from users where id = ${input.instructorId} and role = 'instructor' and is_active`);
    if (rows.length === 0) throw badRequest(INSTRUCTOR_REQUIRED, [{ field: 'instructorId', message: INSTRUCTOR_REQUIRED }]);
  }
}

export async function createSchedule(db: Db, input: Input, ctx: Ctx): Promise<Schedule> {
  return db.transaction(async (tx) => {
    await checkReferences(tx, input);
    const { rows } = await withUniqueFields(
      () =>
        tx.execute<{ id: number }>(sql`
          insert into schedules (course_id, instructor_id, cohort_number, term_number, day_of_week, start_time, end_time,
                                 room_number, course_start_date, course_end_date, sis_schedule_id, is_active)
          values (${input.courseId}, ${input.instructorId}, ${input.cohortNumber}, ${input.termNumber}, ${input.dayOfWeek},
                  ${input.startTime}, ${input.endTime}, ${input.roomNumber}, ${input.courseStartDate}, ${input.courseEndDate},
                  ${input.sisScheduleId}, ${input.isActive})
          returning id`),
      UNIQUE,
    );
    const id = rows[0]!.id;
    // The roster starts with the enrolled students of the course's program.
    await tx.execute(sql`
      insert into schedule_rosters (schedule_id, student_id)
      select ${id}, st.id from students st join courses c on c.program_id = st.program_id
       where c.id = ${input.courseId} and st.status = 'enrolled'
      on conflict do nothing`);
    const created = await getSchedule(tx, id);
    await recordAudit(tx, { userId: ctx.actorId, action: 'Create', tableName: 'schedules', recordId: id, ipAddress: ctx.ip, newValues: { ...input, rosterCount: created.rosterCount } });
    return created;
  });
}

export async function updateSchedule(db: Db, id: number, input: Input, ctx: Ctx): Promise<Schedule> {
  return db.transaction(async (tx) => {
    const { rows: locked } = await tx.execute(sql`select id from schedules where id = ${id} for update`);
    if (locked.length === 0) throw notFound('Schedule');
    const before = await getSchedule(tx, id);
    await checkReferences(tx, input);
    await withUniqueFields(
      () =>
        tx.execute(sql`
          update schedules set course_id = ${input.courseId}, instructor_id = ${input.instructorId}, cohort_number = ${input.cohortNumber},
                 term_number = ${input.termNumber}, day_of_week = ${input.dayOfWeek}, start_time = ${input.startTime}, end_time = ${input.endTime},
                 room_number = ${input.roomNumber}, course_start_date = ${input.courseStartDate}, course_end_date = ${input.courseEndDate},
                 sis_schedule_id = ${input.sisScheduleId}, is_active = ${input.isActive}, updated_at = now()
           where id = ${id}`),
      UNIQUE,
    );
    const diff = changedFields(before as unknown as Record<string, unknown>, input as Record<string, unknown>);
    await recordAudit(tx, { userId: ctx.actorId, action: 'Update', tableName: 'schedules', recordId: id, ipAddress: ctx.ip, ...diff });
    return getSchedule(tx, id);
  });
}

export type RosterEntry = { studentId: number; firstName: string; lastName: string; email: string | null; sisStudentId: string | null; status: string };

export async function listRoster(db: DbOrTx, scheduleId: number): Promise<RosterEntry[]> {
  const { rows } = await db.execute<{ id: number; first_name: string; last_name: string; email: string | null; sis_student_id: string | null; status: string }>(sql`
    select st.id, st.first_name, st.last_name, st.email, st.sis_student_id, st.status
      from schedule_rosters r join students st on st.id = r.student_id
     where r.schedule_id = ${scheduleId}
     order by lower(st.last_name), lower(st.first_name)`);
  return rows.map((r) => ({ studentId: r.id, firstName: r.first_name, lastName: r.last_name, email: r.email, sisStudentId: r.sis_student_id, status: r.status }));
}

export async function addToRoster(db: Db, scheduleId: number, studentIds: number[], ctx: Ctx): Promise<RosterEntry[]> {
  return db.transaction(async (tx) => {
    await getSchedule(tx, scheduleId);
    const ids = sql`array[${sql.join(studentIds.map((i) => sql`${i}::int`), sql`, `)}]`;
    const { rows: found } = await tx.execute<{ id: number }>(sql`select id from students where id = any(${ids})`);
    const missing = studentIds.filter((i) => !found.some((f) => f.id === i));
    if (missing.length > 0) throw badRequest('Unknown student', [{ field: 'studentIds', message: `No student with id ${missing.join(', ')}` }]);
    const { rows: added } = await tx.execute<{ student_id: number }>(sql`
      insert into schedule_rosters (schedule_id, student_id) select ${scheduleId}, unnest(${ids})
      on conflict do nothing returning student_id`);
    if (added.length > 0) {
      await recordAudit(tx, { userId: ctx.actorId, action: 'Create', tableName: 'schedule_rosters', recordId: scheduleId, ipAddress: ctx.ip, newValues: { studentIds: added.map((a) => a.student_id) } });
    }
    return listRoster(tx, scheduleId);
  });
}

/** Removing a student from a roster keeps their attendance history. */
export async function removeFromRoster(db: Db, scheduleId: number, studentId: number, ctx: Ctx): Promise<void> {
  await db.transaction(async (tx) => {
    const result = await tx.execute(sql`delete from schedule_rosters where schedule_id = ${scheduleId} and student_id = ${studentId}`);
    if (!result.rowCount) throw notFound('Roster entry');
    await recordAudit(tx, { userId: ctx.actorId, action: 'Delete', tableName: 'schedule_rosters', recordId: scheduleId, ipAddress: ctx.ip, oldValues: { studentId } });
  });
}
