import { count, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { SYNC_STATUSES } from '../../../common/constants.ts';
import type { SIS_TABLES } from '../../../common/sis.ts';
import type { DbOrTx } from '../../db/client.ts';
import { attendanceRecords, courses, instructorProfiles, programs, schedules, sisExports, students } from '../../db/schema/index.ts';

type SisTable = (typeof SIS_TABLES)[number];
type SyncStatus = (typeof SYNC_STATUSES)[number];
type Source = { table: PgTable; syncStatus: PgColumn; lastSyncDate: PgColumn | null; lastExport?: true };

/** Where each SIS table's sync state is stored; attendance's last sync is its last SIS export (sis_exports). */
const SOURCES: Record<SisTable, Source> = {
  programs: { table: programs, syncStatus: programs.syncStatus, lastSyncDate: programs.lastSyncDate },
  courses: { table: courses, syncStatus: courses.syncStatus, lastSyncDate: courses.lastSyncDate },
  instructors: { table: instructorProfiles, syncStatus: instructorProfiles.syncStatus, lastSyncDate: instructorProfiles.lastSyncDate },
  students: { table: students, syncStatus: students.syncStatus, lastSyncDate: students.lastSyncDate },
  schedules: { table: schedules, syncStatus: schedules.syncStatus, lastSyncDate: schedules.lastSyncDate },
  attendance: { table: attendanceRecords, syncStatus: attendanceRecords.syncStatus, lastSyncDate: null, lastExport: true },
};

const statusCount = (column: PgColumn, status: SyncStatus) => sql<number>`count(*) filter (where ${column} = ${status})`.mapWith(Number);

/** Sync status counts of one table (an aggregate) and its latest sync date. */
export async function countSyncStatuses(db: DbOrTx, table: SisTable) {
  const s = SOURCES[table];
  const [row] = await db
    .select({
      pending: statusCount(s.syncStatus, 'pending'),
      synced: statusCount(s.syncStatus, 'synced'),
      failed: statusCount(s.syncStatus, 'failed'),
      manual: statusCount(s.syncStatus, 'manual'),
      total: count(),
      lastSyncDate: s.lastSyncDate
        ? sql<string | null>`max(${s.lastSyncDate})`
        : s.lastExport
          ? sql<string | null>`(select ${sisExports.lastExportedAt} from ${sisExports} where ${sisExports.tableName} = ${table})`
          : sql<null>`null`,
    })
    .from(s.table);
  return row!;
}

/** The SIS has just been handed `table`'s file: its last sync time (in the transaction that marked the records). */
export async function recordSisExport(tx: DbOrTx, e: { table: SisTable; at: Date; records: number }): Promise<void> {
  await tx
    .insert(sisExports)
    .values({ tableName: e.table, lastExportedAt: e.at, records: e.records })
    .onConflictDoUpdate({ target: sisExports.tableName, set: { lastExportedAt: e.at, records: e.records } });
}
