import { sql } from 'drizzle-orm';
import type { studentInputSchema} from '../../../common/students.ts';
import { STUDENT_HAS_ATTENDANCE, type Student } from '../../../common/students.ts';
import { MAX_INT32, type ListQuery } from '../../../common/validation.ts';
import type { z } from 'zod';
import type { Db, DbOrTx } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import { withUniqueFields } from '../../lib/db-errors.ts';
import { badRequest, conflict, notFound } from '../../lib/errors.ts';
import { maskSsn, type FieldCipher } from '../../lib/field-cipher.ts';
import { likePattern, orderAndPage } from '../../lib/paging.ts';
import { localDate } from '../../lib/school-time.ts';
import { getSettings } from '../settings/service.ts';
import { changedFields, recordAudit } from '../audit-logs/service.ts';

type Input = z.output<typeof studentInputSchema>;
type Ctx = { actorId: number; ip: string | null; clock: Clock; cipher: FieldCipher; showSsn: boolean };

const UNIQUE = { students_sis_student_id_unique: { field: 'sisStudentId', message: 'Another student already has this SIS student ID' } };

type Row = {
  id: number;
  first_name: string;
  last_name: string;
  email: string | null;
  phone: string | null;
  program_id: number | null;
  program_name: string | null;
  status: string;
  sis_student_id: string | null;
  enrollment_date: string | null;
  ssn_last4: string | null;
  total: number;
};

function toStudent(r: Row, showSsn: boolean): Student {
  return {
    id: r.id,
    firstName: r.first_name,
    lastName: r.last_name,
    email: r.email,
    phone: r.phone,
    programId: r.program_id,
    programName: r.program_name,
    status: r.status,
    sisStudentId: r.sis_student_id,
    enrollmentDate: r.enrollment_date,
    ...(showSsn ? { ssnMasked: maskSsn(r.ssn_last4) } : {}),
  };
}

const SORTABLE = {
  name: [sql`lower(s.last_name)`, sql`lower(s.first_name)`],
  firstName: [sql`lower(s.first_name)`],
  lastName: [sql`lower(s.last_name)`],
  email: [sql`lower(s.email)`],
  sisStudentId: [sql`s.sis_student_id`],
  status: [sql`s.status`],
  program: [sql`p.program_name`],
  id: [sql`s.id`],
};

/**
 * Search across name, e-mail, internal and SIS ids; sorted and paged in the database so the list
 * stays fast with tens of thousands of students.
 */
export async function listStudents(db: DbOrTx, q: ListQuery, showSsn: boolean): Promise<{ items: Student[]; total: number }> {
  const term = q.search ? likePattern(q.search) : null;
  // Digits match the internal id only when they can be one (a larger number overflows integer).
  const idMatch = q.search && /^\d{1,10}$/.test(q.search) && Number(q.search) <= MAX_INT32 ? Number(q.search) : null;
  const where = term
    ? sql`where (s.first_name || ' ' || s.last_name) ilike ${term} or (s.last_name || ', ' || s.first_name) ilike ${term}
            or s.email ilike ${term} or s.sis_student_id ilike ${term} or s.id = ${idMatch}`
    : sql``;
  const { rows } = await db.execute<Row>(sql`
    select s.id, s.first_name, s.last_name, s.email, s.phone, s.program_id, p.program_name, s.status,
           s.sis_student_id, s.enrollment_date::text, s.ssn_last4, count(*) over ()::int as total
      from students s left join programs p on p.id = s.program_id
      ${where}
      ${orderAndPage(q, SORTABLE, SORTABLE.name)}`);
  let total = rows[0]?.total ?? 0;
  if (rows.length === 0 && (q.page ?? 1) > 1) {
    const { rows: c } = await db.execute<{ n: number }>(sql`select count(*)::int as n from students s ${where}`);
    total = c[0]!.n;
  }
  return { items: rows.map((r) => toStudent(r, showSsn)), total };
}

export async function getStudent(db: DbOrTx, id: number, showSsn: boolean): Promise<Student> {
  const { rows } = await db.execute<Row>(sql`
    select s.id, s.first_name, s.last_name, s.email, s.phone, s.program_id, p.program_name, s.status,
           s.sis_student_id, s.enrollment_date::text, s.ssn_last4, 1 as total
      from students s left join programs p on p.id = s.program_id where s.id = ${id}`);
  if (!rows[0]) throw notFound('Student');
  return toStudent(rows[0], showSsn);
}

async function assertProgramExists(tx: DbOrTx, programId: number | null) {
  if (programId == null) return;
  const { rows } = await tx.execute(sql`select 1 from programs where id = ${programId}`);
  if (rows.length === 0) throw badRequest('Program does not exist', [{ field: 'programId', message: `No program with id ${programId}` }]);
}

function columns(input: Input, ctx: Ctx) {
  const ssnDigits = input.socialSecurityNumber?.replace(/-/g, '');
  return {
    first_name: input.firstName,
    last_name: input.lastName,
    email: input.email,
    phone: input.phone,
    program_id: input.programId,
    status: input.status,
    sis_student_id: input.sisStudentId,
    enrollment_date: input.enrollmentDate,
    // undefined: leave the stored SSN alone; null: clear it.
    ...(input.socialSecurityNumber === undefined
      ? {}
      : { ssn_encrypted: ssnDigits ? ctx.cipher.encrypt(ssnDigits) : null, ssn_last4: ssnDigits ? ssnDigits.slice(-4) : null }),
  };
}

/** What the audit log may hold about a student: never the SSN, only whether it changed. */
function auditable(input: Input) {
  const { socialSecurityNumber, ...rest } = input;
  return socialSecurityNumber === undefined ? rest : { ...rest, socialSecurityNumber: socialSecurityNumber ? '(set)' : '(cleared)' };
}

export async function createStudent(db: Db, input: Input, ctx: Ctx): Promise<Student> {
  if (input.socialSecurityNumber && !ctx.showSsn) throw badRequest('Only administrators may record an SSN', [{ field: 'socialSecurityNumber', message: 'Not allowed for your role' }]);
  return db.transaction(async (tx) => {
    await assertProgramExists(tx, input.programId);
    const c = columns(input, ctx);
    const keys = Object.keys(c);
    const { rows } = await withUniqueFields(
      () =>
        tx.execute<{ id: number }>(sql`
          insert into students (${sql.raw(keys.join(', '))})
          values (${sql.join(Object.values(c).map((v) => sql`${v}`), sql`, `)}) returning id`),
      UNIQUE,
    );
    const id = rows[0]!.id;
    // A new student joins the rosters of their program's active schedules that have not ended.
    if (input.programId != null && input.status === 'enrolled') {
      const today = localDate(ctx.clock.now(), (await getSettings(tx)).attendance.timeZone);
      await tx.execute(sql`
        insert into schedule_rosters (schedule_id, student_id)
        select sc.id, ${id} from schedules sc join courses co on co.id = sc.course_id
         where co.program_id = ${input.programId} and sc.is_active and sc.course_end_date >= ${today}::date
        on conflict do nothing`);
    }
    await recordAudit(tx, { userId: ctx.actorId, action: 'Create', tableName: 'students', recordId: id, ipAddress: ctx.ip, newValues: auditable(input) });
    return getStudent(tx, id, ctx.showSsn);
  });
}

export async function updateStudent(db: Db, id: number, input: Input, ctx: Ctx): Promise<Student> {
  if (input.socialSecurityNumber !== undefined && !ctx.showSsn) throw badRequest('Only administrators may change an SSN', [{ field: 'socialSecurityNumber', message: 'Not allowed for your role' }]);
  return db.transaction(async (tx) => {
    const { rows: found } = await tx.execute(sql`select id from students where id = ${id} for update`);
    if (found.length === 0) throw notFound('Student');
    const before = await getStudent(tx, id, false);
    await assertProgramExists(tx, input.programId);
    const c = columns(input, ctx);
    await withUniqueFields(
      () =>
        tx.execute(sql`update students set ${sql.join(
          Object.entries(c).map(([k, v]) => sql`${sql.raw(k)} = ${v}`),
          sql`, `,
        )}, updated_at = now() where id = ${id}`),
      UNIQUE,
    );
    const { socialSecurityNumber: _ssn, ...comparable } = input;
    const diff = changedFields(before as unknown as Record<string, unknown>, comparable as Record<string, unknown>);
    if (input.socialSecurityNumber !== undefined) (diff.newValues as Record<string, unknown>).socialSecurityNumber = input.socialSecurityNumber ? '(set)' : '(cleared)';
    await recordAudit(tx, { userId: ctx.actorId, action: 'Update', tableName: 'students', recordId: id, ipAddress: ctx.ip, ...diff });
    return getStudent(tx, id, ctx.showSsn);
  });
}

/** Hard delete only for a student without attendance history; otherwise change the status. */
export async function deleteStudent(db: Db, id: number, ctx: Omit<Ctx, 'cipher' | 'showSsn'>): Promise<void> {
  await db.transaction(async (tx) => {
    const { rows } = await tx.execute<{ id: number }>(sql`select id from students where id = ${id} for update`);
    if (rows.length === 0) throw notFound('Student');
    const before = await getStudent(tx, id, false);
    const { rows: history } = await tx.execute(sql`select 1 from attendance_records where student_id = ${id} limit 1`);
    if (history.length > 0) throw conflict(STUDENT_HAS_ATTENDANCE);
    await tx.execute(sql`delete from students where id = ${id}`);
    await recordAudit(tx, { userId: ctx.actorId, action: 'Delete', tableName: 'students', recordId: id, ipAddress: ctx.ip, oldValues: before });
  });
}
