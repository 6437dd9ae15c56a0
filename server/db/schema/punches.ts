import { sql } from 'drizzle-orm';
import { check, date, index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { attendanceRecords, qrSessions } from './attendance.ts';
import { schedules } from './schedules.ts';
import { students } from './students.ts';
import { users } from './users.ts';
import { inList } from './sql-helpers.ts';
import { BREAK_KINDS } from '../../../common/attendance.ts';
import { MISSED_PUNCH_SOURCES, MISSED_PUNCH_STATUSES, type MissedPunchStatus } from '../../../common/missed-punches.ts';

/**
 * Several punches per meeting (decision 051). A record keeps the day's first check-in and
 * last check-out; each break between them is a row here, so the punch pairs are [in, b1.start],
 * [b1.end, b2.start] … [bn.end, out]. Raw punches are never rewritten: the time-clock rules read them.
 */
export const attendanceBreaks = pgTable(
  'attendance_breaks',
  {
    id: serial('id').primaryKey(),
    recordId: integer('record_id')
      .notNull()
      .references(() => attendanceRecords.id, { onDelete: 'cascade' }),
    /** break and lunch: the student punched it; instructor: a break for everyone (meeting_breaks). */
    kind: text('kind').notNull(),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
    /** Null: out on the break (a break never ended is a check-out at its start). */
    endedAt: timestamp('ended_at', { withTimezone: true }),
    meetingBreakId: integer('meeting_break_id').references(() => meetingBreaks.id, { onDelete: 'set null' }),
    startedDeviceId: text('started_device_id'),
    endedDeviceId: text('ended_device_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('attendance_breaks_record_idx').on(t.recordId, t.startedAt),
    uniqueIndex('attendance_breaks_one_open')
      .on(t.recordId)
      .where(sql`${t.endedAt} is null`),
    check('attendance_breaks_kind_check', inList(t.kind, BREAK_KINDS)),
    check('attendance_breaks_order_check', sql`${t.endedAt} is null or ${t.endedAt} >= ${t.startedAt}`),
  ],
);

/**
 * An instructor-led break (Take Attendance: "Break for everyone"): the whole class is checked out at
 * its start; "End break" opens a re-check-in window until `recheckUntil`. Not scheduled time.
 */
export const meetingBreaks = pgTable(
  'meeting_breaks',
  {
    id: serial('id').primaryKey(),
    scheduleId: integer('schedule_id')
      .notNull()
      .references(() => schedules.id, { onDelete: 'cascade' }),
    sessionDate: date('session_date').notNull(),
    qrSessionId: integer('qr_session_id').references(() => qrSessions.id, { onDelete: 'set null' }),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
    endedAt: timestamp('ended_at', { withTimezone: true }),
    recheckUntil: timestamp('recheck_until', { withTimezone: true }),
    startedBy: integer('started_by').references(() => users.id, { onDelete: 'set null' }),
    endedBy: integer('ended_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [
    index('meeting_breaks_meeting_idx').on(t.scheduleId, t.sessionDate),
    uniqueIndex('meeting_breaks_one_open')
      .on(t.scheduleId, t.sessionDate)
      .where(sql`${t.endedAt} is null`),
    check('meeting_breaks_order_check', sql`${t.endedAt} is null or (${t.endedAt} >= ${t.startedAt} and ${t.recheckUntil} >= ${t.endedAt})`),
  ],
);

/**
 * A student's request to correct a punch they missed (decision 053): the time they say and why. The class
 * instructor or an administrator approves (a correction through attendance_corrections, flagged as an
 * exception) or declines, with a reason.
 */
export const missedPunchRequests = pgTable(
  'missed_punch_requests',
  {
    id: serial('id').primaryKey(),
    studentId: integer('student_id')
      .notNull()
      .references(() => students.id, { onDelete: 'cascade' }),
    scheduleId: integer('schedule_id')
      .notNull()
      .references(() => schedules.id, { onDelete: 'cascade' }),
    sessionDate: date('session_date').notNull(),
    /** The meeting's record when there is one (a missed check-in may have none). */
    recordId: integer('record_id').references(() => attendanceRecords.id, { onDelete: 'cascade' }),
    /** At least one: the check-in and/or check-out the student says they missed. */
    checkInAt: timestamp('check_in_at', { withTimezone: true }),
    checkOutAt: timestamp('check_out_at', { withTimezone: true }),
    reason: text('reason').notNull(),
    source: text('source').notNull(),
    status: text('status').$type<MissedPunchStatus>().notNull().default('pending'),
    decidedBy: integer('decided_by').references(() => users.id, { onDelete: 'set null' }),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    decisionReason: text('decision_reason'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('missed_punch_requests_meeting_idx').on(t.scheduleId, t.sessionDate),
    index('missed_punch_requests_student_idx').on(t.studentId, t.sessionDate),
    index('missed_punch_requests_pending_idx')
      .on(t.status)
      .where(sql`${t.status} = 'pending'`),
    uniqueIndex('missed_punch_requests_one_pending')
      .on(t.studentId, t.scheduleId, t.sessionDate)
      .where(sql`${t.status} = 'pending'`),
    check('missed_punch_requests_status_check', inList(t.status, MISSED_PUNCH_STATUSES)),
    check('missed_punch_requests_source_check', inList(t.source, MISSED_PUNCH_SOURCES)),
    check('missed_punch_requests_times_check', sql`${t.checkInAt} is not null or ${t.checkOutAt} is not null`),
    check('missed_punch_requests_order_check', sql`${t.checkInAt} is null or ${t.checkOutAt} is null or ${t.checkOutAt} > ${t.checkInAt}`),
    check('missed_punch_requests_reason_check', sql`length(trim(${t.reason})) between 1 and 500`),
    check(
      'missed_punch_requests_decision_check',
      sql`${t.status} = 'pending' or (${t.decidedAt} is not null and length(trim(coalesce(${t.decisionReason}, ''))) > 0)`,
    ),
  ],
);
