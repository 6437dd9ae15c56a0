import type { UploadType } from '../../../common/constants.ts';
import type { FileUpload } from '../../../common/uploads.ts';
import type { Db, DbOrTx } from '../../db/client.ts';
import { joinInstances, liveInstanceIds, type Presence } from '../../lib/instance-presence.ts';
import type { RowProblem } from '../../lib/errors.ts';
import { notFound } from '../../lib/errors.ts';
import { isoOrNull } from '../../lib/sql-values.ts';
import { failProcessingUploads, insertUpload, selectUpload, selectUploads, updateUploadResult, type UploadListRow } from './queries.ts';

/** Problems kept with an upload's record (the answer to the upload lists more). */
const STORED_PROBLEMS = 200;

type UploadStatus = 'processing' | 'completed' | 'failed' | 'validated';

/** Record an upload as it starts, so a long import shows as processing to other admins. */
export async function startUpload(
  db: DbOrTx,
  u: { type: UploadType; fileName: string; fileSize: number; dryRun: boolean; uploadedBy: number | null; ownerInstance?: string | null },
): Promise<number> {
  return insertUpload(db, {
    uploadType: u.type,
    fileName: u.fileName,
    fileSize: u.fileSize,
    status: 'processing',
    dryRun: u.dryRun,
    uploadedBy: u.uploadedBy,
    ownerInstance: u.ownerInstance ?? null,
  });
}

export async function finishUpload(
  db: DbOrTx,
  id: number,
  r: { status: UploadStatus; rows: number; created: number; updated: number; errorCount: number; errors: readonly RowProblem[] },
): Promise<void> {
  await updateUploadResult(db, id, {
    status: r.status,
    rowCount: r.rows,
    createdCount: r.created,
    updatedCount: r.updated,
    errorCount: r.errorCount,
    errors: r.errors.length > 0 ? r.errors.slice(0, STORED_PROBLEMS) : null,
  });
}

// The type column holds one of UPLOAD_TYPES (a check constraint in the schema).
const toUpload = (r: UploadListRow): FileUpload => ({
  id: r.id,
  type: r.uploadType as UploadType,
  fileName: r.fileName,
  fileSize: r.fileSize,
  rows: r.rowCount,
  created: r.createdCount,
  updated: r.updatedCount,
  errorCount: r.errorCount,
  status: r.status,
  dryRun: r.dryRun,
  uploadedBy: r.uploadedBy,
  uploadedByName: r.uploader,
  createdAt: isoOrNull(r.createdAt)!,
  completedAt: isoOrNull(r.completedAt),
});

/** Newest first, with who uploaded. */
export async function listUploads(db: DbOrTx, limit: number): Promise<FileUpload[]> {
  return (await selectUploads(db, limit)).map(toUpload);
}

export async function getUpload(db: DbOrTx, id: number): Promise<FileUpload & { errors: RowProblem[] }> {
  const row = await selectUpload(db, id);
  if (!row) throw notFound('Upload');
  return { ...toUpload(row), errors: (row.errors as RowProblem[] | null) ?? [] };
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
async function failInterruptedUploads(db: DbOrTx, liveInstances: readonly string[], otherInstances: number): Promise<number[]> {
  return failProcessingUploads(db, liveInstances, otherInstances === 0 ? 0 : MAX_IMPORT_MINUTES, { row: 0, column: '', message: INTERRUPTED_IMPORT });
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
