import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, numeric, pgTable, serial, text, timestamp, uniqueIndex, date } from 'drizzle-orm/pg-core';
import { ROLES, type Role } from '../../../common/roles.ts';
import { LOGIN_PENDING_STEPS, type LoginPendingStep } from '../../../common/auth.ts';
import { EMPLOYMENT_TYPES, SYNC_STATUSES } from '../../../common/constants.ts';
import { inList } from './sql-helpers.ts';

export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    email: text('email').notNull(),
    username: text('username'),
    firstName: text('first_name').notNull().default(''),
    lastName: text('last_name').notNull().default(''),
    role: text('role').$type<Role>().notNull(),
    passwordHash: text('password_hash'),
    isActive: boolean('is_active').notNull().default(true),
    lastLogin: timestamp('last_login', { withTimezone: true }),
    sisUserId: text('sis_user_id'),
    // Set when an administrator chose the password; cleared when the user picks their own.
    mustChangePassword: boolean('must_change_password').notNull().default(false),
    passwordChangedAt: timestamp('password_changed_at', { withTimezone: true }).notNull().defaultNow(),
    // TOTP second factor: the secret is field-cipher ciphertext; enrolled once the first code checked.
    totpSecretEncrypted: text('totp_secret_encrypted'),
    totpEnrolledAt: timestamp('totp_enrolled_at', { withTimezone: true }),
    // The identity provider's subject, bound at the first single sign-on matched by verified e-mail.
    oidcSubject: text('oidc_subject'),
    // One-time set-password link: only its SHA-256 hash is stored.
    passwordTokenHash: text('password_token_hash'),
    passwordTokenExpiresAt: timestamp('password_token_expires_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('users_email_unique').on(sql`lower(${t.email})`),
    uniqueIndex('users_username_unique').on(sql`lower(${t.username})`),
    uniqueIndex('users_sis_user_id_unique').on(t.sisUserId),
    uniqueIndex('users_oidc_subject_unique').on(t.oidcSubject),
    check('users_role_check', inList(t.role, ROLES)),
    check('users_email_not_blank', sql`length(trim(${t.email})) > 0`),
  ],
);

/** Sign-in sessions live in the database so several app instances can serve one school. */
export const loginSessions = pgTable(
  'login_sessions',
  {
    // SHA-256 of the cookie token; the token itself is never stored.
    id: text('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    endedAt: timestamp('ended_at', { withTimezone: true }),
    ipAddress: text('ip_address'),
    userAgent: text('user_agent'),
    // A sign-in that still owes a step (enrol or give a TOTP code, choose a new password) reaches
    // only that step's routes; null once complete.
    pendingStep: text('pending_step').$type<LoginPendingStep>(),
    authMethod: text('auth_method').$type<'password' | 'sso'>().notNull().default('password'),
  },
  (t) => [
    check('login_sessions_pending_step_check', inList(t.pendingStep, LOGIN_PENDING_STEPS)),
    check('login_sessions_auth_method_check', inList(t.authMethod, ['password', 'sso'])),
    index('login_sessions_user_idx').on(t.userId, t.createdAt),
    index('login_sessions_created_idx').on(t.createdAt),
  ],
);

/** Ten one-time TOTP recovery codes per enrolment (SHA-256 only); a used code is spent. */
export const userRecoveryCodes = pgTable(
  'user_recovery_codes',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('user_recovery_codes_unique').on(t.userId, t.codeHash)],
);

export const instructorProfiles = pgTable(
  'instructor_profiles',
  {
    userId: integer('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    phone: text('phone'),
    department: text('department'),
    qualifications: text('qualifications'),
    hireDate: date('hire_date'),
    salary: numeric('salary', { precision: 12, scale: 2 }),
    officeLocation: text('office_location'),
    bio: text('bio'),
    specializations: text('specializations'),
    certifications: text('certifications'),
    employmentType: text('employment_type'),
    externalInstructorId: text('external_instructor_id'),
    employeeId: text('employee_id'),
    licenseNumber: text('license_number'),
    lastSyncDate: timestamp('last_sync_date', { withTimezone: true }),
    syncStatus: text('sync_status').notNull().default('pending'),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('instructor_employment_type_check', inList(t.employmentType, EMPLOYMENT_TYPES)),
    check('instructor_salary_check', sql`${t.salary} is null or ${t.salary} >= 0`),
    check('instructor_sync_status_check', inList(t.syncStatus, SYNC_STATUSES)),
    uniqueIndex('instructor_employee_id_unique').on(t.employeeId),
  ],
);
