import { and, eq, isNotNull, isNull, lt, notInArray, or, sql } from 'drizzle-orm';
import type { UploadType } from '../../../common/constants.ts';
import type { FileUpload } from '../../../common/import-columns.ts';
import type { Db, DbOrTx } from '../../db/client.ts';
import { fileUploads } from '../../db/schema/uploads.ts';
import { joinInstances, liveInstanceIds, type Presence } from '../../lib/instance-presence.ts';
import type { RowProblem } from '../../lib/errors.ts';
import { notFound } from '../../lib/errors.ts';
import { isoOrNull } from '../../lib/sql-values.ts';

/** Problems kept with an upload's record (the answer to the upload lists more). */
export const STORED_PROBLEMS = 200;

export type UploadStatus = 'processing' | 'completed' | 'failed' | 'validated';

/** Record an upload as it starts, so a long import shows as processing to other admins. */
export async function startUpload(
  db: DbOrTx,
  u: { type: UploadType; fileName: string; fileSize: number; dryRun: boolean; uploadedBy: number | null; ownerInstance?: string | null },
): Promise<number> {
  const [row] = await db
    .insert(fileUploads)
    .values({ uploadType: u.type, fileName: u.fileName, fileSize: u.fileSize, status: 'processing', dryRun: u.dryRun, uploadedBy: u.uploadedBy, ownerInstance: u.ownerInstance ?? null })
    .returning({ id: fileUploads.id });
  return row!.id;
}

export async function finishUpload(
  db: DbOrTx,
  id: number,
  r: { status: UploadStatus; rows: number; created: number; updated: number; errorCount: number; errors: readonly RowProblem[] },
): Promise<void> {
  const errors = r.errors.length > 0 ? JSON.stringify(r.errors.slice(0, STORED_PROBLEMS)) : null;
  await db.execute(sql`
    update file_uploads set status = ${r.status}, row_count = ${r.rows}, created_count = ${r.created}, updated_count = ${r.updated},
           error_count = ${r.errorCount}, errors = ${errors}::jsonb, completed_at = now()
     where id = ${id}`);
}

type Row = {
  id: number;
  upload_type: UploadType;
  file_name: string;
  file_size: number;
  row_count: number;
  created_count: number;
  updated_count: number;
  error_count: number;
  status: string;
  dry_run: boolean;
  uploaded_by: number | null;
  uploader: string | null;
  created_at: string;
  completed_at: string | null;
  errors?: RowProblem[] | null;
};

const toUpload = (r: Row): FileUpload => ({
  id: r.id,
  type: r.upload_type,
  fileName: r.file_name,
  fileSize: r.file_size,
  rows: r.row_count,
  created: r.created_count,
  updated: r.updated_count,
  errorCount: r.error_count,
  status: r.status,
  dryRun: r.dry_run,
  uploadedBy: r.uploaded_by,
  uploadedByName: r.uploader,
  createdAt: isoOrNull(r.created_at)!,
  completedAt: isoOrNull(r.completed_at),
});

const SELECT = sql`
  select f.id, f.upload_type, f.file_name, f.file_size, f.row_count, f.created_count, f.updated_count, f.error_count, f.status,
         f.dry_run, f.uploaded_by, coalesce(nullif(trim(u.first_name || ' ' || u.last_name), ''), u.email) as uploader,
         f.created_at, f.completed_at
    from file_uploads f left join users u on u.id = f.uploaded_by`;

/** Newest first, with who uploaded. */
export async function listUploads(db: DbOrTx, limit: number): Promise<FileUpload[]> {
  const { rows } = await db.execute<Row>(sql`${SELECT} order by f.created_at desc, f.id desc limit ${limit}`);
  return rows.map(toUpload);
}

export async function getUpload(db: DbOrTx, id: number): Promise<FileUpload & { errors: RowProblem[] }> {
  const { rows } = await db.execute<Row>(sql`
    select x.*, f.errors from (${SELECT} where f.id = ${id}) x join file_uploads f on f.id = x.id`);
  if (!rows[0]) throw notFound('Upload');
  return { ...toUpload(rows[0]), errors: rows[0].errors ?? [] };
}

/**
 * How long the longest running import can take, with margin: 100,000 students import in 9–15 s
 * (docs/decisions/005), files are capped at 10 MB and a row limit, and imports of one type wait
 * for each other. An upload still `processing` after this long has no import behind it.
 */
export const MAX_IMPORT_MINUTES = 60;
export const INTERRUPTED_IMPORT = 'The import was interrupted: the server stopped while it ran, and nothing was imported. Upload the file again.';

/**
 * Mark uploads left `processing` by an import that can no longer finish as failed, with a message
 * that says so. An import writes everything, its upload record included, in one transaction, so a
 * `processing` record whose import stopped has nothing imported behind it.
 *
 * Each import records the instance running it (`owner_instance`, its presence identity). A record
 * whose owner is not among the live instances (`liveInstances`, read from PostgreSQL's own lock
 * table) has no import behind it, however recent: it is failed at once. A record without an owner
 * (made before owners were recorded, or by a process outside the presence scheme) is failed only
 * when no other instance runs (`otherInstances` 0) or it is older than MAX_IMPORT_MINUTES. Even a
 * wrong call heals itself: a live import overwrites its record's status when it ends.
 */
export async function failInterruptedUploads(db: DbOrTx, liveInstances: readonly string[], otherInstances: number): Promise<number[]> {
  const cutoff = otherInstances === 0 ? sql`now()` : sql`now() - make_interval(mins => ${MAX_IMPORT_MINUTES})`;
  const ownerGone = liveInstances.length > 0 ? notInArray(fileUploads.ownerInstance, [...liveInstances]) : sql`true`;
  const failed = await db
    .update(fileUploads)
    .set({ status: 'failed', errorCount: 1, errors: [{ row: 0, column: '', message: INTERRUPTED_IMPORT }] satisfies RowProblem[], completedAt: sql`now()` })
    .where(
      and(
        eq(fileUploads.status, 'processing'),
        or(and(isNotNull(fileUploads.ownerInstance), ownerGone), and(isNull(fileUploads.ownerInstance), lt(fileUploads.createdAt, cutoff))),
      ),
    )
    .returning({ id: fileUploads.id });
  return failed.map((r) => r.id);
}

/**
 * At start: join the running instances (lib/instance-presence.ts) and fail the uploads whose
 * import was interrupted. Returns the presence, to leave on shutdown.
 */
export async function recoverInterruptedUploads(database: { db: Db; url: string }, log: (m: string) => void): Promise<Presence> {
  const presence = await joinInstances(database.url);
  const failed = await failInterruptedUploads(database.db, await liveInstanceIds(database.db), presence.others);
  if (failed.length > 0) log(`${failed.length} interrupted import(s) marked failed (uploads ${failed.join(', ')})`);
  return presence;
}

/** The periodic sweep (jobs/scheduler.ts): an instance that died mid-import is noticed within a minute. */
export async function sweepInterruptedUploads(db: Db): Promise<number[]> {
  const live = await liveInstanceIds(db);
  // Without the presence scheme (tests, a CLI) there is nobody to compare with: leave ownerless records alone.
  return failInterruptedUploads(db, live, Math.max(1, live.length));
}
