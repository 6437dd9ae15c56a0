import { and, eq, gte, lt, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { auditLogs, fileUploads, installationFacts } from '../../db/schema/index.ts';

/** Claims a fact by name; true only for the one caller (across instances) that inserted it. */
export async function claimFact(db: DbOrTx, name: string, value: string): Promise<boolean> {
  const rows = await db.insert(installationFacts).values({ name, value }).onConflictDoNothing().returning({ name: installationFacts.name });
  return rows.length === 1;
}

/** Imports that ran (not dry runs) in [from, to): per status, with the rows they created and updated. */
export async function selectImportCounts(db: DbOrTx, from: Date, to: Date): Promise<{ status: string; uploads: number; created: number; updated: number }[]> {
  return db
    .select({
      status: fileUploads.status,
      uploads: sql<number>`count(*)::int`,
      created: sql<number>`coalesce(sum(${fileUploads.createdCount}), 0)::int`,
      updated: sql<number>`coalesce(sum(${fileUploads.updatedCount}), 0)::int`,
    })
    .from(fileUploads)
    .where(and(eq(fileUploads.dryRun, false), gte(fileUploads.createdAt, from), lt(fileUploads.createdAt, to)))
    .groupBy(fileUploads.status)
    .orderBy(fileUploads.status);
}

/** Audited exports in [from, to), per what was exported. */
export async function selectExportCounts(db: DbOrTx, from: Date, to: Date): Promise<{ what: string; exports: number }[]> {
  return db
    .select({ what: auditLogs.tableName, exports: sql<number>`count(*)::int` })
    .from(auditLogs)
    .where(and(eq(auditLogs.action, 'Export'), gte(auditLogs.timestamp, from), lt(auditLogs.timestamp, to)))
    .groupBy(auditLogs.tableName)
    .orderBy(auditLogs.tableName);
}
