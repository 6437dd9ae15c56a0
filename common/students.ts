import { z } from 'zod';
import { STUDENT_STATUSES } from './constants.ts';
import { dbId, listQueryFor, optionalDbId, optionalEmail, optionalIsoDate, optionalText, requiredText } from './validation.ts';

export const studentSchema = z.object({
  id: z.number().int(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  programId: z.number().int().nullable(),
  programName: z.string().nullable(),
  status: z.string(),
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
  // 'on_leave' was the leave status before issue 13 named it `loa`; older clients still send it.
  status: z.preprocess((v) => (v === 'on_leave' ? 'loa' : v), z.enum(STUDENT_STATUSES, { error: `Status must be one of ${STUDENT_STATUSES.join(', ')}` }).default('enrolled')),
  sisStudentId: optionalText(100),
  enrollmentDate: optionalIsoDate('Enrollment date'),
  socialSecurityNumber: z
    .string()
    .trim()
    .nullish()
    .transform((v) => (v ? v : null))
    .pipe(z.string().regex(/^\d{3}-?\d{2}-?\d{4}$/, 'SSN must be 9 digits (123-45-6789)').nullable())
    .optional(),
});
export type StudentInput = z.input<typeof studentInputSchema>;

/** The keys GET /api/students sorts by (the web table's column ids). */
const STUDENT_SORT_KEYS = ['name', 'firstName', 'lastName', 'email', 'sisStudentId', 'status', 'program', 'id'] as const;
export type StudentSortKey = (typeof STUDENT_SORT_KEYS)[number];

/** A query-string value left blank (`?status=`) means "no filter", as if it were absent. */
const blankAsAbsent = (v: unknown) => (v === '' ? undefined : v);

/**
 * The Students screen's filters (issue 17): one program, one status. Shared by the list and its
 * CSV export, so the export holds exactly the filtered list.
 */
export const studentFilterSchema = z.object({
  programId: z.preprocess(blankAsAbsent, dbId('programId', { invalid: 'programId must be a program id' }).optional()),
  // 'on_leave' is the old name of `loa` (as in studentInputSchema).
  status: z.preprocess(
    (v) => (v === 'on_leave' ? 'loa' : blankAsAbsent(v)),
    z.enum(STUDENT_STATUSES, { error: `status must be one of ${STUDENT_STATUSES.join(', ')}` }).optional(),
  ),
});
export type StudentFilter = z.output<typeof studentFilterSchema>;

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

export const STUDENT_HAS_ATTENDANCE =
  'This student has attendance history and cannot be deleted. Change their status (for example to withdrawn) instead.';
