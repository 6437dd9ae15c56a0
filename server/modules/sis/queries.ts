import { count, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { SYNC_STATUSES } from '../../../common/constants.ts';
import type { SIS_TABLES } from '../../../common/import-columns.ts';
import type { DbOrTx } from '../../db/client.ts';
import { attendanceRecords, courses, instructorProfiles, programs, schedules, students } from '../../db/schema/index.ts';

type SisTable = (typeof SIS_TABLES)[number];
type SyncStatus = (typeof SYNC_STATUSES)[number];
type Source = { table: PgTable; syncStatus: PgColumn; lastSyncDate: PgColumn | null };

/** Where each SIS table's sync state is stored; attendance records have no last sync date. */
const SOURCES: Record<SisTable, Source> = {
  programs: { table: programs, syncStatus: programs.syncStatus, lastSyncDate: programs.lastSyncDate },
  courses: { table: courses, syncStatus: courses.syncStatus, lastSyncDate: courses.lastSyncDate },
  instructors: { table: instructorProfiles, syncStatus: instructorProfiles.syncStatus, lastSyncDate: instructorProfiles.lastSyncDate },
  students: { table: students, syncStatus: students.syncStatus, lastSyncDate: students.lastSyncDate },
  schedules: { table: schedules, syncStatus: schedules.syncStatus, lastSyncDate: schedules.lastSyncDate },
  attendance: { table: attendanceRecords, syncStatus: attendanceRecords.syncStatus, lastSyncDate: null },
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
      lastSyncDate: s.lastSyncDate ? sql<string | null>`max(${s.lastSyncDate})` : sql<null>`null`,
    })
    .from(s.table);
  return row!;
}
