import { sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { AttendanceRow, manualRecordSchema, overrideSchema } from '../../../common/attendance.ts';
import type { AttendanceStatus } from '../../../common/constants.ts';
import type { Role } from '../../../common/roles.ts';
import type { Schedule } from '../../../common/schedules.ts';
import type { Db, DbOrTx } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import { badRequest, conflict, forbidden, notFound } from '../../lib/errors.ts';
import { localDate } from '../../lib/school-time.ts';
import { isoOrNull } from '../../lib/sql-values.ts';
import { recordAudit } from '../audit-logs/service.ts';
import { assertCanUseSchedule } from '../schedules/service.ts';
import { getSettings } from '../settings/service.ts';
import { flagsOfMeeting } from './proxy-flags.ts';
import { insertManualRecord, rosterEnrolment, rosterWithRecords, scheduleCalendar } from './queries.ts';
import { classWindow, scheduledMinutes, whyNotAMeeting } from './rules.ts';

type User = { id: number; role: Role };
type Ctx = { clock: Clock; ip: string | null };

/** Roster rows of one meeting with their records and proxy flags; the caller has checked access. */
async function meetingRows(db: DbOrTx, scheduleId: number, sessionDate: string): Promise<AttendanceRow[]> {
  const [rows, flags] = await Promise.all([rosterWithRecords(db, scheduleId, sessionDate), flagsOfMeeting(db, scheduleId, sessionDate)]);
  return rows.map((r) => ({
    id: r.id,
    studentId: r.student_id,
    firstName: r.first_name,
    lastName: r.last_name,
    sisStudentId: r.sis_student_id,
    sessionDate,
    status: r.status,
    scanInTime: isoOrNull(r.scan_in_time),
    scanOutTime: isoOrNull(r.scan_out_time),
    minutesAttended: r.minutes_attended,
    scheduledMinutes: r.scheduled_minutes,
    isManualOverride: r.is_manual_override ?? false,
    overrideReason: r.override_reason,
    source: r.source,
    flags: r.id == null ? [] : (flags.get(r.id) ?? []),
  }));
}

/** One student's row of a meeting, after a change the caller was allowed to make. */
async function meetingRow(db: DbOrTx, scheduleId: number, sessionDate: string, studentId: number): Promise<AttendanceRow> {
  return (await meetingRows(db, scheduleId, sessionDate)).find((r) => r.studentId === studentId)!;
}

/**
 * The schedule's roster merged with the records of one meeting (default: today, school time), with
 * the "possible proxy" flags of each check-in. Instructors see their own schedules only.
 */
export async function listScheduleAttendance(db: DbOrTx, user: User, scheduleId: number, date: string | undefined, clock: Clock): Promise<AttendanceRow[]> {
  await assertCanUseSchedule(db, user, scheduleId);
  const sessionDate = date ?? localDate(clock.now(), (await getSettings(db)).attendance.timeZone);
  return meetingRows(db, scheduleId, sessionDate);
}

async function assertMayOverride(db: DbOrTx, user: User, scheduleId: number): Promise<Schedule> {
  const schedule = await assertCanUseSchedule(db, user, scheduleId);
  if (user.role === 'instructor' && !(await getSettings(db)).attendance.allowInstructorOverride) {
    throw forbidden('Instructor overrides are turned off in Settings; ask an administrator');
  }
  return schedule;
}

/**
 * Minutes credited by an override: the scanned overlap when there is one, the whole class for a
 * present/late without scans, nothing for absent or excused (excused time is reported apart).
 */
function overrideMinutes(status: AttendanceStatus, scanned: number | null, scheduled: number): number {
  if (status === 'absent' || status === 'excused') return 0;
  return scanned ?? scheduled;
}

type Override = z.output<typeof overrideSchema>;

export async function overrideAttendance(db: Db, user: User, recordId: number, body: Override, ctx: Ctx): Promise<AttendanceRow> {
  return db.transaction(async (tx) => {
    const { rows } = await tx.execute<{ schedule_id: number; student_id: number; session_date: string; status: string; is_manual_override: boolean; override_reason: string | null; scanned: number | null; scheduled_minutes: number | null; has_scan: boolean }>(sql`
      select schedule_id, student_id, session_date::text, status, is_manual_override, override_reason,
             case when scan_in_time is not null then minutes_attended end as scanned, scheduled_minutes, scan_in_time is not null as has_scan
        from attendance_records where id = ${recordId} for update`);
    const before = rows[0];
    if (!before) throw notFound('Attendance record');
    await assertMayOverride(tx, user, before.schedule_id);
    const now = ctx.clock.now();
    const minutes = overrideMinutes(body.status, before.has_scan ? before.scanned : null, before.scheduled_minutes ?? 0);
    await tx.execute(sql`
      update attendance_records set status = ${body.status}, is_manual_override = true, override_reason = ${body.overrideReason},
             overridden_by = ${user.id}, overridden_at = ${now}, minutes_attended = ${minutes}, updated_at = ${now}
       where id = ${recordId}`);
    await recordAudit(tx, {
      userId: user.id,
      action: 'Update',
      tableName: 'attendance',
      recordId,
      ipAddress: ctx.ip,
      oldValues: { status: before.status, isManualOverride: before.is_manual_override, overrideReason: before.override_reason },
      newValues: { status: body.status, isManualOverride: true, overrideReason: body.overrideReason },
      at: now,
    });
    return meetingRow(tx, before.schedule_id, before.session_date, before.student_id);
  });
}

/**
 * A record for a rostered student who has none yet (no scan), written as a manual override. The date
 * must be a meeting of the schedule (its course dates, its day of the week, not a holiday; make-up
 * dates count), not in the future, and not before the student's enrolment date: an instructor cannot
 * credit a day the class did not meet. Refusals are 400s naming sessionDate.
 */
export async function createManualRecord(db: Db, user: User, body: z.output<typeof manualRecordSchema>, ctx: Ctx): Promise<AttendanceRow> {
  const settings = await getSettings(db);
  const now = ctx.clock.now();
  const today = localDate(now, settings.attendance.timeZone);
  const sessionDate = body.sessionDate ?? today;
  const schedule = await assertMayOverride(db, user, body.scheduleId);
  const refuseDate = (message: string) => badRequest(message, [{ field: 'sessionDate', message }]);
  if (sessionDate > today) throw refuseDate('Attendance cannot be recorded for a future date');
  const [calendar, enrolment] = await Promise.all([scheduleCalendar(db, body.scheduleId), rosterEnrolment(db, body.scheduleId, body.studentId)]);
  if (!calendar) throw notFound('Schedule');
  if (!enrolment) throw badRequest('The student is not on this class roster', [{ field: 'studentId', message: 'Not on the roster' }]);
  const notAMeeting = whyNotAMeeting(sessionDate, calendar);
  if (notAMeeting) throw refuseDate(notAMeeting);
  if (enrolment.enrollmentDate && sessionDate < enrolment.enrollmentDate) {
    throw refuseDate(`The student enrolled on ${enrolment.enrollmentDate}; ${sessionDate} is before that`);
  }
  const scheduled = scheduledMinutes(classWindow(sessionDate, schedule.startTime, schedule.endTime, settings.attendance.timeZone));
  return db.transaction(async (tx) => {
    const id = await insertManualRecord(tx, {
      studentId: body.studentId,
      scheduleId: body.scheduleId,
      sessionDate,
      status: body.status,
      minutesAttended: overrideMinutes(body.status, null, scheduled),
      scheduledMinutes: scheduled,
      overrideReason: body.overrideReason,
      overriddenBy: user.id,
      now,
    });
    if (id == null) throw conflict('This student already has a record for that class meeting; override it instead');
    await recordAudit(tx, {
      userId: user.id,
      action: 'Create',
      tableName: 'attendance',
      recordId: id,
      ipAddress: ctx.ip,
      newValues: { studentId: body.studentId, scheduleId: body.scheduleId, sessionDate, status: body.status, overrideReason: body.overrideReason, source: 'manual' },
      at: now,
    });
    return meetingRow(tx, body.scheduleId, sessionDate, body.studentId);
  });
}

export type ClockHours = {
  studentId: number;
  scheduleId: number;
  firstName: string;
  lastName: string;
  courseCode: string;
  meetings: number;
  scheduledMinutes: number;
  attendedMinutes: number;
  excusedMinutes: number;
  attendanceRate: number;
};

/**
 * Clock hours per student and schedule: minutes scheduled for the meetings that took place
 * (those with records) against minutes attended. The dashboard and the SIS export read this.
 */
export async function clockHours(db: DbOrTx, filter: { scheduleId?: number; studentId?: number; instructorId?: number; from?: string; to?: string }): Promise<ClockHours[]> {
  const where = [sql`true`];
  if (filter.scheduleId != null) where.push(sql`a.schedule_id = ${filter.scheduleId}`);
  if (filter.studentId != null) where.push(sql`a.student_id = ${filter.studentId}`);
  if (filter.instructorId != null) where.push(sql`s.instructor_id = ${filter.instructorId}`);
  if (filter.from) where.push(sql`a.session_date >= ${filter.from}`);
  if (filter.to) where.push(sql`a.session_date <= ${filter.to}`);
  const { rows } = await db.execute<{ student_id: number; schedule_id: number; first_name: string; last_name: string; course_code: string; meetings: number; scheduled: number; attended: number; excused: number }>(sql`
    select a.student_id, a.schedule_id, st.first_name, st.last_name, c.course_code, count(*)::int as meetings,
           coalesce(sum(a.scheduled_minutes), 0)::int as scheduled, coalesce(sum(a.minutes_attended), 0)::int as attended,
           coalesce(sum(a.scheduled_minutes) filter (where a.status = 'excused'), 0)::int as excused
      from attendance_records a join students st on st.id = a.student_id join schedules s on s.id = a.schedule_id join courses c on c.id = s.course_id
     where ${sql.join(where, sql` and `)}
     group by a.student_id, a.schedule_id, st.first_name, st.last_name, c.course_code
     order by c.course_code, lower(st.last_name), lower(st.first_name)`);
  return rows.map((r) => ({
    studentId: r.student_id,
    scheduleId: r.schedule_id,
    firstName: r.first_name,
    lastName: r.last_name,
    courseCode: r.course_code,
    meetings: r.meetings,
    scheduledMinutes: r.scheduled,
    attendedMinutes: r.attended,
    excusedMinutes: r.excused,
    attendanceRate: r.scheduled > 0 ? Math.round((r.attended / r.scheduled) * 1000) / 10 : 0,
  }));
}
