import { sql } from 'drizzle-orm';
import { boolean, check, date, index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { STUDENT_STATUSES, SYNC_STATUSES, type StudentStatus } from '../../../common/constants.ts';
import { programs } from './academics.ts';
import { inList } from './sql-helpers.ts';

export const students = pgTable(
  'students',
  {
    id: serial('id').primaryKey(),
    sisStudentId: text('sis_student_id'),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    email: text('email'),
    phone: text('phone'),
    programId: integer('program_id').references(() => programs.id, { onDelete: 'restrict' }),
    enrollmentDate: date('enrollment_date'),
    status: text('status').$type<StudentStatus>().notNull().default('enrolled'),
    dateOfBirth: date('date_of_birth'),
    address: text('address'),
    emergencyContact: text('emergency_contact'),
    // AES-256-GCM ciphertext (server/lib/crypto.ts); only the last four digits are kept in clear.
    ssnEncrypted: text('ssn_encrypted'),
    ssnLast4: text('ssn_last4'),
    financialAid: text('financial_aid'),
    veteranStatus: boolean('veteran_status'),
    graduationDate: date('graduation_date'),
    externalStudentId: text('external_student_id'),
    nationalStudentId: text('national_student_id'),
    transcriptId: text('transcript_id'),
    lastSyncDate: timestamp('last_sync_date', { withTimezone: true }),
    // The student followed an unsubscribe link: no more absence notices by e-mail or SMS.
    noticesOptOutAt: timestamp('notices_opt_out_at', { withTimezone: true }),
    syncStatus: text('sync_status').notNull().default('pending'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('students_sis_student_id_unique').on(t.sisStudentId),
    index('students_program_idx').on(t.programId),
    index('students_name_idx').on(sql`lower(${t.lastName})`, sql`lower(${t.firstName})`),
    index('students_email_idx').on(sql`lower(${t.email})`),
    // Check-in looks students up by the SIS id they type, in any case.
    index('students_sis_student_id_lower_idx').on(sql`lower(${t.sisStudentId})`),
    check('students_status_check', inList(t.status, STUDENT_STATUSES)),
    check('students_sync_status_check', inList(t.syncStatus, SYNC_STATUSES)),
    check('students_name_not_blank', sql`length(trim(${t.firstName})) > 0 and length(trim(${t.lastName})) > 0`),
    check('students_ssn_last4_check', sql`${t.ssnLast4} is null or ${t.ssnLast4} ~ '^[0-9]{4}$'`),
  ],
);
