import { and, count, eq, ilike, or, sql, type SQL } from 'drizzle-orm';
import type { StudentStatus } from '../../../common/constants.ts';
import type { StudentListQuery, StudentSortKey } from '../../../common/students.ts';
import { MAX_INT32, type ListQuery } from '../../../common/validation.ts';
import type { DbOrTx } from '../../db/client.ts';
import { studentsInScope } from '../../db/roster-membership.ts';
import { attendanceRecords, programs, students } from '../../db/schema/index.ts';
import { likePattern } from '../../lib/paging.ts';
import type { ViewerScope } from '../access/service.ts';

// Reads and writes of the students module: each takes the database or a transaction first, and a scope.
// The scope (the access module's ViewerScope: every student, or only those on the roster of a
// schedule the instructor teaches) is passed from the route through the service to the query, so a
// read is limited in SQL, never by pretending to be another user.

type StudentColumns = typeof students.$inferSelect;
export type StudentRow = Pick<
  StudentColumns,
  'id' | 'firstName' | 'lastName' | 'email' | 'phone' | 'programId' | 'status' | 'sisStudentId' | 'enrollmentDate' | 'ssnLast4'
> & { programName: (typeof programs.$inferSelect)['programName'] | null; lastDateOfAttendance: string | null };

const rowColumns = {
  id: students.id,
  firstName: students.firstName,
  lastName: students.lastName,
  email: students.email,
  phone: students.phone,
  programId: students.programId,
  programName: programs.programName,
  status: students.status,
  sisStudentId: students.sisStudentId,
  enrollmentDate: students.enrollmentDate,
  ssnLast4: students.ssnLast4,
  // The last date of attendance (decision 016): the one frozen with a withdrawal, else the latest day
  // with an attended record or a make-up session (the hours ledger's rule, read from the indexes).
  lastDateOfAttendance: sql<string | null>`case when exists (select 1 from student_withdrawals w where w.student_id = ${students.id})
    then (select w.last_date_of_attendance::text from student_withdrawals w where w.student_id = ${students.id})
    else greatest(
      (select max(a.session_date)::text from attendance_records a where a.student_id = ${students.id} and a.status in ('present', 'late', 'incomplete')),
      (select max(m.session_date)::text from make_up_sessions m where m.student_id = ${students.id})) end`,
};

/** Search across full name (either order), e-mail, SIS id and the internal id. */
function matching(search: string | undefined): SQL | undefined {
  if (!search) return undefined;
  const term = likePattern(search);
  // Digits match the internal id only when they can be one (a larger number overflows integer).
  const id = /^\d{1,10}$/.test(search) && Number(search) <= MAX_INT32 ? Number(search) : null;
  return or(
    ilike(sql`${students.firstName} || ' ' || ${students.lastName}`, term),
    ilike(sql`${students.lastName} || ', ' || ${students.firstName}`, term),
    ilike(students.email, term),
    ilike(students.sisStudentId, term),
    id == null ? undefined : eq(students.id, id),
  );
}

/** Sort keys (a fixed map: the query string never reaches SQL). */
const SORTS: Record<StudentSortKey, SQL[]> = {
  name: [sql`lower(${students.lastName})`, sql`lower(${students.firstName})`],
  firstName: [sql`lower(${students.firstName})`],
  lastName: [sql`lower(${students.lastName})`],
  email: [sql`lower(${students.email})`],
  sisStudentId: [sql`${students.sisStudentId}`],
  status: [sql`${students.status}`],
  program: [sql`${programs.programName}`],
  id: [sql`${students.id}`],
};

/** The Students screen's filters: one program, one status (each absent: no condition). */
function filtered(q: StudentListQuery): SQL | undefined {
  return and(q.programId === undefined ? undefined : eq(students.programId, q.programId), q.status === undefined ? undefined : eq(students.status, q.status));
}

function orderOf(q: ListQuery): SQL[] {
  const keys = q.sort && Object.hasOwn(SORTS, q.sort) ? SORTS[q.sort as StudentSortKey] : SORTS.name;
  const dir = q.order === 'desc' ? sql`desc` : sql`asc`;
  // The direction applies to every expression of a key (name = last name, then first name); id breaks ties.
  return [...keys.map((k) => sql`${k} ${dir} nulls last`), sql`${students.id} asc`];
}

/**
 * One page of the students in scope (all of them without page/pageSize), searched, filtered and sorted in
 * the database, with the total of the search in scope for X-Total-Count.
 */
export async function listStudentRows(db: DbOrTx, q: StudentListQuery, scope: ViewerScope): Promise<{ rows: StudentRow[]; total: number }> {
  const where = and(matching(q.search), filtered(q), studentsInScope(students.id, scope));
  const pageSize = q.pageSize ?? 50;
  const page = q.page ?? (q.pageSize ? 1 : undefined);
  const query = db
    .select({ ...rowColumns, total: sql<number>`count(*) over ()`.mapWith(Number) })
    .from(students)
    .leftJoin(programs, eq(programs.id, students.programId))
    .where(where)
    .orderBy(...orderOf(q))
    .$dynamic();
  const found = page ? await query.limit(pageSize).offset((page - 1) * pageSize) : await query;
  let total = found[0]?.total ?? 0;
  if (found.length === 0 && page && page > 1) {
    // Past the last page the window has no row to carry the total: count it.
    total = (await db.select({ n: count() }).from(students).where(where))[0]!.n;
  }
  return { rows: found.map(({ total: _total, ...row }) => row), total };
}

/** One student, if in scope. */
export async function findStudentRow(db: DbOrTx, id: number, scope: ViewerScope): Promise<StudentRow | null> {
  const [row] = await db
    .select(rowColumns)
    .from(students)
    .leftJoin(programs, eq(programs.id, students.programId))
    .where(and(eq(students.id, id), studentsInScope(students.id, scope)))
    .limit(1);
  return row ?? null;
}

/** The columns a create or update writes (the SSN pair only when the input touches it). */
export type StudentWrite = Pick<
  typeof students.$inferInsert,
  'firstName' | 'lastName' | 'email' | 'phone' | 'programId' | 'status' | 'sisStudentId' | 'enrollmentDate' | 'ssnEncrypted' | 'ssnLast4'
>;

export async function programExists(db: DbOrTx, programId: number): Promise<boolean> {
  const rows = await db.select({ id: programs.id }).from(programs).where(eq(programs.id, programId));
  return rows.length > 0;
}

/** Locks the student row for the rest of the transaction; false when it does not exist. */
export async function lockStudent(tx: DbOrTx, id: number): Promise<boolean> {
  const rows = await tx.select({ id: students.id }).from(students).where(eq(students.id, id)).for('update');
  return rows.length > 0;
}

export async function insertStudent(db: DbOrTx, values: StudentWrite): Promise<number> {
  const [row] = await db.insert(students).values(values).returning({ id: students.id });
  return row!.id;
}

export async function updateStudentRow(db: DbOrTx, id: number, values: StudentWrite): Promise<void> {
  await db
    .update(students)
    .set({ ...values, updatedAt: sql`now()` })
    .where(eq(students.id, id));
}

export async function hasAttendanceHistory(db: DbOrTx, studentId: number): Promise<boolean> {
  const rows = await db.select({ id: attendanceRecords.id }).from(attendanceRecords).where(eq(attendanceRecords.studentId, studentId)).limit(1);
  return rows.length > 0;
}

export async function deleteStudentRow(db: DbOrTx, id: number): Promise<void> {
  await db.delete(students).where(eq(students.id, id));
}

/** The student's status, the row locked for the rest of the transaction (leaves and withdrawals change it). */
export async function lockStudentStatusRow(db: DbOrTx, id: number): Promise<{ status: StudentStatus } | undefined> {
  const [row] = await db.select({ status: students.status }).from(students).where(eq(students.id, id)).for('update');
  return row;
}

export async function updateStudentStatusRow(db: DbOrTx, id: number, status: StudentStatus): Promise<void> {
  await db
    .update(students)
    .set({ status, updatedAt: sql`now()` })
    .where(eq(students.id, id));
}
