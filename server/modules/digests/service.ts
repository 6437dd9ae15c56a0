import { EMAIL_NOT_CONFIGURED } from '../../../common/notifications.ts';
import type { Config } from '../../config.ts';
import type { Db, DbOrTx } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import { badRequest } from '../../lib/errors.ts';
import type { FieldCipher } from '../../lib/field-cipher.ts';
import { escapeHtml } from '../../lib/html.ts';
import { publicBaseUrl } from '../../lib/public-url.ts';
import { addDays, localDate, mondayOnOrBefore, zonedInstant } from '../../lib/school-time.ts';
import { receivesWeeklyReport } from '../access/service.ts';
import { schoolStudentsAtRisk } from '../attendance-alerts/service.ts';
import { complianceOverview } from '../compliance/service.ts';
import { courseRatesByWeek } from '../dashboard/service.ts';
import { emailConfigured, queueEmails, unsubscribeUrl, type EmailMessage } from '../outbox/service.ts';
import { getSettings, usersWantingEmail } from '../settings/service.ts';
import { claimFact, selectExportCounts, selectImportCounts } from './queries.ts';

/** Who an e-mail of the report goes to. */
type Recipient = { id: number; email: string };

type DigestDeps = { db: Db; config: Config; cipher: FieldCipher; clock: Clock };

/** The report goes out on Monday at this school-local time. */
const SEND_AT_MINUTES = 7 * 60;

// ---- Pure parts ----

/** The ISO 8601 week of a date, e.g. 2026-W48 (the week's Thursday decides its year). */
export function isoWeekName(date: string): string {
  const thursday = addDays(mondayOnOrBefore(date), 3);
  const year = Number(thursday.slice(0, 4));
  const dayOfYear = (Date.UTC(year, Number(thursday.slice(5, 7)) - 1, Number(thursday.slice(8, 10))) - Date.UTC(year, 0, 1)) / 86_400_000;
  return `${year}-W${String(Math.floor(dayOfYear / 7) + 1).padStart(2, '0')}`;
}

export type ReportPeriod = {
  /** The Monday the report is sent on (school date) and its ISO week, the claim's name. */
  sendOn: string;
  week: string;
  /** The week reported on: the Monday–Sunday before sendOn, compared with the week before it. */
  thisWeek: { from: string; to: string };
  lastWeek: { from: string; to: string };
  /** The instants of thisWeek's start and of sendOn's start, for imports and exports. */
  since: Date;
  until: Date;
};

/** The report that covers the last complete school week as of `now`, and whether it is due (Monday 07:00 passed). */
export function reportPeriod(now: Date, timeZone: string): ReportPeriod & { due: boolean } {
  const sendOn = mondayOnOrBefore(localDate(now, timeZone));
  const thisWeek = { from: addDays(sendOn, -7), to: addDays(sendOn, -1) };
  return {
    sendOn,
    week: isoWeekName(sendOn),
    thisWeek,
    lastWeek: { from: addDays(sendOn, -14), to: addDays(sendOn, -8) },
    since: zonedInstant(thisWeek.from, 0, timeZone),
    until: zonedInstant(sendOn, 0, timeZone),
    due: now.getTime() >= zonedInstant(sendOn, SEND_AT_MINUTES, timeZone).getTime(),
  };
}

export type WeeklyFigures = {
  period: Pick<ReportPeriod, 'thisWeek' | 'lastWeek'>;
  courses: { courseCode: string; courseName: string; thisWeek: number | null; lastWeek: number | null }[];
  atRisk: { count: number; reasons: string[] };
  compliance: { watch: number; due: number; overdue: number; sapNotMet: number };
  imports: { status: string; uploads: number; created: number; updated: number }[];
  exports: { what: string; exports: number }[];
};

const rate = (v: number | null) => (v == null ? '—' : `${v}%`);
const change = (a: number | null, b: number | null) => {
  if (a == null || b == null) return '';
  const d = Math.round((a - b) * 10) / 10;
  return d > 0 ? `+${d}` : d < 0 ? `${d}` : '±0';
};
const MAX_REASONS = 10;

/** The e-mail (subject, plain text and HTML) for the figures; pure, so every figure is unit-tested. */
export function composeWeeklyReport(f: WeeklyFigures, links: { dashboard: string; unsubscribe: string }): { subject: string; text: string; html: string } {
  const { thisWeek, lastWeek } = f.period;
  const subject = `Muster weekly report: ${thisWeek.from} to ${thisWeek.to}`;
  const importTotal = f.imports.reduce((n, i) => n + i.uploads, 0);
  const exportTotal = f.exports.reduce((n, e) => n + e.exports, 0);
  const importLine = (i: WeeklyFigures['imports'][number]) => `${i.uploads} ${i.status} (${i.created} rows created, ${i.updated} updated)`;
  const reasons = f.atRisk.reasons.slice(0, MAX_REASONS);
  const more = f.atRisk.reasons.length - reasons.length;

  const text = [
    subject,
    '',
    `Attendance rate by course: this week (${thisWeek.from} to ${thisWeek.to}) against last week (${lastWeek.from} to ${lastWeek.to})`,
    ...(f.courses.length === 0
      ? ['  No active courses.']
      : f.courses.map((c) =>
          `  ${c.courseCode} ${c.courseName}: ${rate(c.thisWeek)} (last week ${rate(c.lastWeek)}) ${change(c.thisWeek, c.lastWeek)}`.trimEnd(),
        )),
    '',
    `Students at risk: ${f.atRisk.count}`,
    ...reasons.map((r) => `  - ${r}`),
    ...(more > 0 ? [`  … and ${more} more on the dashboard`] : []),
    '',
    'Compliance',
    `  Withdrawal watch: ${f.compliance.watch} watch, ${f.compliance.due} determination due, ${f.compliance.overdue} overdue`,
    `  SAP not met: ${f.compliance.sapNotMet}`,
    '',
    `Imports this week: ${importTotal}`,
    ...f.imports.map((i) => `  ${importLine(i)}`),
    `Exports this week: ${exportTotal}`,
    ...f.exports.map((e) => `  ${e.what}: ${e.exports}`),
    '',
    `Dashboard: ${links.dashboard}`,
    `Stop these e-mails: ${links.unsubscribe}`,
  ].join('\n');

  const e = escapeHtml;
  const th = 'style="text-align:left;padding:4px 8px;border-bottom:1px solid #ccc"';
  const td = 'style="padding:4px 8px"';
  const html = [
    `<h1 style="font-size:18px">${e(subject)}</h1>`,
    `<h2 style="font-size:15px">Attendance rate by course</h2>`,
    f.courses.length === 0
      ? '<p>No active courses.</p>'
      : [
          `<table style="border-collapse:collapse"><thead><tr><th ${th} scope="col">Course</th><th ${th} scope="col">This week</th><th ${th} scope="col">Last week</th><th ${th} scope="col">Change</th></tr></thead><tbody>`,
          ...f.courses.map(
            (c) =>
              `<tr><td ${td}>${e(c.courseCode)} ${e(c.courseName)}</td><td ${td}>${rate(c.thisWeek)}</td><td ${td}>${rate(c.lastWeek)}</td><td ${td}>${change(c.thisWeek, c.lastWeek)}</td></tr>`,
          ),
          '</tbody></table>',
        ].join('\n'),
    `<h2 style="font-size:15px">Students at risk: ${f.atRisk.count}</h2>`,
    reasons.length > 0 ? `<ul>${reasons.map((r) => `<li>${e(r)}</li>`).join('')}${more > 0 ? `<li>… and ${more} more on the dashboard</li>` : ''}</ul>` : '',
    '<h2 style="font-size:15px">Compliance</h2>',
    `<p>Withdrawal watch: ${f.compliance.watch} watch, ${f.compliance.due} determination due, ${f.compliance.overdue} overdue<br>SAP not met: ${f.compliance.sapNotMet}</p>`,
    '<h2 style="font-size:15px">Imports and exports</h2>',
    `<p>Imports this week: ${importTotal}${f.imports.map((i) => `<br>${e(importLine(i))}`).join('')}</p>`,
    `<p>Exports this week: ${exportTotal}${f.exports.map((x) => `<br>${e(x.what)}: ${x.exports}`).join('')}</p>`,
    `<p><a href="${e(links.dashboard)}">Open the dashboard</a></p>`,
    `<p style="font-size:12px;color:#555"><a href="${e(links.unsubscribe)}">Stop these e-mails</a></p>`,
  ].join('\n');
  return { subject, text, html };
}

// ---- With the database ----

/** Every figure of the report for a period, read from the dashboard, the attendance alerts, compliance, imports and the audit log. */
async function weeklyFigures(db: DbOrTx, period: ReportPeriod, clock: Clock): Promise<WeeklyFigures> {
  const asOf = period.thisWeek.to;
  const [courses, atRisk, overview, imports, exports] = await Promise.all([
    courseRatesByWeek(db, { lastWeekFrom: period.lastWeek.from, thisWeekFrom: period.thisWeek.from, thisWeekTo: period.thisWeek.to }),
    schoolStudentsAtRisk(db, asOf, clock.now()),
    complianceOverview(db, { asOf }, clock),
    selectImportCounts(db, period.since, period.until),
    selectExportCounts(db, period.since, period.until),
  ]);
  const { watch, due, overdue, sapNotMet } = overview.counts;
  return { period, courses, atRisk, compliance: { watch, due, overdue, sapNotMet }, imports, exports };
}

function reportEmail(deps: Pick<DigestDeps, 'config' | 'cipher'>, figures: WeeklyFigures, to: Recipient): EmailMessage {
  const links = {
    dashboard: `${publicBaseUrl(deps.config)}/`,
    unsubscribe: unsubscribeUrl(deps.config, deps.cipher, { userId: to.id, switch: 'weeklyReports' }),
  };
  return { kind: 'weekly_report', to: to.email, userId: to.id, unsubscribeUrl: links.unsubscribe, ...composeWeeklyReport(figures, links) };
}

/**
 * The scheduled job: once Monday 07:00 school time has passed, the first instance to claim the week
 * (installation_facts `weekly-report:<ISO week>`) queues the report to every active administrator
 * whose e-mail and weekly-report switches are on, in the claim's transaction. Returns how many were queued.
 */
export async function runWeeklyReport(deps: DigestDeps): Promise<number> {
  if (!emailConfigured(deps.config)) return 0;
  const now = deps.clock.now();
  const period = reportPeriod(now, (await getSettings(deps.db)).attendance.timeZone);
  if (!period.due) return 0;
  return deps.db.transaction(async (tx) => {
    if (!(await claimFact(tx, `weekly-report:${period.week}`, now.toISOString()))) return 0;
    const recipients = (await usersWantingEmail(tx, 'weeklyReports')).filter(receivesWeeklyReport);
    if (recipients.length === 0) return 0;
    const figures = await weeklyFigures(tx, period, deps.clock);
    await queueEmails(
      tx,
      recipients.map((r) => reportEmail(deps, figures, r)),
    );
    return recipients.length;
  });
}

/** "Send me a preview now": the last complete week's report, queued to the caller only. */
export async function queuePreview(deps: DigestDeps, me: Recipient): Promise<{ to: string }> {
  if (!emailConfigured(deps.config)) throw badRequest(EMAIL_NOT_CONFIGURED);
  const period = reportPeriod(deps.clock.now(), (await getSettings(deps.db)).attendance.timeZone);
  return deps.db.transaction(async (tx) => {
    await queueEmails(tx, [reportEmail(deps, await weeklyFigures(tx, period, deps.clock), me)]);
    return { to: me.email };
  });
}
