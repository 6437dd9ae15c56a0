import { UPLOAD_TYPES, type UploadType } from '../../../common/constants.ts';
import { describeImportColumns as describeColumns, importType, isUploadType } from '../../../common/import-columns.ts';
import type { ImportColumnsResponse, UploadResult } from '../../../common/uploads.ts';
import type { Db, DbOrTx } from '../../db/client.ts';
import { AppError, badRequest } from '../../lib/errors.ts';
import type { UploadedFile } from '../../lib/upload.ts';
import { getSettings } from '../settings/service.ts';
import { recordRefusedUpload, runImport, type ImportDeps } from './engine.ts';
import { lockImportType } from './queries.ts';

// The imports module's one door: its routes, other modules and the jobs come through here.
export { runImport, type ImportDeps } from './engine.ts';
export { templateCsv } from './templates.ts';
export { getUpload, listUploads, recoverInterruptedUploads, sweepInterruptedUploads } from './upload-log.ts';
export { getWizard, resetWizard, setWizardStep } from './wizard.ts';
// Retention (server/jobs/retention.ts) removes old upload records through their owner.
export { deleteUploadsBefore } from './queries.ts';

type Actor = { actorId: number; ip: string | null };

/** The school's upload size limit (Settings > System), in MB. */
export async function uploadLimitMB(db: Db): Promise<number> {
  return (await getSettings(db)).system.maxFileUploadSizeMB;
}

/**
 * A file refused before its content was read (wrong type, too large) is listed with the uploads
 * when the caller said what it holds; the refusal is then answered as it was.
 */
export async function refuseUpload(db: Db, err: unknown, u: Actor & { type: UploadType | undefined; dryRun: boolean }): Promise<never> {
  if (u.type && err instanceof AppError && (err.code === 'INVALID_FILE_TYPE' || err.code === 'FILE_TOO_LARGE')) {
    await recordRefusedUpload(db, { type: u.type, dryRun: u.dryRun, actorId: u.actorId, ip: u.ip, message: err.message });
  }
  throw err;
}

/** Import an uploaded file of a type (given in the path, the query or a form field): the result, or every problem as IMPORT_INVALID. */
export async function importUpload(deps: ImportDeps, file: UploadedFile, u: Actor & { type: UploadType | undefined; dryRun: boolean }): Promise<UploadResult> {
  const type = u.type ?? file.fields.type;
  if (!type || !isUploadType(type))
    throw badRequest(`Say what the file holds: type must be one of ${UPLOAD_TYPES.join(', ')}`, [{ field: 'type', message: 'Unknown upload type' }]);
  const outcome = await runImport(deps, {
    type,
    fileName: file.fileName,
    buffer: file.buffer,
    kind: file.kind,
    dryRun: u.dryRun,
    actorId: u.actorId,
    ip: u.ip,
  });
  if (!outcome.ok) throw new AppError(outcome.status, outcome.code, outcome.message, { ...outcome.result, errorCount: outcome.errorCount });
  return outcome.result;
}

/** What the CSV Templates tab shows: every type's columns, rules and the file rules. */
export function describeImportColumns(): ImportColumnsResponse {
  return describeColumns();
}

/**
 * Serialises changes to the course prerequisite graph with course imports (the lock every import
 * of courses holds), so a course edit and an import cannot close a cycle together.
 */
export async function lockCourseImports(tx: DbOrTx): Promise<void> {
  await lockImportType(tx, importType('courses').step);
}
