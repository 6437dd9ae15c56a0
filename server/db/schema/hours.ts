import { sql } from 'drizzle-orm';
import { boolean, check, date, index, integer, jsonb, numeric, pgTable, serial, text, time, timestamp } from 'drizzle-orm/pg-core';
import type { StudentStatus } from '../../../common/constants.ts';
import { courses, programs } from './academics.ts';
import { attendanceRecords } from './attendance.ts';
import { missedPunchRequests } from './punches.ts';
import { students } from './students.ts';
import { users } from './users.ts';

/**
 * A program's clock-hour policy (COMPLIANCE.md). A missing row, or a null column, means the default:
 * programHours from the active courses, programWeeks from the academic year, checkpoints at the
 * payment periods' ends.
 */
export const programPolicies = pgTable(
  'program_policies',
  {
    programId: integer('program_id')
      .primaryKey()
      .references(() => programs.id, { onDelete: 'cascade' }),
    // Not read: programs.duration_hours is the program's hours (decision 040). The database keeps this
    // column equal to it both ways (migration 0020), so a writer that still sets it sets the program's.
    programHours: numeric('program_hours', { precision: 7, scale: 1 }),
    programWeeks: numeric('program_weeks', { precision: 5, scale: 1 }),
    academicYearHours: numeric('academic_year_hours', { precision: 7, scale: 1 }).notNull().default('900'),
    academicYearWeeks: numeric('academic_year_weeks', { precision: 5, scale: 1 }).notNull().default('26'),
    excusedCapPercent: numeric('excused_cap_percent', { precision: 4, scale: 1 }).notNull().default('10'),
    minimumAttendancePercent: numeric('minimum_attendance_percent', { precision: 4, scale: 1 }).notNull().default('80'),
    sapCheckpointHours: numeric('sap_checkpoint_hours', { precision: 7, scale: 1 }).array(),
    withdrawAfterDays: integer('withdraw_after_days').notNull().default(14),
    makeUpDeadlineDays: integer('make_up_deadline_days').notNull().default(14),
    makeUpCapPercent: numeric('make_up_cap_percent', { precision: 4, scale: 1 }),
    // Make-up owed is listed from this many minutes on: a few minutes late is not a make-up case.
    makeUpThresholdMinutes: integer('make_up_threshold_minutes').notNull().default(30),
    // Records older than this many days are closed to all but super_admin (null: never).
    attendanceEditLockDays: integer('attendance_edit_lock_days'),
    // Low-attendance alert "N consecutive absences" (null: that rule is off for the program).
    consecutiveAbsenceAlert: integer('consecutive_absence_alert'),
    // Also send the student (their e-mail on file, and SMS where switched on) a plain-words notice.
    alertCopyToStudent: boolean('alert_copy_to_student').notNull().default(false),
    // The date from which Muster keeps this program's attendance (null: the school's, Settings ›
    // Attendance); before it, students' hours are their opening balances (decision 041).
    recordsStartDate: date('records_start_date'),
    updatedBy: integer('updated_by').references(() => users.id, { onDelete: 'set null' }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('program_policies_year_check', sql`${t.academicYearHours} >= 900 and ${t.academicYearWeeks} >= 26`),
    check('program_policies_excused_cap_check', sql`${t.excusedCapPercent} between 0 and 10`),
    check('program_policies_minimum_check', sql`${t.minimumAttendancePercent} between 0 and 100`),
    check('program_policies_withdraw_check', sql`${t.withdrawAfterDays} between 1 and 14`),
    check('program_policies_consecutive_absence_check', sql`${t.consecutiveAbsenceAlert} is null or ${t.consecutiveAbsenceAlert} between 2 and 30`),
    check('program_policies_make_up_check', sql`${t.makeUpDeadlineDays} >= 0 and (${t.makeUpCapPercent} is null or ${t.makeUpCapPercent} between 0 and 100)`),
  ],
);

/** Days the school (or one program) does not meet: never scheduled, never an absence. */
export const calendarClosures = pgTable(
  'calendar_closures',
  {
    id: serial('id').primaryKey(),
    startDate: date('start_date').notNull(),
    endDate: date('end_date').notNull(),
    name: text('name').notNull(),
    // null: the whole school.
    programId: integer('program_id').references(() => programs.id, { onDelete: 'cascade' }),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('calendar_closures_dates_idx').on(t.startDate, t.endDate),
    check('calendar_closures_dates_check', sql`${t.endDate} >= ${t.startDate}`),
    check('calendar_closures_name_not_blank', sql`length(trim(${t.name})) > 0`),
  ],
);

/** Supervised time outside the regular schedule that replaces missed time. Times are school-local. */
export const makeUpSessions = pgTable(
  'make_up_sessions',
  {
    id: serial('id').primaryKey(),
    studentId: integer('student_id')
      .notNull()
      .references(() => students.id, { onDelete: 'cascade' }),
    sessionDate: date('session_date').notNull(),
    startTime: time('start_time').notNull(),
    endTime: time('end_time').notNull(),
    minutes: integer('minutes').notNull(),
    supervisorId: integer('supervisor_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    courseId: integer('course_id').references(() => courses.id, { onDelete: 'set null' }),
    note: text('note'),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('make_up_sessions_student_idx').on(t.studentId, t.sessionDate),
    check('make_up_sessions_times_check', sql`${t.endTime} > ${t.startTime} and ${t.minutes} > 0`),
  ],
);

/**
 * Every staff change to an attendance record, with the record's values before and after: the first
 * change's `before` is the record as first captured, so a correction never hides the original.
 */
export const attendanceCorrections = pgTable(
  'attendance_corrections',
  {
    id: serial('id').primaryKey(),
    attendanceRecordId: integer('attendance_record_id')
      .notNull()
      .references(() => attendanceRecords.id, { onDelete: 'cascade' }),
    changedBy: integer('changed_by').references(() => users.id, { onDelete: 'set null' }),
    changedAt: timestamp('changed_at', { withTimezone: true }).notNull().defaultNow(),
    reason: text('reason').notNull(),
    before: jsonb('before').notNull(),
    after: jsonb('after').notNull(),
    // Set: the correction approved a student's missed-punch request, an exception (decision 053).
    missedPunchRequestId: integer('missed_punch_request_id').references(() => missedPunchRequests.id, { onDelete: 'set null' }),
  },
  (t) => [index('attendance_corrections_record_idx').on(t.attendanceRecordId, t.changedAt)],
);

/** Approved leaves of absence (decision 016): neither scheduled nor absent, and they push the expected end out. */
export const studentLeaves = pgTable(
  'student_leaves',
  {
    id: serial('id').primaryKey(),
    studentId: integer('student_id')
      .notNull()
      .references(() => students.id, { onDelete: 'cascade' }),
    startDate: date('start_date').notNull(),
    endDate: date('end_date').notNull(),
    reason: text('reason').notNull(),
    // The status to give back when the leave ends (the student is `loa` during it).
    statusBefore: text('status_before').$type<StudentStatus>(),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('student_leaves_student_idx').on(t.studentId, t.startDate),
    check('student_leaves_dates_check', sql`${t.endDate} >= ${t.startDate}`),
    check('student_leaves_reason_not_blank', sql`length(trim(${t.reason})) > 0`),
  ],
);

/** A recorded withdrawal (decision 016): the LDA frozen with it; reversed by deleting the row (audited). */
export const studentWithdrawals = pgTable('student_withdrawals', {
  studentId: integer('student_id')
    .primaryKey()
    .references(() => students.id, { onDelete: 'cascade' }),
  withdrawalDate: date('withdrawal_date').notNull(),
  determinationDate: date('determination_date').notNull(),
  lastDateOfAttendance: date('last_date_of_attendance'),
  reason: text('reason').notNull(),
  statusBefore: text('status_before').$type<StudentStatus>().notNull(),
  recordedBy: integer('recorded_by').references(() => users.id, { onDelete: 'set null' }),
  recordedAt: timestamp('recorded_at', { withTimezone: true }).notNull().defaultNow(),
});
