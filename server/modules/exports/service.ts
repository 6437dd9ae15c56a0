import { Readable } from 'node:stream';
import { ATTENDANCE_EXPORT_COLUMNS } from '../../../common/import-columns.ts';
import type { DbOrTx } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import { csvDownloadHeaders, csvStream } from '../../lib/csv.ts';
import { localDate } from '../../lib/school-time.ts';
import { isoOrNull } from '../../lib/sql-values.ts';
import { recordAudit } from '../audit-logs/service.ts';
import { getSettings } from '../settings/service.ts';
import { listAttendanceExportBatch, type ExportRange } from './queries.ts';

/** Rows fetched per query: a million-row export never sits in memory. */
const EXPORT_BATCH = 5000;

export type { ExportRange } from './queries.ts';

/**
 * Attendance rows in id order, one keyset-paginated batch at a time (`id > last`), each batch a
 * short query of its own: no long transaction, no cursor held between batches.
 */
export async function* attendanceRows(db: DbOrTx, range: ExportRange, batch = EXPORT_BATCH): AsyncGenerator<Record<(typeof ATTENDANCE_EXPORT_COLUMNS)[number], unknown>> {
  let last = 0;
  for (;;) {
    const rows = await listAttendanceExportBatch(db, range, last, batch);
    for (const { id: _id, scanInTime, scanOutTime, ...r } of rows) {
      yield { ...r, scanInTime: isoOrNull(scanInTime), scanOutTime: isoOrNull(scanOutTime) };
    }
    if (rows.length < batch) return;
    last = rows[rows.length - 1]!.id;
  }
}

/**
 * The CSV as a stream: header row, then rows as the batches arrive (backpressure from the client).
 * Text cells that a spreadsheet would run as formulas are neutralised (lib/csv.ts).
 */
function attendanceCsvStream(db: DbOrTx, range: ExportRange, batch = EXPORT_BATCH): Readable {
  const csv = csvStream(ATTENDANCE_EXPORT_COLUMNS);
  const source = Readable.from(attendanceRows(db, range, batch));
  source.on('error', (err) => csv.destroy(err));
  return source.pipe(csv);
}

/**
 * The attendance export: audited as it starts (so an aborted download is still on record), named
 * attendance_export_{school-local date}.csv, and streamed batch by batch.
 */
export async function exportAttendance(db: DbOrTx, range: ExportRange, ctx: { actorId: number; ip: string | null; clock: Clock }): Promise<{ fileName: string; headers: Record<string, string>; stream: Readable }> {
  const { timeZone } = (await getSettings(db)).attendance;
  const fileName = `attendance_export_${localDate(ctx.clock.now(), timeZone)}.csv`;
  await recordAudit(db, { userId: ctx.actorId, action: 'Export', tableName: 'attendance', ipAddress: ctx.ip, newValues: { ...range, fileName } });
  return { fileName, headers: csvDownloadHeaders(fileName), stream: attendanceCsvStream(db, range) };
}
