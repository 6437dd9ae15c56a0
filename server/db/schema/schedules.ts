import { sql } from 'drizzle-orm';
import { boolean, check, date, index, integer, jsonb, pgTable, primaryKey, serial, text, time, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { SYNC_STATUSES } from '../../../common/constants.ts';
import { courses } from './academics.ts';
import { students } from './students.ts';
import { users } from './users.ts';
import { inList } from './sql-helpers.ts';

export const schedules = pgTable(
  'schedules',
  {
    id: serial('id').primaryKey(),
    sisScheduleId: text('sis_schedule_id'),
    courseId: integer('course_id')
      .notNull()
      .references(() => courses.id, { onDelete: 'restrict' }),
    instructorId: integer('instructor_id').references(() => users.id, { onDelete: 'restrict' }),
    cohortNumber: integer('cohort_number').notNull(),
    // What the school calls the cohort ('PN-26A'); the number stays its key (decision 047).
    cohortName: text('cohort_name'),
    termNumber: integer('term_number').notNull(),
    dayOfWeek: integer('day_of_week').notNull(),
    // Local times in the school's time zone. An end before the start means the class crosses midnight.
    startTime: time('start_time').notNull(),
    endTime: time('end_time').notNull(),
    roomNumber: text('room_number'),
    courseStartDate: date('course_start_date').notNull(),
    courseEndDate: date('course_end_date').notNull(),
    isActive: boolean('is_active').notNull().default(true),
    room: text('room'),
    capacity: integer('capacity'),
    notes: text('notes'),
    holidayExceptions: date('holiday_exceptions')
      .array()
      .notNull()
      .default(sql`'{}'::date[]`),
    makeupDates: date('makeup_dates')
      .array()
      .notNull()
      .default(sql`'{}'::date[]`),
    // Scheduled breaks in school time ([{start, end}] 'HH:MM', inside the class): not scheduled minutes (decision 052).
    breaks: jsonb('breaks')
      .$type<{ start: string; end: string }[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    gradingPolicy: text('grading_policy'),
    term: text('term'),
    externalScheduleId: text('external_schedule_id'),
    academicYear: text('academic_year'),
    registrationCode: text('registration_code'),
    lastSyncDate: timestamp('last_sync_date', { withTimezone: true }),
    syncStatus: text('sync_status').notNull().default('pending'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('schedules_sis_schedule_id_unique').on(t.sisScheduleId),
    index('schedules_instructor_idx').on(t.instructorId),
    index('schedules_course_idx').on(t.courseId),
    index('schedules_day_idx').on(t.dayOfWeek),
    check('schedules_cohort_check', sql`${t.cohortNumber} between 1 and 30`),
    check('schedules_cohort_name_check', sql`${t.cohortName} is null or length(${t.cohortName}) between 1 and 40`),
    check('schedules_term_check', sql`${t.termNumber} between 1 and 4`),
    check('schedules_day_of_week_check', sql`${t.dayOfWeek} between 0 and 6`),
    check('schedules_times_check', sql`${t.startTime} <> ${t.endTime}`),
    check('schedules_dates_check', sql`${t.courseEndDate} >= ${t.courseStartDate}`),
    check('schedules_capacity_check', sql`${t.capacity} is null or ${t.capacity} >= 0`),
    check('schedules_sync_status_check', inList(t.syncStatus, SYNC_STATUSES)),
  ],
);

/** Who is expected in a schedule's class: explicit and editable. */
export const scheduleRosters = pgTable(
  'schedule_rosters',
  {
    scheduleId: integer('schedule_id')
      .notNull()
      .references(() => schedules.id, { onDelete: 'cascade' }),
    studentId: integer('student_id')
      .notNull()
      .references(() => students.id, { onDelete: 'cascade' }),
    addedAt: timestamp('added_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.scheduleId, t.studentId] }), index('schedule_rosters_student_idx').on(t.studentId)],
);
