import type { UploadType } from '../../../common/constants.ts';
import { COURSE_LIST, importType } from '../../../common/import-columns.ts';
import type { ImportTypeDefinition } from '../../../common/import-column-rules.ts';
import type { UploadResult } from '../../../common/uploads.ts';
import type { Db, DbOrTx } from '../../db/client.ts';
import { analyzeTables, tableWriteCounts, tablesNeedingStatistics } from '../../db/planner-statistics.ts';
import type { Clock } from '../../lib/clock.ts';
import { pgError } from '../../lib/db-errors.ts';
import type { RowProblem } from '../../lib/errors.ts';
import type { FieldCipher } from '../../lib/field-cipher.ts';
import { localDate } from '../../lib/school-time.ts';
import { recordAudit } from '../audit-logs/service.ts';
import { getSettings } from '../settings/service.ts';
import { planCourseList, planCourses } from './courses-import.ts';
import { DateReading } from './dates.ts';
import type { ImportHandler, ImportPartsHandler, ImportPlan, PlanContext } from './handler.ts';
import { planInstructors } from './instructors-import.ts';
import { clip, Problems } from './problems.ts';
import { planPrograms } from './programs-import.ts';
import { lockImportType } from './queries.ts';
import { readImportFile, readImportFileInParts, UnreadableFile } from './read-file.ts';
import { planSchedules } from './schedules-import.ts';
import { Sheet, SheetLayout } from './sheet.ts';
import { studentsInParts } from './students-import.ts';
import { finishUpload, startUpload } from './upload-log.ts';
import { completeWizardStep } from './wizard.ts';

const HANDLERS: Record<UploadType, ImportHandler | ImportPartsHandler> = {
  programs: planPrograms,
  courses: planCourses,
  instructors: planInstructors,
  students: studentsInParts,
  schedules: planSchedules,
};

/** Data rows per part of a file read in parts: a few MB of cells at a time. */
const PART_ROWS = 5000;

export type ImportDeps = { db: Db; cipher: FieldCipher; clock: Clock; instanceId?: () => string | null };
type ImportRequest = {
  type: UploadType;
  fileName: string;
  buffer: Buffer;
  kind: 'csv' | 'xlsx' | 'xls';
  dryRun: boolean;
  actorId: number | null;
  ip: string | null;
  /** 'course-list': the courses screen's simpler course CSV (type courses), outside the wizard. */
  format?: 'template' | 'course-list';
};
/** A refused import: every problem (up to the answer's cap), the total, and the HTTP status to answer. */
type ImportOutcome =
  | { ok: true; result: UploadResult }
  | { ok: false; status: 400 | 409; code: string; message: string; errorCount: number; result: UploadResult; unreadable?: { code: string; message: string } };

/** An audit table name per upload type: instructors are users. */
const AUDIT_TABLE: Record<UploadType, string> = {
  programs: 'programs',
  courses: 'courses',
  instructors: 'users',
  students: 'students',
  schedules: 'schedules',
};

/** A database refusal during the write that validation could not foresee (a concurrent change). */
function writeProblem(err: unknown): { status: 400 | 409; message: string } | null {
  const e = pgError(err);
  if (!e.code) return null;
  if (e.code === '23505')
    return { status: 409, message: `A row conflicts with a record saved meanwhile (${e.constraint ?? 'unique'}); check the file and try again` };
  if (e.code === '23503') return { status: 409, message: `A referenced record was changed or removed meanwhile (${e.constraint ?? 'foreign key'}); try again` };
  if (e.code === '23514' || e.code === '23502') return { status: 400, message: `A value does not fit the stored record (${e.constraint ?? 'check'})` };
  if (e.code.startsWith('22')) return { status: 400, message: `A value could not be stored: ${clip((err as Error).message ?? '', 200)}` };
  return null;
}

/**
 * Import one file of a type, all or nothing. The whole file is checked first (every cell against
 * the column definitions, duplicates, foreign keys, other records' unique values) and every
 * problem is answered with its row and column; nothing is written unless every row is valid.
 * Then all rows are written in ONE transaction with bulk upserts keyed by the SIS id, the wizard
 * step is completed, and the upload and its audit entry are recorded in the same transaction.
 * A dry run stops after the checks and reports what would be created and updated.
 * Every upload, refused or not, is recorded in file_uploads. Never throws for bad input.
 */
export async function runImport(deps: ImportDeps, req: ImportRequest): Promise<ImportOutcome> {
  const courseList = req.format === 'course-list' && req.type === 'courses';
  const def = courseList ? COURSE_LIST : importType(req.type);
  const handler = courseList ? planCourseList : HANDLERS[req.type];
  const fileName = clip(req.fileName || 'upload.csv', 255) || 'upload.csv';
  const uploadId = await startUpload(deps.db, {
    type: req.type,
    fileName,
    fileSize: req.buffer.length,
    dryRun: req.dryRun,
    uploadedBy: req.actorId,
    ownerInstance: deps.instanceId?.() ?? null,
  });
  const problems = new Problems();
  const dates = new DateReading();
  const base = { type: req.type, fileName, rows: 0, created: 0, updated: 0, dryRun: req.dryRun, errors: [] as RowProblem[], uploadId, notes: [] as string[] };
  let refusal: { status: 400 | 409; message: string } | null = null;
  let unreadable: { code: string; message: string } | undefined;
  let counts: { created: number; updated: number } | null = null;
  let changedMuch: string[] = [];
  try {
    counts = await deps.db.transaction(async (tx) => {
      // One import of a type at a time, so the checks still hold when the rows are written.
      await lockImportType(tx, def.step);
      const writesBefore = await tableWriteCounts(tx);
      const settings = await getSettings(tx);
      const timeZone = settings.attendance.timeZone;
      const ctx = { tx, problems, timeZone, today: localDate(deps.clock.now(), timeZone), cipher: deps.cipher };
      const opts = { ignoreUnknownColumns: courseList, dates };
      const plan =
        'inParts' in handler
          ? await planInParts(handler, ctx, def, req, opts, (rows) => (base.rows = rows))
          : await planWhole(handler, ctx, def, req, opts, (rows) => (base.rows = rows));
      if (!plan || problems.any) return null;
      const result = { created: plan.created, updated: plan.updated };
      if (req.dryRun) return result;
      await plan.write(tx);
      changedMuch = await tablesNeedingStatistics(tx, writesBefore);
      // The courses screen's list is not a wizard step.
      const wizard = courseList ? null : await completeWizardStep(tx, def.step, req.actorId);
      await finishUpload(tx, uploadId, { status: 'completed', rows: base.rows, ...result, errorCount: 0, errors: [] });
      await auditUpload(tx, req, uploadId, {
        fileName,
        rows: base.rows,
        ...result,
        ...(wizard ? { wizardStep: def.step, currentStep: wizard.currentStep } : {}),
      });
      return result;
    });
  } catch (err) {
    if (err instanceof UnreadableFile) {
      problems.add(err.row, '', err.message);
      if (err.code) unreadable = { code: err.code, message: err.message };
    } else {
      refusal = writeProblem(err);
      if (!refusal) {
        await finishUpload(deps.db, uploadId, {
          status: 'failed',
          rows: base.rows,
          created: 0,
          updated: 0,
          errorCount: 1,
          errors: [{ row: 0, column: '', message: 'Internal error' }],
        }).catch(() => {});
        throw err;
      }
      problems.add(0, '', refusal.message);
    }
  }

  base.notes = dates.notes();
  // Before answering: the next check-in must be planned with these rows known (decision 055).
  await analyzeTables(deps.db, changedMuch).catch((err: Error) => process.emitWarning(`ANALYZE after an import failed: ${err.message}`));
  if (counts && !problems.any) {
    const result = { ...base, ...counts };
    if (req.dryRun) await record(deps.db, req, uploadId, 'validated', result, 0, []);
    return { ok: true, result };
  }
  const errors = problems.list();
  await record(deps.db, req, uploadId, 'failed', base, problems.count, errors);
  const message = refusal?.message ?? `Nothing was imported: ${problems.count} problem${problems.count === 1 ? '' : 's'} in the file`;
  return {
    ok: false,
    status: refusal?.status ?? 400,
    code: 'IMPORT_INVALID',
    message,
    errorCount: problems.count,
    result: { ...base, errors },
    ...(unreadable ? { unreadable } : {}),
  };
}

type Recorded = Pick<ImportRequest, 'type' | 'dryRun' | 'actorId' | 'ip'> & { buffer: { length: number } };

type PlanRequest = Pick<ImportRequest, 'buffer' | 'kind'>;
type SheetOptions = { ignoreUnknownColumns: boolean; dates: DateReading };

/** The whole file read, checked and planned at once (every type but students: their files are small). */
async function planWhole(
  handler: ImportHandler,
  ctx: Omit<PlanContext, 'sheet'>,
  def: ImportTypeDefinition,
  req: PlanRequest,
  opts: SheetOptions,
  counted: (rows: number) => void,
): Promise<ImportPlan | null> {
  const table = readImportFile(req.buffer, req.kind);
  counted(table.size);
  const sheet = Sheet.build(def, table, ctx.problems, opts, opts.dates);
  return sheet ? handler({ ...ctx, sheet }) : null;
}

/**
 * The file read a part at a time, each part checked and handed to the handler as it comes, so
 * memory holds one part's cells, not the file's. Once the header is wrong the rest is only counted.
 */
async function planInParts(
  handler: ImportPartsHandler,
  ctx: Omit<PlanContext, 'sheet'>,
  def: ImportTypeDefinition,
  req: PlanRequest,
  opts: SheetOptions,
  counted: (rows: number) => void,
): Promise<ImportPlan | null> {
  const { problems } = ctx;
  const planner = await handler.inParts(ctx);
  let layout: SheetLayout | null = null;
  let rows = 0;
  let refused = false;
  for await (const part of readImportFileInParts(req.buffer, req.kind, PART_ROWS)) {
    rows += part.size;
    if (refused) continue;
    const before = problems.count;
    const first = !layout;
    layout ??= SheetLayout.of(def, part.headers, part.headerRow, problems, opts);
    layout.flagHeaderlessCells(part, problems);
    // A wrong header is answered alone, as for a whole file (Sheet.build).
    if (first && problems.count > before) refused = true;
    else if (part.size === 0) problems.add(part.headerRow, '', 'The file has a header row but no data rows');
    else await planner.add(Sheet.parse(layout, part, problems, opts.dates));
  }
  counted(rows);
  return refused ? null : planner.finish();
}

/** The audit entry of an upload, in the transaction that records its outcome. */
async function auditUpload(tx: DbOrTx, req: Recorded, uploadId: number, values: { fileName: string; rows: number } & Record<string, unknown>) {
  const { fileName, rows, ...rest } = values;
  await recordAudit(tx, {
    userId: req.actorId,
    action: 'Upload',
    tableName: AUDIT_TABLE[req.type],
    recordId: uploadId,
    ipAddress: req.ip,
    newValues: { uploadType: req.type, fileName, fileSize: req.buffer.length, rows, ...rest },
  });
}

/** The record and audit entry of a dry run or a refused upload (nothing else was written). */
async function record(db: Db, req: Recorded, uploadId: number, status: 'validated' | 'failed', r: UploadResult, errorCount: number, errors: RowProblem[]) {
  await db.transaction(async (tx) => {
    await finishUpload(tx, uploadId, { status, rows: r.rows, created: r.created, updated: r.updated, errorCount, errors });
    await auditUpload(tx, req, uploadId, {
      fileName: r.fileName,
      rows: r.rows,
      status,
      dryRun: req.dryRun,
      created: r.created,
      updated: r.updated,
      errorCount,
    });
  });
}

/** Record an upload refused before its content was read (wrong type, too large): failed uploads are listed too. */
export async function recordRefusedUpload(
  db: Db,
  u: { type: UploadType; dryRun: boolean; actorId: number | null; ip: string | null; message: string },
): Promise<void> {
  const fileName = '(file refused)';
  const id = await startUpload(db, { type: u.type, fileName, fileSize: 0, dryRun: u.dryRun, uploadedBy: u.actorId });
  const r: UploadResult = { type: u.type, fileName, rows: 0, created: 0, updated: 0, dryRun: u.dryRun, errors: [], uploadId: id, notes: [] };
  await record(db, { ...u, buffer: { length: 0 } }, id, 'failed', r, 1, [{ row: 0, column: 'file', message: u.message }]);
}
