import { sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { SYNC_STATUSES } from '../../../common/constants.ts';
import { SIS_TABLES, sisStatusSchema, type SisStatus } from '../../../common/import-columns.ts';
import type { AppDeps } from '../../app-deps.ts';
import type { DbOrTx } from '../../db/client.ts';
import { isoOrNull } from '../../lib/sql-values.ts';

type Table = (typeof SIS_TABLES)[number];
const SOURCES: Record<Table, { from: string; lastSync: string }> = {
  programs: { from: 'programs', lastSync: 'max(last_sync_date)' },
  courses: { from: 'courses', lastSync: 'max(last_sync_date)' },
  instructors: { from: 'instructor_profiles', lastSync: 'max(last_sync_date)' },
  students: { from: 'students', lastSync: 'max(last_sync_date)' },
  schedules: { from: 'schedules', lastSync: 'max(last_sync_date)' },
  attendance: { from: 'attendance_records', lastSync: 'null::timestamptz' },
};

/** Sync status counts (pending, synced, failed, manual) per table, read from the database. */
export async function sisStatus(db: DbOrTx): Promise<SisStatus> {
  const parts = SIS_TABLES.map(
    (t) => sql`select ${t}::text as t, ${sql.raw(SOURCES[t].lastSync)} as last_sync,
      ${sql.join(SYNC_STATUSES.map((s) => sql`count(*) filter (where sync_status = ${s})::int as ${sql.raw(s)}`), sql`, `)}, count(*)::int as total
      from ${sql.raw(SOURCES[t].from)}`,
  );
  const { rows } = await db.execute<{ t: Table; last_sync: string | null; pending: number; synced: number; failed: number; manual: number; total: number }>(
    sql.join(parts, sql` union all `),
  );
  const tables = SIS_TABLES.map((t) => {
    const r = rows.find((x) => x.t === t)!;
    return { table: t, pending: r.pending, synced: r.synced, failed: r.failed, manual: r.manual, total: r.total, lastSyncDate: isoOrNull(r.last_sync) };
  });
  const sum = (k: 'pending' | 'synced' | 'failed' | 'manual' | 'total') => tables.reduce((n, t) => n + t[k], 0);
  return { tables, totals: { pending: sum('pending'), synced: sum('synced'), failed: sum('failed'), manual: sum('manual'), total: sum('total') } };
}

export function sisRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    app.get('/api/sis/status', { config: { action: 'data:manage' }, schema: { response: { 200: sisStatusSchema } } }, async () => sisStatus(deps.db));
  };
}
