import { sql } from 'drizzle-orm';
import { bigint, boolean, check, customType, date, index, integer, pgTable, primaryKey, serial, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { ATTENDANCE_SOURCES, ATTENDANCE_STATUSES, SYNC_STATUSES, type AttendanceStatus } from '../../../common/constants.ts';
import { schedules } from './schedules.ts';
import { students } from './students.ts';
import { users } from './users.ts';
import { inList } from './sql-helpers.ts';

const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => 'bytea' });

export const qrSessions = pgTable(
  'qr_sessions',
  {
    id: serial('id').primaryKey(),
    // The public identifier in the scan URL.
    sessionId: uuid('session_id').notNull().defaultRandom(),
    scheduleId: integer('schedule_id')
      .notNull()
      .references(() => schedules.id, { onDelete: 'cascade' }),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    // Key for the rotating QR tokens; never leaves the server.
    tokenSecret: bytea('token_secret').notNull(),
    sessionDate: date('session_date').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    endedAt: timestamp('ended_at', { withTimezone: true }),
    isActive: boolean('is_active').notNull().default(true),
  },
  (t) => [
    uniqueIndex('qr_sessions_session_id_unique').on(t.sessionId),
    index('qr_sessions_active_idx').on(t.isActive, t.expiresAt),
    index('qr_sessions_schedule_idx').on(t.scheduleId, t.sessionDate),
    // At most one open session per schedule.
    uniqueIndex('qr_sessions_one_open_per_schedule')
      .on(t.scheduleId)
      .where(sql`${t.isActive}`),
    check('qr_sessions_expiry_check', sql`${t.expiresAt} > ${t.createdAt}`),
  ],
);

export const attendanceRecords = pgTable(
  'attendance_records',
  {
    id: serial('id').primaryKey(),
    studentId: integer('student_id')
      .notNull()
      .references(() => students.id, { onDelete: 'restrict' }),
    scheduleId: integer('schedule_id')
      .notNull()
      .references(() => schedules.id, { onDelete: 'restrict' }),
    qrSessionId: integer('qr_session_id').references(() => qrSessions.id, { onDelete: 'set null' }),
    // School-local date of the class meeting.
    sessionDate: date('session_date').notNull(),
    status: text('status').$type<AttendanceStatus>().notNull(),
    scanInTime: timestamp('scan_in_time', { withTimezone: true }),
    scanOutTime: timestamp('scan_out_time', { withTimezone: true }),
    // What the phone said the time was; recorded as a hint only.
    clientScanInTime: timestamp('client_scan_in_time', { withTimezone: true }),
    minutesAttended: integer('minutes_attended'),
    scheduledMinutes: integer('scheduled_minutes'),
    isManualOverride: boolean('is_manual_override').notNull().default(false),
    overrideReason: text('override_reason'),
    overriddenBy: integer('overridden_by').references(() => users.id, { onDelete: 'set null' }),
    overriddenAt: timestamp('overridden_at', { withTimezone: true }),
    source: text('source').notNull(),
    deviceId: text('device_id'),
    // The staff member who wrote a manual record (null for scans and the auto-absent job).
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    syncStatus: text('sync_status').notNull().default('pending'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('attendance_one_per_meeting').on(t.scheduleId, t.studentId, t.sessionDate),
    // One phone checks in one student per meeting: held by the database, so batched check-ins and
    // other app instances need no lock to keep it.
    uniqueIndex('attendance_one_student_per_device')
      .on(t.scheduleId, t.sessionDate, t.deviceId)
      .where(sql`${t.deviceId} is not null`),
    index('attendance_session_date_idx').on(t.sessionDate),
    index('attendance_student_idx').on(t.studentId, t.sessionDate),
    index('attendance_qr_session_idx').on(t.qrSessionId),
    // Low-attendance alerts read each student's latest meetings per class (dashboard bench: 1M rows).
    index('attendance_student_schedule_recent_idx').on(t.studentId, t.scheduleId, t.sessionDate.desc()),
    // The dashboard's pending-sync count, without reading every synced row.
    index('attendance_unsynced_idx')
      .on(t.scheduleId)
      .where(sql`${t.syncStatus} in ('pending', 'failed')`),
    check('attendance_status_check', inList(t.status, ATTENDANCE_STATUSES)),
    check('attendance_source_check', inList(t.source, ATTENDANCE_SOURCES)),
    check('attendance_sync_status_check', inList(t.syncStatus, SYNC_STATUSES)),
    check('attendance_minutes_check', sql`coalesce(${t.minutesAttended}, 0) >= 0 and coalesce(${t.scheduledMinutes}, 0) >= 0`),
    check('attendance_scan_order_check', sql`${t.scanOutTime} is null or ${t.scanInTime} is null or ${t.scanOutTime} >= ${t.scanInTime}`),
    check('attendance_override_reason_check', sql`not ${t.isManualOverride} or length(trim(coalesce(${t.overrideReason}, ''))) > 0`),
  ],
);

/**
 * Records per meeting (schedule and date) and status, with their minutes: what the dashboards read
 * instead of every record of the window (decision 026). Kept by statement-level triggers on
 * attendance_records, in the transaction that writes the records (migration 0016), so it is never
 * behind; the dashboard tests compare it with a fresh count.
 */
export const meetingStatusTotals = pgTable(
  'meeting_status_totals',
  {
    scheduleId: integer('schedule_id').notNull(),
    sessionDate: date('session_date').notNull(),
    status: text('status').$type<AttendanceStatus>().notNull(),
    records: integer('records').notNull(),
    minutesAttended: bigint('minutes_attended', { mode: 'number' }).notNull(),
    scheduledMinutes: bigint('scheduled_minutes', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.scheduleId, t.sessionDate, t.status] }), index('meeting_status_totals_date_idx').on(t.sessionDate)],
);

/**
 * Each student's records in each class so far: how many, their minutes, the last meeting recorded,
 * the last one missed and the last five statuses. What the dashboards' alert rules read instead of every record of a
 * window (decision 058). Kept by statement-level triggers on attendance_records in the writing
 * transaction (migration 0030); the tests compare it with a fresh count.
 */
export const studentClassTotals = pgTable(
  'student_class_totals',
  {
    studentId: integer('student_id').notNull(),
    scheduleId: integer('schedule_id').notNull(),
    records: integer('records').notNull().default(0),
    absences: integer('absences').notNull().default(0),
    minutesAttended: bigint('minutes_attended', { mode: 'number' }).notNull().default(0),
    scheduledMinutes: bigint('scheduled_minutes', { mode: 'number' }).notNull().default(0),
    lastSessionDate: date('last_session_date'),
    lastAbsenceDate: date('last_absence_date'),
    /** The statuses of the last five meetings recorded, newest first. */
    recent: text('recent')
      .array()
      .$type<AttendanceStatus[]>()
      .notNull()
      .default(sql`'{}'`),
  },
  (t) => [primaryKey({ columns: [t.studentId, t.scheduleId] }), index('student_class_totals_last_session_idx').on(t.lastSessionDate)],
);

/**
 * How many students the low-attendance rules named on a past school day, per scope ('school' or
 * 'instructor:<id>'), recorded once after that day (decision 026): the dashboard's "Students at
 * Risk" trend compares today with the figure of a week ago instead of running the rules twice.
 */
export const studentsAtRiskDaily = pgTable(
  'students_at_risk_daily',
  {
    scopeKey: text('scope_key').notNull(),
    asOf: date('as_of').notNull(),
    students: integer('students').notNull(),
    recordedAt: timestamp('recorded_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.scopeKey, t.asOf] })],
);
