import { sql } from 'drizzle-orm';
import { boolean, check, date, index, integer, numeric, pgTable, primaryKey, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { COURSE_CATEGORIES, COURSE_HOURS, CREDENTIAL_TYPES, PROGRAM_HOURS, PROGRAM_STATUSES, SYNC_STATUSES } from '../../../common/constants.ts';
import { inList } from './sql-helpers.ts';

export const programs = pgTable(
  'programs',
  {
    id: serial('id').primaryKey(),
    sisProgramId: text('sis_program_id'),
    programName: text('program_name').notNull(),
    programCode: text('program_code'),
    // The program's clock hours, and its clock-hour policy's programHours: one figure (decision 040).
    durationHours: numeric('duration_hours', { precision: 7, scale: 1 }),
    credentialType: text('credential_type'),
    description: text('description'),
    status: text('status').$type<(typeof PROGRAM_STATUSES)[number]>().notNull().default('active'),
    startDate: date('start_date'),
    endDate: date('end_date'),
    accreditationBody: text('accreditation_body'),
    programDirector: text('program_director'),
    tuitionCost: numeric('tuition_cost', { precision: 12, scale: 2 }),
    capacity: integer('capacity'),
    campusLocation: text('campus_location'),
    externalProgramId: text('external_program_id'),
    regulatoryCode: text('regulatory_code'),
    lastSyncDate: timestamp('last_sync_date', { withTimezone: true }),
    syncStatus: text('sync_status').notNull().default('pending'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('programs_sis_program_id_unique').on(t.sisProgramId),
    uniqueIndex('programs_program_code_unique').on(t.programCode),
    check(
      'programs_duration_hours_check',
      sql`${t.durationHours} is null or ${t.durationHours} between ${sql.raw(String(PROGRAM_HOURS.min))} and ${sql.raw(String(PROGRAM_HOURS.max))}`,
    ),
    check('programs_credential_type_check', inList(t.credentialType, CREDENTIAL_TYPES)),
    check('programs_status_check', inList(t.status, PROGRAM_STATUSES)),
    check('programs_sync_status_check', inList(t.syncStatus, SYNC_STATUSES)),
    check('programs_dates_check', sql`${t.endDate} is null or ${t.startDate} is null or ${t.endDate} >= ${t.startDate}`),
    check('programs_capacity_check', sql`${t.capacity} is null or ${t.capacity} >= 0`),
    check('programs_tuition_check', sql`${t.tuitionCost} is null or ${t.tuitionCost} >= 0`),
    check('programs_name_not_blank', sql`length(trim(${t.programName})) > 0`),
  ],
);

export const courses = pgTable(
  'courses',
  {
    id: serial('id').primaryKey(),
    sisCourseId: text('sis_course_id'),
    programId: integer('program_id').references(() => programs.id, { onDelete: 'restrict' }),
    courseCode: text('course_code').notNull(),
    courseName: text('course_name').notNull(),
    // Every path allows COURSE_HOURS (decision 040).
    clockHours: numeric('clock_hours', { precision: 6, scale: 1 }),
    description: text('description'),
    isActive: boolean('is_active').notNull().default(true),
    syllabusUrl: text('syllabus_url'),
    textbooks: text('textbooks'),
    labHours: numeric('lab_hours', { precision: 6, scale: 1 }),
    lectureHours: numeric('lecture_hours', { precision: 6, scale: 1 }),
    passingGrade: numeric('passing_grade', { precision: 5, scale: 2 }),
    category: text('category'),
    credits: numeric('credits', { precision: 5, scale: 2 }),
    externalCourseId: text('external_course_id'),
    departmentCode: text('department_code'),
    transferCredits: boolean('transfer_credits'),
    lastSyncDate: timestamp('last_sync_date', { withTimezone: true }),
    syncStatus: text('sync_status').notNull().default('pending'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('courses_sis_course_id_unique').on(t.sisCourseId),
    uniqueIndex('courses_course_code_unique').on(sql`lower(${t.courseCode})`),
    index('courses_program_idx').on(t.programId),
    check(
      'courses_clock_hours_check',
      sql`${t.clockHours} is null or ${t.clockHours} between ${sql.raw(String(COURSE_HOURS.min))} and ${sql.raw(String(COURSE_HOURS.max))}`,
    ),
    check('courses_passing_grade_check', sql`${t.passingGrade} is null or ${t.passingGrade} between 0 and 100`),
    check('courses_hours_nonneg_check', sql`coalesce(${t.labHours}, 0) >= 0 and coalesce(${t.lectureHours}, 0) >= 0 and coalesce(${t.credits}, 0) >= 0`),
    check('courses_category_check', inList(t.category, COURSE_CATEGORIES)),
    check('courses_sync_status_check', inList(t.syncStatus, SYNC_STATUSES)),
    check('courses_code_not_blank', sql`length(trim(${t.courseCode})) > 0 and length(trim(${t.courseName})) > 0`),
  ],
);

export const coursePrerequisites = pgTable(
  'course_prerequisites',
  {
    courseId: integer('course_id')
      .notNull()
      .references(() => courses.id, { onDelete: 'cascade' }),
    prerequisiteId: integer('prerequisite_id')
      .notNull()
      .references(() => courses.id, { onDelete: 'restrict' }),
  },
  (t) => [
    primaryKey({ columns: [t.courseId, t.prerequisiteId] }),
    index('course_prerequisites_prereq_idx').on(t.prerequisiteId),
    check('course_prerequisites_not_self', sql`${t.courseId} <> ${t.prerequisiteId}`),
  ],
);
