// The regulators' reports as downloads: the monthly hours report (CSV or signed-off PDF) and the SAP report, each audited as an export.
import { MONTHLY_HOURS_COLUMNS, SAP_REPORT_COLUMNS } from '../../../common/compliance.ts';
import type { DbOrTx } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import { csvDownloadHeaders, csvFromRows } from '../../lib/csv.ts';
import { localDate, localTimeOfDay } from '../../lib/school-time.ts';
import { recordAudit } from '../audit-logs/service.ts';
import { ledgerAsOf } from '../hours/service.ts';
import { findProgramName } from '../programs/service.ts';
import { getSettings, schoolName } from '../settings/service.ts';
import { enrolledLedgers } from './enrolled-ledgers.ts';
import { monthlyHoursRows, type MonthlyHoursRow } from './monthly-hours.ts';
import { renderMonthlyReport } from './monthly-report-pdf.ts';

type Ctx = { clock: Clock; ip: string | null };

/** GET /api/reports/monthly-hours: the CSV streamed, or (format=pdf) the signed-off PDF; audited as an export. */
export async function monthlyHoursReport(db: DbOrTx, q: { month: string; programId?: number; format?: 'csv' | 'pdf' }, ctx: Ctx & { actorId: number }) {
  const pdf = q.format === 'pdf';
  const fileName = `monthly-hours-${q.month}${q.programId ? `-program-${q.programId}` : ''}.${pdf ? 'pdf' : 'csv'}`;
  await recordAudit(db, { userId: ctx.actorId, action: 'Export', tableName: 'monthly_hours_report', ipAddress: ctx.ip, newValues: { ...q, fileName } });
  if (!pdf) return { headers: csvDownloadHeaders(fileName), body: csvFromRows(MONTHLY_HOURS_COLUMNS, monthlyHoursRows(db, q, ctx.clock)) };
  const rows: MonthlyHoursRow[] = [];
  for await (const r of monthlyHoursRows(db, q, ctx.clock)) rows.push(r);
  const { timeZone } = (await getSettings(db)).attendance;
  const now = ctx.clock.now();
  const body = await renderMonthlyReport({
    schoolName: await schoolName(db),
    month: q.month,
    programName: q.programId ? ((await findProgramName(db, q.programId)) ?? null) : null,
    generatedAt: `${localDate(now, timeZone)} ${localTimeOfDay(now, timeZone)} (${timeZone})`,
    rows,
  });
  return { headers: { 'content-type': 'application/pdf', 'content-disposition': `attachment; filename="${fileName}"`, 'cache-control': 'no-store' }, body };
}

async function* sapRows(db: DbOrTx, q: { programId?: number; asOf: string; timeZone: string; now: Date }) {
  const { asOf, timeZone } = q;
  for await (const { student, ledger } of enrolledLedgers(db, { programId: q.programId, asOf, timeZone, now: q.now })) {
    for (const c of ledger.sapCheckpoints) {
      yield { sisStudentId: student.sisStudentId, firstName: student.firstName, lastName: student.lastName, programName: student.programName, asOf, ...c };
    }
  }
}

export async function sapReportCsv(db: DbOrTx, q: { programId?: number; asOf?: string }, ctx: Ctx & { actorId: number }) {
  // Decided before the file starts: a refused date is a 400, not a broken download.
  const { asOf, timeZone } = await ledgerAsOf(db, ctx.clock, q.asOf);
  const fileName = `sap-report-${q.asOf ?? 'today'}.csv`;
  await recordAudit(db, { userId: ctx.actorId, action: 'Export', tableName: 'sap_report', ipAddress: ctx.ip, newValues: { ...q, fileName } });
  return {
    headers: csvDownloadHeaders(fileName),
    stream: csvFromRows(SAP_REPORT_COLUMNS, sapRows(db, { programId: q.programId, asOf, timeZone, now: ctx.clock.now() })),
  };
}
