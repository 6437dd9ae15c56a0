import type { z } from 'zod';
import {
  COURSE_SELF_PREREQUISITE,
  courseHoursProblem,
  courseHoursWarning,
  type Course,
  type courseInputSchema,
  type CourseSaved,
} from '../../../common/courses.ts';
import { COURSE_LIST_COLUMNS } from '../../../common/import-columns.ts';
import { normaliseHeader } from '../../../common/import-column-rules.ts';
import type { Db, DbOrTx } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import { csvDownloadHeaders, csvStream } from '../../lib/csv.ts';
import { withUniqueFields } from '../../lib/db-errors.ts';
import { AppError, badRequest, notFound, type RowProblem } from '../../lib/errors.ts';
import type { UploadedFile } from '../../lib/upload.ts';
import { changedFields, recordAudit } from '../audit-logs/service.ts';
import { lockCourseImports, refuseUpload, runImport, type ImportDeps } from '../imports/service.ts';
import { findProgramName, listProgramNames } from '../programs/service.ts';
import {
  insertCourse,
  lockCourse,
  replacePrerequisiteRows,
  selectCourse,
  selectCourses,
  selectCycleCode,
  selectExistingCourseIds,
  toggleCourseActive,
  updateCourseRow,
  type CourseValues,
  type CourseWithPrerequisites,
} from './queries.ts';

type Input = z.output<typeof courseInputSchema>;
type Ctx = { actorId: number; ip: string | null };
const COURSE_UNIQUE = {
  courses_course_code_unique: { field: 'courseCode', message: 'Another course already has this course code' },
  courses_sis_course_id_unique: { field: 'sisCourseId', message: 'Another course already has this SIS course ID' },
};

const toCourse = (r: CourseWithPrerequisites, programName: string | null): Course => ({
  ...r,
  clockHours: r.clockHours == null ? null : Number(r.clockHours),
  programName,
});
const toValues = (i: Input): CourseValues => ({
  courseCode: i.courseCode,
  courseName: i.courseName,
  clockHours: i.clockHours == null ? null : String(i.clockHours),
  description: i.description,
  programId: i.programId,
  sisCourseId: i.sisCourseId,
});

export async function listCourses(db: DbOrTx): Promise<Course[]> {
  const [rows, names] = [await selectCourses(db), await listProgramNames(db)];
  return rows.map((r) => toCourse(r, r.programId == null ? null : (names.get(r.programId) ?? null)));
}

export async function getCourse(db: DbOrTx, id: number): Promise<Course> {
  const row = await selectCourse(db, id);
  if (!row) throw notFound('Course');
  return toCourse(row, row.programId == null ? null : ((await findProgramName(db, row.programId)) ?? null));
}

/**
 * Prerequisites must exist, must not be the course itself and must not close a cycle
 * (A needs B needs A). Graph changes are serialised so two edits cannot make a cycle together.
 */
async function checkPrerequisites(tx: DbOrTx, courseId: number | null, prerequisiteIds: number[]): Promise<void> {
  // The course import's lock: an edit and an import cannot make a cycle together either.
  await lockCourseImports(tx);
  if (courseId != null && prerequisiteIds.includes(courseId)) {
    throw badRequest(COURSE_SELF_PREREQUISITE, [{ field: 'prerequisiteIds', message: COURSE_SELF_PREREQUISITE }]);
  }
  if (prerequisiteIds.length === 0) return;
  const existing = await selectExistingCourseIds(tx, prerequisiteIds);
  const missing = prerequisiteIds.filter((i) => !existing.includes(i));
  if (missing.length > 0) {
    throw badRequest('Unknown prerequisite course', [{ field: 'prerequisiteIds', message: `No course with id ${missing.join(', ')}` }]);
  }
  if (courseId == null) return;
  const cycle = await selectCycleCode(tx, courseId, prerequisiteIds);
  if (cycle != null) {
    const message = `That would make a cycle: ${cycle} would end up as a prerequisite of itself`;
    throw badRequest(message, [{ field: 'prerequisiteIds', message }]);
  }
}

async function assertProgram(tx: DbOrTx, programId: number | null) {
  if (programId == null) return;
  if ((await findProgramName(tx, programId)) === undefined)
    throw badRequest('Program does not exist', [{ field: 'programId', message: `No program with id ${programId}` }]);
}

/** Hours typed on the form or sent to the API: the one rule of common/courses.ts (decisions 012, 040). */
function assertCourseHours(value: number | null, current?: number | null): void {
  const problem = courseHoursProblem(value, current);
  if (problem) throw badRequest(problem, [{ field: 'clockHours', message: problem }]);
}

/** The saved course with the note an answer carries when its hours are outside SPEC's documented range. */
function withWarnings(course: Course): CourseSaved {
  const message = courseHoursWarning(course.clockHours);
  return { ...course, warnings: message ? [{ field: 'clockHours', message }] : [] };
}

export async function createCourse(db: Db, input: Input, ctx: Ctx): Promise<CourseSaved> {
  assertCourseHours(input.clockHours);
  return db.transaction(async (tx) => {
    await assertProgram(tx, input.programId);
    await checkPrerequisites(tx, null, input.prerequisiteIds);
    const id = await withUniqueFields(() => insertCourse(tx, toValues(input)), COURSE_UNIQUE);
    await replacePrerequisiteRows(tx, id, input.prerequisiteIds);
    await recordAudit(tx, { userId: ctx.actorId, action: 'Create', tableName: 'courses', recordId: id, ipAddress: ctx.ip, newValues: input });
    return withWarnings(await getCourse(tx, id));
  });
}

export async function updateCourse(db: Db, id: number, input: Input, ctx: Ctx): Promise<CourseSaved> {
  return db.transaction(async (tx) => {
    // The graph lock before the row lock, in the order a course import takes them.
    await lockCourseImports(tx);
    if (!(await lockCourse(tx, id))) throw notFound('Course');
    const before = await getCourse(tx, id);
    // A course keeps the hours it has (a value stored before the rule stays editable); a new value meets the rule.
    assertCourseHours(input.clockHours, before.clockHours);
    await assertProgram(tx, input.programId);
    await checkPrerequisites(tx, id, input.prerequisiteIds);
    await withUniqueFields(() => updateCourseRow(tx, id, toValues(input)), COURSE_UNIQUE);
    await replacePrerequisiteRows(tx, id, input.prerequisiteIds);
    const after = await getCourse(tx, id);
    const diff = changedFields(before as unknown as Record<string, unknown>, { ...input, prerequisiteIds: after.prerequisiteIds } as Record<string, unknown>);
    await recordAudit(tx, { userId: ctx.actorId, action: 'Update', tableName: 'courses', recordId: id, ipAddress: ctx.ip, ...diff });
    return withWarnings(after);
  });
}

export async function toggleCourseStatus(db: Db, id: number, ctx: Ctx): Promise<Course> {
  return db.transaction(async (tx) => {
    const isActive = await toggleCourseActive(tx, id);
    if (isActive === undefined) throw notFound('Course');
    await recordAudit(tx, {
      userId: ctx.actorId,
      action: 'Update',
      tableName: 'courses',
      recordId: id,
      ipAddress: ctx.ip,
      oldValues: { isActive: !isActive },
      newValues: { isActive },
    });
    return getCourse(tx, id);
  });
}

/** The school's upload size limit (Settings > System), in MB: the same for every upload. */
export { uploadLimitMB } from '../imports/service.ts';

const columnPosition = (column: string) => {
  const k = COURSE_LIST_COLUMNS.findIndex((c) => normaliseHeader(c) === normaliseHeader(column));
  return k < 0 ? COURSE_LIST_COLUMNS.length : k;
};

/** A course file refused before it was read (wrong type, too large) is listed with the uploads too. */
export async function refuseCourseUpload(db: Db, err: unknown, ctx: Ctx): Promise<never> {
  return refuseUpload(db, err, { ...ctx, type: 'courses', dryRun: false });
}

/**
 * POST /api/courses/bulk-upload: the courses screen's simpler course CSV, imported by the one
 * import engine (same rules, limits, upload record, lock and prerequisite cycle check), answered
 * as SPEC's `{imported, errors}`. A file with problems imports nothing: 400 IMPORT_INVALID with
 * every problem, by row and then in the list's column order.
 */
export async function bulkUploadCourses(deps: ImportDeps, file: UploadedFile, ctx: Ctx) {
  const outcome = await runImport(deps, {
    type: 'courses',
    format: 'course-list',
    fileName: file.fileName,
    buffer: file.buffer,
    kind: file.kind,
    dryRun: false,
    actorId: ctx.actorId,
    ip: ctx.ip,
  });
  if (!outcome.ok) {
    const errors = outcome.result.errors
      .map((e, i) => ({ e, i }))
      .sort((a, b) => a.e.row - b.e.row || columnPosition(a.e.column) - columnPosition(b.e.column) || a.i - b.i)
      .map(({ e }) => e);
    // A file over the reading limits is answered with its own code, as the screen's import always did.
    if (outcome.unreadable) throw new AppError(400, outcome.unreadable.code, outcome.unreadable.message, { imported: 0, errors });
    throw new AppError(outcome.status, outcome.code, outcome.message, { imported: 0, errors });
  }
  const { created, updated } = outcome.result;
  return { imported: created + updated, created, updated, errors: [] as RowProblem[] };
}

/**
 * GET /api/courses/export: the course list's columns plus isActive, so an export can be edited
 * and imported back; audited.
 */
export async function exportCourses(db: Db, clock: Clock, ctx: Ctx) {
  const courses = await listCourses(db);
  await recordAudit(db, { userId: ctx.actorId, action: 'Export', tableName: 'courses', ipAddress: ctx.ip, newValues: { rows: courses.length } });
  const date = clock.now().toISOString().slice(0, 10);
  const csv = csvStream([...COURSE_LIST_COLUMNS, 'isActive']);
  for (const c of courses) {
    csv.write({ ...c, clockHours: c.clockHours ?? '', prerequisiteIds: JSON.stringify(c.prerequisiteIds), isActive: c.isActive });
  }
  csv.end();
  return { headers: csvDownloadHeaders(`courses-export-${date}.csv`), body: csv };
}
