// A student's hours (GET /api/students/{id}/hours) and the hours page's summary of many (GET /api/hours).
import type { z } from 'zod';
import type { HoursSummaryRow, StudentHours, hoursListQuerySchema } from '../../../common/hours.ts';
import { addDays } from '../../../common/dates.ts';
import type { Role } from '../../../common/roles.ts';
import type { DbOrTx } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import { viewerScope } from '../access/service.ts';
import type { Ledger } from './ledger-types.ts';
import { ledgersFor } from './ledgers.ts';
import { countHoursStudents, selectHoursStudents, type LedgerStudentRow } from './queries.ts';
import { ledgerAsOf, readableStudent } from './reading.ts';

type User = { id: number; role: Role };

/** GET /api/students/{id}/hours: the ledger as it stood at the end of asOf (default today), with the days of from–to (default the last 31). */
export async function studentHours(
  db: DbOrTx,
  user: User,
  studentId: number,
  q: { asOf?: string; from?: string; to?: string },
  clock: Clock,
): Promise<StudentHours> {
  return hoursOfStudentUnchecked(db, await readableStudent(db, user, studentId), q, clock);
}

/**
 * One student's ledger. Unchecked: for a caller that has already decided the reader may see it (a
 * staff member through the access module's assertMayReadStudent, a student through the link e-mailed to them).
 */
export async function hoursOfStudentUnchecked(
  db: DbOrTx,
  student: LedgerStudentRow,
  q: { asOf?: string; from?: string; to?: string },
  clock: Clock,
): Promise<StudentHours> {
  const studentId = student.id;
  const { asOf, timeZone } = await ledgerAsOf(db, clock, q.asOf);
  const ledger = (await ledgersFor(db, [student], asOf, timeZone, clock.now())).get(studentId)!;
  const to = q.to ?? asOf;
  const from = q.from ?? addDays(to, -30);
  return {
    studentId,
    programId: student.programId,
    asOf,
    enrollmentDate: student.enrollmentDate,
    lastDateOfAttendance: ledger.lastDateOfAttendance,
    expectedEndDate: ledger.expectedEndDate,
    withdrawalDate: ledger.withdrawalDate,
    totals: ledger.totals,
    attendancePercent: ledger.attendancePercent,
    paymentPeriods: ledger.paymentPeriods,
    sapCheckpoints: ledger.sapCheckpoints,
    days: ledger.days.filter((d) => d.date >= from && d.date <= to),
    ...(ledger.transcript ? { transcript: ledger.transcript } : {}),
  };
}

function summaryRow(s: LedgerStudentRow, l: Ledger): HoursSummaryRow {
  const current = l.paymentPeriods.find((p) => p.status !== 'completed') ?? null;
  const evaluated = l.sapCheckpoints.filter((c) => c.status !== 'pending');
  return {
    studentId: s.id,
    sisStudentId: s.sisStudentId,
    firstName: s.firstName,
    lastName: s.lastName,
    programId: s.programId,
    programName: s.programName,
    status: s.status,
    totals: l.totals,
    attendancePercent: l.attendancePercent,
    currentPaymentPeriod: current?.number ?? null,
    hoursRemaining: current?.hoursRemaining ?? null,
    sapStatus: evaluated.at(-1)?.status ?? 'pending',
    lastDateOfAttendance: l.lastDateOfAttendance,
  };
}

type HoursListQuery = z.output<typeof hoursListQuerySchema>;

/**
 * GET /api/hours: one page of students (sorted and paged in SQL by name or SIS id), each with its
 * ledger computed for that page only, so the page costs the same with 50 students or 50,000.
 */
export async function hoursSummary(db: DbOrTx, user: User, q: HoursListQuery, clock: Clock): Promise<{ items: HoursSummaryRow[]; total: number }> {
  const { asOf, timeZone } = await ledgerAsOf(db, clock, q.asOf);
  const filter = { programId: q.programId, search: q.search, scope: viewerScope(user) };
  const pageSize = q.pageSize ?? 50;
  const page = q.page ?? 1;
  const [list, total] = await Promise.all([
    selectHoursStudents(db, { ...filter, sort: q.sort ?? 'lastName', order: q.order ?? 'asc', limit: pageSize, offset: (page - 1) * pageSize }),
    countHoursStudents(db, filter),
  ]);
  const ledgers = await ledgersFor(db, list, asOf, timeZone, clock.now());
  return { items: list.map((s) => summaryRow(s, ledgers.get(s.id)!)), total };
}
