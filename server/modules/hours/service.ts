import { daysBetween } from '../../../common/dates.ts';
import type { OpeningBalance, OpeningBalanceInput } from '../../../common/opening-balances.ts';
import type { Role } from '../../../common/roles.ts';
import type { Db, DbOrTx } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import { badRequest } from '../../lib/errors.ts';
import { localDate, localTimeOfDay } from '../../lib/school-time.ts';
import { assertMayReadStudent } from '../access/service.ts';
import { recordAudit } from '../audit-logs/service.ts';
import { getSettings, schoolName } from '../settings/service.ts';
import { ledgersFor } from './ledgers.ts';
import { importOpeningBalanceFile, openingBalanceOf, removeOpeningBalance, saveOpeningBalance, type TabularFile } from './opening-balances.ts';
import { selectMakeUps } from './queries.ts';
import { readableStudent, schoolToday } from './reading.ts';
import { recordsOf } from './records.ts';
import { renderTimeCard } from './time-card.ts';
import { timeCardDays, timeCardTotals } from './time-card-days.ts';

// The module's door: the routes, the other modules and the jobs import only this file. Each concern
// lives in its own file: where a read starts (reading.ts), the ledgers of many students
// (ledgers.ts), a student's hours and the summary (summary.ts), the CSV (export.ts), make-up
// sessions (make-ups.ts), records and their history (records.ts). Below: the opening balances'
// doors, and the time card.
export { exportHours } from './export.ts';
export { keptLedgersFor, recomputingHours, refreshStaleLedgers, sumsBetween, type KeptLedger, type SumsWanted } from './kept-ledgers.ts';
export type { SumKey } from './kept-ledger-queries.ts';
export { freezeHoursOfExitedStudents, ledgersFor, type StudentLedger } from './ledgers.ts';
export { deleteMakeUp, listMakeUps, recordMakeUp } from './make-ups.ts';
export { ledgerAsOf, ledgerStudentUnchecked } from './reading.ts';
export { attendanceHistory, studentRecords } from './records.ts';
export { hoursOfStudentUnchecked, hoursSummary, studentHours } from './summary.ts';

type User = { id: number; role: Role };
type Ctx = { clock: Clock; ip: string | null };

// ---- Opening balances (opening-balances.ts): the doors, after the reader's need-to-know ----

/** GET /api/students/{id}/opening-balance: the hours before Muster (404 when none was entered). */
export async function getOpeningBalance(db: DbOrTx, user: User, studentId: number): Promise<OpeningBalance> {
  return openingBalanceOf(db, await readableStudent(db, user, studentId));
}

/** PUT /api/students/{id}/opening-balance (administrators): audited with the old and new values. */
export async function setOpeningBalance(db: Db, user: User, studentId: number, input: OpeningBalanceInput, ctx: Ctx): Promise<OpeningBalance> {
  return saveOpeningBalance(db, await readableStudent(db, user, studentId), input, { userId: user.id, ...ctx });
}

/** DELETE /api/students/{id}/opening-balance (administrators), with a reason kept in the audit log. */
export async function deleteOpeningBalance(db: Db, user: User, studentId: number, reason: string, ctx: Ctx): Promise<void> {
  await assertMayReadStudent(db, user, studentId);
  await removeOpeningBalance(db, studentId, reason, { userId: user.id, ...ctx });
}

/** POST /api/students/opening-balances/import: every row checked as the form is; all or nothing. */
export function importOpeningBalances(db: Db, user: User, file: TabularFile, dryRun: boolean, ctx: Ctx) {
  return importOpeningBalanceFile(db, file, dryRun, { userId: user.id, ...ctx });
}

/** The school's upload limit (Settings › System), for the opening-balance file. */
export async function uploadLimitMB(db: DbOrTx): Promise<number> {
  return (await getSettings(db)).system.maxFileUploadSizeMB;
}

// ---- The time card ----

const TIME_CARD_MAX_DAYS = 731;

/**
 * GET /api/students/{id}/time-card.pdf: the student's days from–to (default: this month in the
 * school's time zone, up to today; a `to` after today is today: the card shows what happened) with
 * in/out times, minutes, status, make-up, corrections, totals and signature lines. Same
 * need-to-know as the hours; audited as an export.
 */
export async function studentTimeCard(
  db: DbOrTx,
  user: User,
  studentId: number,
  q: { from?: string; to?: string },
  ctx: Ctx,
): Promise<{ fileName: string; headers: Record<string, string>; body: Buffer }> {
  const student = await readableStudent(db, user, studentId);
  const { today, timeZone } = await schoolToday(db, ctx.clock);
  const to = q.to && q.to < today ? q.to : today;
  const from = q.from ?? `${to.slice(0, 8)}01`;
  const fieldError = (field: string, message: string) => badRequest(message, [{ field, message }]);
  if (from > to) throw fieldError('from', `from must not be after ${to} (the time card ends today, ${today}, at the latest)`);
  if (daysBetween(from, to) > TIME_CARD_MAX_DAYS) throw fieldError('from', 'from–to may span at most two years');

  const [ledger, records, makeUps] = await Promise.all([
    ledgersFor(db, [student], to, timeZone, ctx.clock.now()).then((m) => m.get(studentId)!),
    recordsOf(db, studentId, from, to),
    selectMakeUps(db, studentId),
  ]);
  const days = ledger.days.filter((d) => d.date >= from && d.date <= to);
  const byDate =
    <T>(key: (x: T) => string) =>
    (a: T, b: T) =>
      key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0;
  const now = ctx.clock.now();
  const body = await renderTimeCard({
    schoolName: await schoolName(db),
    generatedAt: `${localDate(now, timeZone)} ${localTimeOfDay(now, timeZone)}`,
    timeZone,
    student: { id: student.id, firstName: student.firstName, lastName: student.lastName, sisStudentId: student.sisStudentId },
    programName: student.programName,
    startDate: ledger.startDate,
    from,
    to,
    days: timeCardDays(
      days,
      // Oldest first; a day's records stay in class order (the query sorts them by start time).
      records
        .sort(byDate((r) => r.sessionDate))
        .map((r) => ({ ...r, scanInTime: r.scanInTime ? new Date(r.scanInTime) : null, scanOutTime: r.scanOutTime ? new Date(r.scanOutTime) : null })),
      makeUps
        .filter((m) => m.sessionDate >= from && m.sessionDate <= to)
        .sort(byDate((m) => `${m.sessionDate} ${m.startTime}`))
        .map((m) => ({ date: m.sessionDate, startTime: m.startTime, endTime: m.endTime, courseCode: m.courseCode })),
      timeZone,
    ),
    totals: timeCardTotals(days),
    sinceStart: {
      scheduledMinutes: ledger.totals.scheduledMinutes,
      creditedMinutes: ledger.totals.creditedMinutes,
      attendancePercent: ledger.attendancePercent,
    },
    paymentPeriods: ledger.paymentPeriods,
  });
  // The SIS id goes into a header: keep it to characters every browser saves as they are.
  const who = (student.sisStudentId || String(student.id)).replace(/[^A-Za-z0-9._-]/g, '_');
  const fileName = `time-card-${who}-${from}-${to}.pdf`;
  await recordAudit(db, {
    userId: user.id,
    action: 'Export',
    tableName: 'time_card',
    recordId: studentId,
    ipAddress: ctx.ip,
    newValues: { studentId, from, to, fileName },
    at: now,
  });
  return { fileName, body, headers: { 'content-type': 'application/pdf', 'content-disposition': `attachment; filename="${fileName}"` } };
}
