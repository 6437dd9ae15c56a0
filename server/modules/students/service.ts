import type { Readable } from 'node:stream';
import type { studentExportQuerySchema, studentInputSchema, StudentListQuery } from '../../../common/students.ts';
import { STUDENT_EXPORT_COLUMNS, STUDENT_HAS_ATTENDANCE, studentStatusChangeProblem, type Student } from '../../../common/students.ts';
import type { Role } from '../../../common/roles.ts';
import type { StudentStatus } from '../../../common/constants.ts';
import type { z } from 'zod';
import type { Db, DbOrTx } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import { csvDownloadHeaders, csvFromRows } from '../../lib/csv.ts';
import { withUniqueFields } from '../../lib/db-errors.ts';
import { badRequest, conflict, notFound } from '../../lib/errors.ts';
import { maskSsn, type FieldCipher } from '../../lib/field-cipher.ts';
import { localDate } from '../../lib/school-time.ts';
import { viewerScope, WHOLE_SCHOOL, type Viewer, type ViewerScope } from '../access/service.ts';
import { getSettings } from '../settings/service.ts';
import { changedFields, recordAudit } from '../audit-logs/service.ts';
import { addStudentToProgramRosters } from '../schedules/service.ts';
import {
  deleteStudentRow,
  findStudentRow,
  hasAttendanceHistory,
  insertStudent,
  listStudentRows,
  lockStudent,
  lockStudentStatusRow,
  programExists,
  updateStudentRow,
  updateStudentStatusRow,
  type StudentRow,
  type StudentWrite,
} from './queries.ts';

type Input = z.output<typeof studentInputSchema>;
type Ctx = { actorId: number; role: Role; ip: string | null; clock: Clock; cipher: FieldCipher; showSsn: boolean };

const UNIQUE = { students_sis_student_id_unique: { field: 'sisStudentId', message: 'Another student already has this SIS student ID' } };

function toStudent(r: StudentRow, showSsn: boolean): Student {
  const { ssnLast4, ...student } = r;
  return { ...student, ...(showSsn ? { ssnMasked: maskSsn(ssnLast4) } : {}) };
}

/** Who reads, as the reads need it: which students they may see, and whether the masked SSN shows. */
type StudentReader = { scope: ViewerScope; showSsn: boolean };

/**
 * The reader a signed-in user is. Need-to-know (the access module's viewer scope): instructors see
 * the students on the rosters of the schedules they teach; support staff and administrators every student.
 */
export function studentReader(user: Viewer, showSsn: boolean): StudentReader {
  return { scope: viewerScope(user), showSsn };
}

/** After a write the permission table admitted, the student is read back unchecked (whole school): the writer just wrote it. */
const UNCHECKED = { scope: WHOLE_SCHOOL };

/**
 * Search across name, e-mail, internal and SIS ids, filtered by program and status; sorted and paged in the database so the list
 * stays fast with tens of thousands of students. Only students in the reader's scope are listed
 * or counted.
 */
export async function listStudents(db: DbOrTx, q: StudentListQuery, reader: StudentReader): Promise<{ items: Student[]; total: number }> {
  const { rows, total } = await listStudentRows(db, q, reader.scope);
  return { items: rows.map((r) => toStudent(r, reader.showSsn)), total };
}

/**
 * GET /api/students/export: the whole filtered list (search, program, status, sort; no paging) as
 * CSV, for the reader's scope. Never an SSN. Text cells are neutralised against spreadsheet
 * formulas by lib/csv.ts. Audited as it is made, like the other exports.
 */
export async function exportStudents(
  db: DbOrTx,
  q: z.output<typeof studentExportQuerySchema>,
  reader: Pick<StudentReader, 'scope'>,
  ctx: { actorId: number; ip: string | null; clock: Clock },
): Promise<{ headers: Record<string, string>; body: Readable }> {
  // The first page is read before anything is sent: it carries the total for the audit entry, and
  // a failure here is still an error answer rather than a cut file.
  const first = await listStudentRows(db, { ...q, page: 1, pageSize: EXPORT_PAGE_ROWS }, reader.scope);
  const { timeZone } = (await getSettings(db)).attendance;
  const fileName = `students_export_${localDate(ctx.clock.now(), timeZone)}.csv`;
  await recordAudit(db, {
    userId: ctx.actorId,
    action: 'Export',
    tableName: 'students',
    ipAddress: ctx.ip,
    newValues: { filters: q, rows: first.total, fileName },
  });
  // Page by page (the list's order ends with the id), so a school of 100,000 students is never in memory at once.
  async function* rows() {
    let page = first;
    for (let n = 1; ; n++) {
      for (const { ssnLast4: _ssn, ...row } of page.rows) yield row;
      if (page.rows.length < EXPORT_PAGE_ROWS) return;
      page = await listStudentRows(db, { ...q, page: n + 1, pageSize: EXPORT_PAGE_ROWS }, reader.scope);
    }
  }
  return { headers: csvDownloadHeaders(fileName), body: csvFromRows(STUDENT_EXPORT_COLUMNS, rows()) };
}

const EXPORT_PAGE_ROWS = 2_000;

/** One student; 404 when it does not exist or is outside the reader's scope (the same answer: ids are not confirmed). */
export async function getStudent(db: DbOrTx, id: number, reader: StudentReader): Promise<Student> {
  const row = await findStudentRow(db, id, reader.scope);
  if (!row) throw notFound('Student');
  return toStudent(row, reader.showSsn);
}

async function assertProgramExists(tx: DbOrTx, programId: number | null) {
  if (programId == null) return;
  if (!(await programExists(tx, programId))) throw badRequest('Program does not exist', [{ field: 'programId', message: `No program with id ${programId}` }]);
}

function columns(input: Input, ctx: Ctx): StudentWrite {
  const ssnDigits = input.socialSecurityNumber?.replace(/-/g, '');
  return {
    firstName: input.firstName,
    lastName: input.lastName,
    email: input.email,
    phone: input.phone,
    programId: input.programId,
    status: input.status,
    sisStudentId: input.sisStudentId,
    enrollmentDate: input.enrollmentDate,
    // undefined: leave the stored SSN alone; null: clear it.
    ...(input.socialSecurityNumber === undefined
      ? {}
      : { ssnEncrypted: ssnDigits ? ctx.cipher.encrypt(ssnDigits) : null, ssnLast4: ssnDigits ? ssnDigits.slice(-4) : null }),
  };
}

/** Status changes by an edit follow the one rule (common/students.ts): withdrawals and leaves have their own doors. */
function assertStatusChange(role: Role, from: StudentStatus | null, to: StudentStatus | undefined) {
  if (to === undefined) return;
  const problem = studentStatusChangeProblem(role, from, to);
  if (problem) throw badRequest(problem, [{ field: 'status', message: problem }]);
}

/** What the audit log may hold about a student: never the SSN, only whether it changed. */
function auditable(input: Input) {
  const { socialSecurityNumber, ...rest } = input;
  return socialSecurityNumber === undefined ? rest : { ...rest, socialSecurityNumber: socialSecurityNumber ? '(set)' : '(cleared)' };
}

export async function createStudent(db: Db, given: Input, ctx: Ctx): Promise<Student> {
  if (given.socialSecurityNumber && !ctx.showSsn)
    throw badRequest('Only administrators may record an SSN', [{ field: 'socialSecurityNumber', message: 'Not allowed for your role' }]);
  const input = { ...given, status: given.status ?? 'enrolled' };
  assertStatusChange(ctx.role, null, input.status);
  return db.transaction(async (tx) => {
    await assertProgramExists(tx, input.programId);
    const id = await withUniqueFields(() => insertStudent(tx, columns(input, ctx)), UNIQUE);
    // A new student joins the rosters of their program's active schedules that have not ended.
    if (input.programId != null && input.status === 'enrolled') {
      const today = localDate(ctx.clock.now(), (await getSettings(tx)).attendance.timeZone);
      await addStudentToProgramRosters(tx, id, input.programId, today);
    }
    await recordAudit(tx, { userId: ctx.actorId, action: 'Create', tableName: 'students', recordId: id, ipAddress: ctx.ip, newValues: auditable(input) });
    return getStudent(tx, id, { ...UNCHECKED, showSsn: ctx.showSsn });
  });
}

export async function updateStudent(db: Db, id: number, input: Input, ctx: Ctx): Promise<Student> {
  if (input.socialSecurityNumber !== undefined && !ctx.showSsn)
    throw badRequest('Only administrators may change an SSN', [{ field: 'socialSecurityNumber', message: 'Not allowed for your role' }]);
  return db.transaction(async (tx) => {
    if (!(await lockStudent(tx, id))) throw notFound('Student');
    const before = await getStudent(tx, id, { ...UNCHECKED, showSsn: false });
    assertStatusChange(ctx.role, before.status, input.status);
    await assertProgramExists(tx, input.programId);
    await withUniqueFields(() => updateStudentRow(tx, id, columns(input, ctx)), UNIQUE);
    const { socialSecurityNumber: _ssn, ...comparable } = input;
    // A status left out stays as it was: not a change.
    if (comparable.status === undefined) delete comparable.status;
    const diff = changedFields(before as unknown as Record<string, unknown>, comparable as Record<string, unknown>);
    if (input.socialSecurityNumber !== undefined)
      (diff.newValues as Record<string, unknown>).socialSecurityNumber = input.socialSecurityNumber ? '(set)' : '(cleared)';
    await recordAudit(tx, { userId: ctx.actorId, action: 'Update', tableName: 'students', recordId: id, ipAddress: ctx.ip, ...diff });
    return getStudent(tx, id, { ...UNCHECKED, showSsn: ctx.showSsn });
  });
}

/** Hard delete only for a student without attendance history; otherwise change the status. */
export async function deleteStudent(db: Db, id: number, ctx: Omit<Ctx, 'cipher' | 'showSsn'>): Promise<void> {
  await db.transaction(async (tx) => {
    if (!(await lockStudent(tx, id))) throw notFound('Student');
    const before = await getStudent(tx, id, { ...UNCHECKED, showSsn: false });
    if (await hasAttendanceHistory(tx, id)) throw conflict(STUDENT_HAS_ATTENDANCE);
    await deleteStudentRow(tx, id);
    await recordAudit(tx, { userId: ctx.actorId, action: 'Delete', tableName: 'students', recordId: id, ipAddress: ctx.ip, oldValues: before });
  });
}

/** The student's status with the row locked (for leaves and withdrawals, which change it); undefined when there is no such student. */
export async function lockStudentStatus(tx: DbOrTx, id: number): Promise<StudentStatus | undefined> {
  return (await lockStudentStatusRow(tx, id))?.status;
}

/** Set a student's status (the caller audits the event that caused it). */
export async function setStudentStatus(tx: DbOrTx, id: number, status: StudentStatus): Promise<void> {
  await updateStudentStatusRow(tx, id, status);
}
