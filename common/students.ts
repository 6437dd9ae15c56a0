import { z } from 'zod';
import { STUDENT_STATUSES, type StudentStatus } from './constants.ts';
import { isAdministrator, type Role } from './roles.ts';
import { dbId, listQueryFor, optionalDbId, optionalEmail, optionalIsoDate, optionalText, requiredText } from './validation.ts';

export const studentSchema = z.object({
  id: z.number().int(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  programId: z.number().int().nullable(),
  programName: z.string().nullable(),
  status: z.enum(STUDENT_STATUSES),
  sisStudentId: z.string().nullable(),
  enrollmentDate: z.string().nullable(),
  /** The last date of attendance (frozen with a withdrawal); null before the first. */
  lastDateOfAttendance: z.string().nullable(),
  /** '***-**-1234' for admins; absent for everyone else. */
  ssnMasked: z.string().nullable().optional(),
});
export type Student = z.infer<typeof studentSchema>;

export const studentInputSchema = z.object({
  firstName: requiredText('First name', 100),
  lastName: requiredText('Last name', 100),
  email: optionalEmail,
  phone: optionalText(40),
  programId: optionalDbId('programId', { invalid: 'Program must be a program id or null' }),
  // 'on_leave' was the leave status before decision 016 named it `loa`; older clients still send it.
  // Absent on an edit: the status stays as it is; on a new student: enrolled.
  status: z.preprocess(
    (v) => (v === 'on_leave' ? 'loa' : v),
    z.enum(STUDENT_STATUSES, { error: `Status must be one of ${STUDENT_STATUSES.join(', ')}` }).optional(),
  ),
  sisStudentId: optionalText(100),
  enrollmentDate: optionalIsoDate('Enrollment date'),
  socialSecurityNumber: z
    .string()
    .trim()
    .nullish()
    .transform((v) => (v ? v : null))
    .pipe(
      z
        .string()
        .regex(/^\d{3}-?\d{2}-?\d{4}$/, 'SSN must be 9 digits (123-45-6789)')
        .nullable(),
    )
    .optional(),
});
export type StudentInput = z.input<typeof studentInputSchema>;

/** The keys GET /api/students sorts by (the web table's column ids). */
const STUDENT_SORT_KEYS = ['name', 'firstName', 'lastName', 'email', 'sisStudentId', 'status', 'program', 'id'] as const;
export type StudentSortKey = (typeof STUDENT_SORT_KEYS)[number];

/** A query-string value left blank (`?status=`) means "no filter", as if it were absent. */
const blankAsAbsent = (v: unknown) => (v === '' ? undefined : v);

/**
 * The Students screen's filters (decision 033): one program, one status. Shared by the list and its
 * CSV export, so the export holds exactly the filtered list.
 */
const studentFilterSchema = z.object({
  programId: z.preprocess(blankAsAbsent, dbId('programId', { invalid: 'programId must be a program id' }).optional()),
  // 'on_leave' is the old name of `loa` (as in studentInputSchema).
  status: z.preprocess(
    (v) => (v === 'on_leave' ? 'loa' : blankAsAbsent(v)),
    z.enum(STUDENT_STATUSES, { error: `status must be one of ${STUDENT_STATUSES.join(', ')}` }).optional(),
  ),
});

export const studentListQuerySchema = listQueryFor(STUDENT_SORT_KEYS).extend(studentFilterSchema.shape);
export type StudentListQuery = z.output<typeof studentListQuerySchema>;

/** GET /api/students/export: the list's search, sort and filters, never a page (the whole filtered list). */
export const studentExportQuerySchema = studentListQuerySchema.omit({ page: true, pageSize: true });

/** The export's columns, in order. No SSN, masked or not: the file leaves the system. */
export const STUDENT_EXPORT_COLUMNS = [
  'id',
  'sisStudentId',
  'firstName',
  'lastName',
  'email',
  'phone',
  'programId',
  'programName',
  'status',
  'enrollmentDate',
  'lastDateOfAttendance',
] as const;

export const STUDENT_HAS_ATTENDANCE = 'This student has attendance history and cannot be deleted. Change their status (for example to withdrawn) instead.';

// ---- Status changes (docs/decisions/037-student-status-changes.md) ----

/**
 * Statuses that a record sets and ends, never a plain edit or an import: a withdrawal keeps the
 * last date of attendance and the refund inputs, a leave its dates and the 180-day rule. Setting
 * them by hand left the withdrawal watch and the ledger without the record they read.
 */
export const RECORD_OWNED_STATUSES: Partial<Record<StudentStatus, { into: string; outOf: string }>> = {
  withdrawn: {
    into: "A withdrawal is recorded with Record withdrawal on the student's Hours tab (it keeps the last date of attendance and the refund inputs), not by changing the status",
    outOf: "This student's withdrawal is on record: reverse it on the student's Hours tab to change the status",
  },
  loa: {
    into: "A leave of absence is recorded under Leaves on the student's Hours tab (with its dates and reason), not by changing the status",
    outOf: "This student is on a recorded leave of absence: end or change the leave on the student's Hours tab to change the status",
  },
};

/** Why no edit or import may move a student from `from` (null: new) to `to`: a withdrawal or leave owns one of them. */
export function recordOwnedStatusProblem(from: string | null, to: string): string | null {
  if (from === to) return null;
  const owned = from == null ? undefined : RECORD_OWNED_STATUSES[from as StudentStatus];
  if (owned) return owned.outOf;
  return RECORD_OWNED_STATUSES[to as StudentStatus]?.into ?? null;
}

/** Statuses only administrators set or lift: suspension and graduation are the school's decisions. */
const ADMIN_ONLY_STATUSES: readonly StudentStatus[] = ['suspended', 'graduated'];

/**
 * Why this role may not move a student from `from` (null: a new student) to `to` by an edit or an
 * import; null when it may. The one home of the rule: the server applies it, the form offers only
 * what it allows.
 */
export function studentStatusChangeProblem(role: Role, from: StudentStatus | null, to: StudentStatus): string | null {
  if (from === to) return null;
  const owned = recordOwnedStatusProblem(from, to);
  if (owned) return owned;
  const admin = isAdministrator({ role });
  if (!admin && (ADMIN_ONLY_STATUSES.includes(to) || (from != null && ADMIN_ONLY_STATUSES.includes(from)))) {
    return `Only an administrator may ${from != null && ADMIN_ONLY_STATUSES.includes(from) ? `change the status of a student who is ${from}` : `set a student's status to ${to}`}`;
  }
  return null;
}

/** The statuses this role may choose for a student now at `from` (null: a new student), the current one included. */
export function studentStatusChoices(role: Role, from: StudentStatus | null): StudentStatus[] {
  return STUDENT_STATUSES.filter((s) => s === from || studentStatusChangeProblem(role, from, s) === null);
}
