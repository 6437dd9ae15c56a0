import { SIS_TABLES, type SisStatus } from '../../../common/sis.ts';
import type { Db, DbOrTx } from '../../db/client.ts';
import { isoOrNull } from '../../lib/sql-values.ts';
import { exportAttendanceForSis, type ExportCtx, type ExportFilter } from '../exports/service.ts';
import { countSyncStatuses, recordSisExport } from './queries.ts';

/** Sync status counts (pending, synced, failed, manual) per table, read from the database. */
export async function sisStatus(db: DbOrTx): Promise<SisStatus> {
  const tables: SisStatus['tables'] = [];
  for (const table of SIS_TABLES) {
    const r = await countSyncStatuses(db, table);
    tables.push({ table, pending: r.pending, synced: r.synced, failed: r.failed, manual: r.manual, total: r.total, lastSyncDate: isoOrNull(r.lastSyncDate) });
  }
  const sum = (k: 'pending' | 'synced' | 'failed' | 'manual' | 'total') => tables.reduce((n, t) => n + t[k], 0);
  return { tables, totals: { pending: sum('pending'), synced: sum('synced'), failed: sum('failed'), manual: sum('manual'), total: sum('total') } };
}

/**
 * An SIS exchange: the attendance export, after which the records it carried are synced
 * (decision 032). The file and the mark are the exports module's; the time of the exchange, kept in
 * the same transaction, is attendance's "Last SIS sync".
 */
export function exportAttendanceToSis(db: Db, filter: ExportFilter, ctx: ExportCtx) {
  return exportAttendanceForSis(db, filter, ctx, (tx, marked) => recordSisExport(tx, { table: 'attendance', at: ctx.clock.now(), records: marked }));
}
