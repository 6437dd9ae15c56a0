import type { Readable } from 'node:stream';
import { ANALYTICS_EXPORT_COLUMNS, ATTENDANCE_EXPORT_COLUMNS } from '../../../common/exports.ts';
import type { Role } from '../../../common/roles.ts';
import type { Db, DbOrTx } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import { csvDownloadHeaders, csvFromRows, csvText } from '../../lib/csv.ts';
import { localDate, zonedIso } from '../../lib/school-time.ts';
import { asDate } from '../../lib/sql-values.ts';
import { recordAudit } from '../audit-logs/service.ts';
import { analytics, viewerContext } from '../dashboard/service.ts';
import { getSettings } from '../settings/service.ts';
import { listAttendanceExportBatch, markRecordsSynced, type ExportFilter } from './queries.ts';

/** Rows fetched per query: a million-row export never sits in memory. */
const EXPORT_BATCH = 5000;
/** Records marked synced per statement (one transaction for all of them). */
const MARK_CHUNK = 10_000;

export type { ExportFilter } from './queries.ts';

export type ExportCtx = { actorId: number; ip: string | null; clock: Clock };
type ExportRow = Record<(typeof ATTENDANCE_EXPORT_COLUMNS)[number], unknown>;

/**
 * The records of a file handed to the SIS that were waiting for it (pending or failed), with the
 * version of each as written; `finish` marks them synced once the last row is in the file.
 */
type Handover = { ids: number[]; versions: string[]; finish: () => Promise<void> };

/**
 * Attendance rows in id order, one keyset-paginated batch at a time (`id > last`), each batch a
 * short query of its own: no long transaction, no cursor held between batches.
 */
export async function* attendanceRows(db: DbOrTx, filter: ExportFilter, batch = EXPORT_BATCH, handover?: Handover): AsyncGenerator<ExportRow> {
  // Times as the school's clock read them (UTC was misread), with the offset that makes each one
  // instant: SPEC's column names stay, the value says its zone.
  const { timeZone } = (await getSettings(db)).attendance;
  const schoolTime = (v: Date | string | null) => (v == null ? null : zonedIso(asDate(v), timeZone));
  let last = 0;
  for (;;) {
    const rows = await listAttendanceExportBatch(db, filter, last, batch);
    for (const { id, version, scanInTime, scanOutTime, ...r } of rows) {
      if (handover && (r.syncStatus === 'pending' || r.syncStatus === 'failed')) {
        handover.ids.push(id);
        handover.versions.push(version);
      }
      yield { ...r, scanInTime: schoolTime(scanInTime), scanOutTime: schoolTime(scanOutTime) };
    }
    if (rows.length < batch) break;
    last = rows[rows.length - 1]!.id;
  }
  // Reached only when every row was produced: a download cancelled midway destroys the stream
  // (and this generator) first, and its records stay pending.
  await handover?.finish();
}

/**
 * The CSV as a stream: header row, then rows as the batches arrive (backpressure from the client).
 * Text cells that a spreadsheet would run as formulas are neutralised (lib/csv.ts).
 */
function attendanceCsvStream(db: DbOrTx, filter: ExportFilter, handover?: Handover): Readable {
  // A client that goes away stops the reading (lib/csv.ts), so nothing is marked.
  return csvFromRows(ATTENDANCE_EXPORT_COLUMNS, attendanceRows(db, filter, EXPORT_BATCH, handover));
}

async function attendanceFileName(db: DbOrTx, clock: Clock): Promise<string> {
  const { timeZone } = (await getSettings(db)).attendance;
  return `attendance_export_${localDate(clock.now(), timeZone)}.csv`;
}

/**
 * The attendance export: audited as it starts (so an aborted download is still on record), named
 * attendance_export_{school-local date}.csv, and streamed batch by batch. Reading it changes nothing.
 */
export async function exportAttendance(
  db: DbOrTx,
  filter: ExportFilter,
  ctx: ExportCtx,
): Promise<{ fileName: string; headers: Record<string, string>; stream: Readable }> {
  const fileName = await attendanceFileName(db, ctx.clock);
  await recordAudit(db, { userId: ctx.actorId, action: 'Export', tableName: 'attendance', ipAddress: ctx.ip, newValues: { ...filter, fileName } });
  return { fileName, headers: csvDownloadHeaders(fileName), stream: attendanceCsvStream(db, filter) };
}

/**
 * The attendance export handed to the SIS (decision 032): the same file, and once its last row is
 * written, the records in it that were waiting for the SIS become `synced` in one transaction with
 * its audit entry, so the dashboard's Pending Sync drops. A record changed later is pending again
 * (a trigger, migration 0018). `onMarked` runs in that transaction (the SIS module records the
 * exchange's time there).
 */
export async function exportAttendanceForSis(
  db: Db,
  filter: ExportFilter,
  ctx: ExportCtx,
  onMarked: (tx: DbOrTx, marked: number) => Promise<void> = async () => {},
): Promise<{ fileName: string; headers: Record<string, string>; stream: Readable }> {
  const fileName = await attendanceFileName(db, ctx.clock);
  await recordAudit(db, {
    userId: ctx.actorId,
    action: 'Export',
    tableName: 'attendance',
    ipAddress: ctx.ip,
    newValues: { ...filter, fileName, forSis: true },
  });
  const handover: Handover = {
    ids: [],
    versions: [],
    finish: () =>
      db.transaction(async (tx) => {
        let marked = 0;
        for (let i = 0; i < handover.ids.length; i += MARK_CHUNK) {
          marked += await markRecordsSynced(tx, { ids: handover.ids.slice(i, i + MARK_CHUNK), versions: handover.versions.slice(i, i + MARK_CHUNK) });
        }
        await recordAudit(tx, {
          userId: ctx.actorId,
          action: 'Update',
          tableName: 'attendance',
          ipAddress: ctx.ip,
          newValues: { syncStatus: 'synced', records: marked, fileName, ...filter },
        });
        await onMarked(tx, marked);
      }),
  };
  return { fileName, headers: csvDownloadHeaders(fileName), stream: attendanceCsvStream(db, filter, handover) };
}

type AnalyticsCtx = { db: DbOrTx; user: { id: number; role: Role }; now: Date; ip: string | null };
type AnalyticsRow = Partial<Record<(typeof ANALYTICS_EXPORT_COLUMNS)[number], string | number | null>>;

/**
 * The dashboard's Analytics tab as a CSV (decision 032): the figures the viewer sees (an
 * instructor their own classes), one row per figure, written by the one CSV writer (formula-safe).
 */
export async function exportAnalytics(ctx: AnalyticsCtx): Promise<{ fileName: string; headers: Record<string, string>; body: string }> {
  const { db, user, now } = ctx;
  const data = await analytics(viewerContext(db, user, now));
  const rows: AnalyticsRow[] = [
    ...data.performanceMetrics.map((m) => ({
      section: 'Key Performance Indicators',
      item: m.metric,
      value: m.current,
      unit: m.unit,
      target: m.target,
      trend: m.trend,
    })),
    ...data.attendanceTrends.map((d) => ({
      section: 'Attendance Trends',
      date: d.date,
      value: d.attendanceRate,
      unit: '%',
      present: d.presentStudents,
      total: d.totalStudents,
    })),
    ...data.courseAnalytics.map((c) => ({
      section: 'Course Performance',
      item: c.courseName,
      code: c.courseCode,
      value: c.avgAttendanceRate,
      unit: '%',
      trend: c.trend,
      riskLevel: c.riskLevel,
      sessions: c.totalSessions,
    })),
    { section: 'User Activity', item: 'Daily logins', value: data.userActivity.dailyLogins, unit: 'sign-ins' },
    { section: 'User Activity', item: 'Average session', value: data.userActivity.avgSessionDuration, unit: 'minutes' },
    ...data.userActivity.topActiveUsers.map((u) => ({ section: 'Most Active Users', item: u.name, value: u.sessions, unit: 'sessions' })),
  ];
  const { timeZone } = (await getSettings(db)).attendance;
  const fileName = `analytics_export_${localDate(now, timeZone)}.csv`;
  await recordAudit(db, {
    userId: user.id,
    action: 'Export',
    tableName: 'analytics',
    ipAddress: ctx.ip,
    newValues: { fileName, generatedAt: data.generatedAt },
  });
  const body = csvText([ANALYTICS_EXPORT_COLUMNS, ...rows.map((r) => ANALYTICS_EXPORT_COLUMNS.map((c) => r[c] ?? null))], { bom: true });
  return { fileName, headers: csvDownloadHeaders(fileName), body };
}
