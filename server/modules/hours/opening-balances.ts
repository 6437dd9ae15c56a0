import { openingBalanceInputSchema, type OpeningBalance, type OpeningBalanceInput } from '../../../common/opening-balances.ts';
import type { ProgramPolicy } from '../../../common/program-policy.ts';
import type { Db, DbOrTx } from '../../db/client.ts';
import type { studentOpeningBalances } from '../../db/schema/index.ts';
import type { Clock } from '../../lib/clock.ts';
import { AppError, badRequest, notFound, type RowProblem } from '../../lib/errors.ts';
import { recordAudit } from '../audit-logs/service.ts';
import { programPolicy } from '../programs/service.ts';
import { getSettings } from '../settings/service.ts';
import type { LedgerOpening } from './ledger-types.ts';
import { selectLedgerStudentsBySis, type LedgerStudentRow } from './queries.ts';
import { deleteOpeningBalanceRow, selectLedgerOpenings, selectOpeningBalance, upsertOpeningBalance, type OpeningBalanceRow } from './balance-queries.ts';
import { hoursOfMinutes as toHours } from '../../../common/hours.ts';

/**
 * Opening balances (decision 041): a student's hours from before the school kept
 * attendance in Muster. The hours service is the door: it decides who may read the student first.
 */

type Actor = { userId: number; clock: Clock; ip: string | null };
export type TabularFile = { headers: string[]; rows: { line: number; values: Record<string, string> }[] };
type PolicyLoader = (programId: number) => Promise<ProgramPolicy | undefined>;

/** Policies read once per program for the life of one request. */
function policyLoader(db: DbOrTx): PolicyLoader {
  const loaded = new Map<number, Promise<ProgramPolicy | undefined>>();
  return (programId) => {
    if (!loaded.has(programId)) loaded.set(programId, programPolicy(db, programId));
    return loaded.get(programId)!;
  };
}

export const toLedgerOpening = (o: {
  beforeDate: string;
  scheduledMinutes: number;
  creditedMinutes: number;
  periodCredits: LedgerOpening['periodCredits'];
  lastDateOfAttendance: string | null;
}): LedgerOpening => ({
  beforeDate: o.beforeDate,
  scheduledMinutes: o.scheduledMinutes,
  creditedMinutes: o.creditedMinutes,
  periodCredits: o.periodCredits,
  lastDateOfAttendance: o.lastDateOfAttendance,
});

/**
 * The date from which Muster keeps a student's attendance: their program's (its clock-hour policy),
 * else the school's (Settings › Attendance), else null: since each student's start. One home: the
 * ledger and the opening balance's default date both ask here.
 */
export function recordsStartDate(school: string | null, policy: { recordsStartDate: string | null } | undefined): string | null {
  return policy?.recordsStartDate ?? school;
}

const toMinutes = (h: number) => Math.round(h * 60);

function toOpeningBalance(r: OpeningBalanceRow): OpeningBalance {
  return {
    studentId: r.studentId,
    beforeDate: r.beforeDate,
    scheduledHours: toHours(r.scheduledMinutes),
    creditedHours: toHours(r.creditedMinutes),
    periods: r.periodCredits?.map((p) => ({ number: p.number, creditedHours: toHours(p.creditedMinutes), completedOn: p.completedOn })) ?? null,
    lastDateOfAttendance: r.lastDateOfAttendance,
    note: r.note,
    enteredById: r.enteredBy,
    enteredByName: r.enteredByName,
    enteredAt: r.enteredAt.toISOString(),
  };
}

/** A student's opening balance, for a reader already allowed to see the student (404 when none). */
export async function openingBalanceOf(db: DbOrTx, student: LedgerStudentRow): Promise<OpeningBalance> {
  const row = await selectOpeningBalance(db, student.id);
  if (!row) throw notFound('Opening balance');
  return toOpeningBalance(row);
}

/** Save a student's opening balance (default date: the records start date). Audited. */
export async function saveOpeningBalance(db: Db, student: LedgerStudentRow, input: OpeningBalanceInput, ctx: Actor): Promise<OpeningBalance> {
  const checked = await checkOpeningBalance(db, student, input, (await getSettings(db)).attendance.recordsStartDate, policyLoader(db));
  if ('field' in checked) throw badRequest(checked.message, [checked]);
  return db.transaction(async (tx) => writeOpeningBalance(tx, { ...checked, enteredBy: ctx.userId, enteredAt: ctx.clock.now() }, ctx.userId, ctx.ip));
}

type OpeningBalanceValues = Omit<typeof studentOpeningBalances.$inferInsert, 'enteredBy' | 'enteredAt'>;

/**
 * The one check of an opening balance, for the form and the file alike: its date (default the
 * school's records start date), its last date of attendance before it, a student who was enrolled
 * before it, payment periods the program has. Answers the row to write, or the field at fault.
 */
async function checkOpeningBalance(
  db: DbOrTx,
  student: LedgerStudentRow,
  input: OpeningBalanceInput,
  schoolStart: string | null,
  policyOf: PolicyLoader,
): Promise<OpeningBalanceValues | { field: string; message: string }> {
  const policy = student.programId == null ? undefined : await policyOf(student.programId);
  const beforeDate = input.beforeDate ?? recordsStartDate(schoolStart, policy);
  if (!beforeDate)
    return {
      field: 'beforeDate',
      message: 'Give beforeDate (the first day Muster keeps this student\'s attendance), or set "Keep attendance from" in Settings › Attendance',
    };
  if (input.lastDateOfAttendance && input.lastDateOfAttendance >= beforeDate)
    return { field: 'lastDateOfAttendance', message: `lastDateOfAttendance must be before ${beforeDate}` };
  if (student.enrollmentDate && student.enrollmentDate >= beforeDate) {
    return { field: 'beforeDate', message: `The student enrolled on ${student.enrollmentDate}: there are no hours before ${beforeDate} to bring in` };
  }
  if (input.periods && policy) {
    const unknown = policy && input.periods.find((p) => p.number > policy.paymentPeriods.length);
    if (policy && unknown)
      return { field: 'periods', message: `The program has ${policy.paymentPeriods.length} payment periods; there is no period ${unknown.number}` };
  }
  return {
    studentId: student.id,
    beforeDate,
    scheduledMinutes: toMinutes(input.scheduledHours),
    creditedMinutes: toMinutes(input.creditedHours),
    periodCredits: input.periods?.map((p) => ({ number: p.number, creditedMinutes: toMinutes(p.creditedHours), completedOn: p.completedOn })) ?? null,
    lastDateOfAttendance: input.lastDateOfAttendance,
    note: input.note,
  };
}

/** Write one balance and its audit entry (old and new values), in the caller's transaction. */
async function writeOpeningBalance(tx: DbOrTx, values: typeof studentOpeningBalances.$inferInsert, userId: number, ip: string | null): Promise<OpeningBalance> {
  const before = await selectOpeningBalance(tx, values.studentId);
  await upsertOpeningBalance(tx, values);
  const after = toOpeningBalance((await selectOpeningBalance(tx, values.studentId))!);
  const { enteredAt: _a, enteredById: _b, enteredByName: _c, ...newValues } = after;
  const oldValues = before ? (({ enteredAt: _x, enteredById: _y, enteredByName: _z, ...rest }) => rest)(toOpeningBalance(before)) : undefined;
  await recordAudit(tx, {
    userId,
    action: before ? 'Update' : 'Create',
    tableName: 'student_opening_balances',
    recordId: values.studentId,
    ipAddress: ip,
    oldValues,
    newValues,
    at: values.enteredAt,
  });
  return after;
}

/** The columns of an opening-balance file (POST /api/students/opening-balances/import). */
const OPENING_BALANCE_COLUMNS = ['sisStudentId', 'beforeDate', 'scheduledHours', 'creditedHours', 'lastDateOfAttendance', 'note'] as const;
const OPENING_BALANCE_ROWS_MAX = 20_000;

/**
 * Opening balances from a file, one row per student (by SIS id): every row is checked as the form
 * is, every problem reported with its row and column, and nothing written unless all are right;
 * then all in one transaction, each audited. `dryRun` checks and counts only.
 */
export async function importOpeningBalanceFile(db: Db, file: TabularFile, dryRun: boolean, ctx: Actor) {
  const problems: RowProblem[] = [];
  const known = new Set<string>(OPENING_BALANCE_COLUMNS);
  for (const h of file.headers)
    if (h !== '' && !known.has(h)) problems.push({ row: 1, column: h, message: `Unknown column; the columns are ${OPENING_BALANCE_COLUMNS.join(', ')}` });
  for (const required of ['sisStudentId', 'scheduledHours', 'creditedHours', 'note']) {
    if (!file.headers.includes(required)) problems.push({ row: 1, column: required, message: 'This column is required' });
  }
  if (file.rows.length > OPENING_BALANCE_ROWS_MAX) throw badRequest(`A file may hold at most ${OPENING_BALANCE_ROWS_MAX} rows`);
  if (problems.length > 0)
    throw new AppError(400, 'IMPORT_INVALID', 'The file was not imported: fix the header row', { errors: problems, errorCount: problems.length });
  const sisIds = [...new Set(file.rows.map((r) => r.values.sisStudentId?.trim() ?? '').filter(Boolean))];
  const bySis = new Map((await selectLedgerStudentsBySis(db, sisIds)).map((s) => [s.sisStudentId!, s]));
  const schoolStart = (await getSettings(db)).attendance.recordsStartDate;
  const seen = new Set<string>();
  // One policy read per program, not per row: a file holds thousands of students of a few programs.
  const policyOf = policyLoader(db);
  const checked: OpeningBalanceValues[] = [];
  const numberCell = (v: string | undefined) => (v != null && v.trim() !== '' && Number.isFinite(Number(v)) ? Number(v) : v);
  for (const r of file.rows) {
    const cell = (k: string) => r.values[k]?.trim() ?? '';
    const sis = cell('sisStudentId');
    const student = bySis.get(sis);
    if (!sis) {
      problems.push({ row: r.line, column: 'sisStudentId', message: 'sisStudentId is required' });
      continue;
    }
    if (seen.has(sis)) {
      problems.push({ row: r.line, column: 'sisStudentId', value: sis, message: 'This student appears on an earlier row' });
      continue;
    }
    seen.add(sis);
    if (!student) {
      problems.push({ row: r.line, column: 'sisStudentId', value: sis, message: `No student with SIS ID ${sis}` });
      continue;
    }
    const parsed = openingBalanceInputSchema.safeParse({
      beforeDate: cell('beforeDate') || undefined,
      scheduledHours: numberCell(cell('scheduledHours')),
      creditedHours: numberCell(cell('creditedHours')),
      lastDateOfAttendance: cell('lastDateOfAttendance') || null,
      note: cell('note'),
    });
    if (!parsed.success) {
      for (const issue of parsed.error.issues)
        problems.push({ row: r.line, column: String(issue.path[0] ?? ''), value: cell(String(issue.path[0] ?? '')), message: issue.message });
      continue;
    }
    const result = await checkOpeningBalance(db, student, parsed.data, schoolStart, policyOf);
    if ('field' in result) problems.push({ row: r.line, column: result.field, value: cell(result.field), message: result.message });
    else checked.push(result);
  }
  if (problems.length > 0) {
    throw new AppError(400, 'IMPORT_INVALID', `The file was not imported: ${problems.length} problem${problems.length === 1 ? '' : 's'}; nothing was written`, {
      errors: problems.slice(0, 200),
      errorCount: problems.length,
    });
  }
  const existing = new Set(
    (
      await selectLedgerOpenings(
        db,
        checked.map((c) => c.studentId),
      )
    ).map((o) => o.studentId),
  );
  const counts = {
    rows: checked.length,
    created: checked.filter((c) => !existing.has(c.studentId)).length,
    updated: checked.filter((c) => existing.has(c.studentId)).length,
    dryRun,
  };
  if (dryRun) return counts;
  const at = ctx.clock.now();
  await db.transaction(async (tx) => {
    for (const c of checked) await writeOpeningBalance(tx, { ...c, enteredBy: ctx.userId, enteredAt: at }, ctx.userId, ctx.ip);
  });
  return counts;
}

/** Remove a student's opening balance, with the reason in the audit log. */
export async function removeOpeningBalance(db: Db, studentId: number, reason: string, ctx: Actor): Promise<void> {
  await db.transaction(async (tx) => {
    const before = await selectOpeningBalance(tx, studentId);
    if (!before) throw notFound('Opening balance');
    await deleteOpeningBalanceRow(tx, studentId);
    const { enteredAt: _a, enteredById: _b, enteredByName: _c, ...oldValues } = toOpeningBalance(before);
    await recordAudit(tx, {
      userId: ctx.userId,
      action: 'Delete',
      tableName: 'student_opening_balances',
      recordId: studentId,
      ipAddress: ctx.ip,
      oldValues: { ...oldValues, reason },
      at: ctx.clock.now(),
    });
  });
}
