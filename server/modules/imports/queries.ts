import { and, desc, eq, isNotNull, isNull, lt, notInArray, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { coursePrerequisites, courses, fileUploads, programs, schedules, students, users, wizardProgress } from '../../db/schema/index.ts';
import type { RowProblem } from '../../lib/errors.ts';
import { anyOf } from './bulk-sql.ts';

export type UploadRow = typeof fileUploads.$inferSelect;
export type WizardProgressRow = Pick<typeof wizardProgress.$inferSelect, 'currentStep' | 'completedSteps'>;

/** One import of a type (a wizard step) at a time, so the checks still hold when the rows are written. */
export async function lockImportType(tx: DbOrTx, step: number): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(727100, ${step})`);
}

// ---- The upload log (file_uploads). ----

export async function insertUpload(db: DbOrTx, values: typeof fileUploads.$inferInsert): Promise<number> {
  const [row] = await db.insert(fileUploads).values(values).returning({ id: fileUploads.id });
  return row!.id;
}

export async function updateUploadResult(
  db: DbOrTx,
  id: number,
  values: Pick<typeof fileUploads.$inferInsert, 'status' | 'rowCount' | 'createdCount' | 'updatedCount' | 'errorCount' | 'errors'>,
): Promise<void> {
  await db
    .update(fileUploads)
    .set({ ...values, completedAt: sql`now()` })
    .where(eq(fileUploads.id, id));
}

/** An upload with who made it: their name, else their e-mail. */
const UPLOAD_FIELDS = {
  id: fileUploads.id,
  uploadType: fileUploads.uploadType,
  fileName: fileUploads.fileName,
  fileSize: fileUploads.fileSize,
  rowCount: fileUploads.rowCount,
  createdCount: fileUploads.createdCount,
  updatedCount: fileUploads.updatedCount,
  errorCount: fileUploads.errorCount,
  status: fileUploads.status,
  dryRun: fileUploads.dryRun,
  uploadedBy: fileUploads.uploadedBy,
  uploader: sql<string | null>`coalesce(nullif(trim(${users.firstName} || ' ' || ${users.lastName}), ''), ${users.email})`,
  createdAt: fileUploads.createdAt,
  completedAt: fileUploads.completedAt,
};

/** Newest first. */
export async function selectUploads(db: DbOrTx, limit: number) {
  return db.select(UPLOAD_FIELDS).from(fileUploads).leftJoin(users, eq(users.id, fileUploads.uploadedBy)).orderBy(desc(fileUploads.createdAt), desc(fileUploads.id)).limit(limit);
}

export type UploadListRow = Awaited<ReturnType<typeof selectUploads>>[number];

export async function selectUpload(db: DbOrTx, id: number) {
  const [row] = await db
    .select({ ...UPLOAD_FIELDS, errors: fileUploads.errors })
    .from(fileUploads)
    .leftJoin(users, eq(users.id, fileUploads.uploadedBy))
    .where(eq(fileUploads.id, id));
  return row;
}

/**
 * Fail `processing` uploads whose owner instance is gone, and ownerless ones created before
 * `ownerlessBefore`, with `problem` as their only error. Answers their ids.
 */
export async function failProcessingUploads(db: DbOrTx, liveInstances: readonly string[], ownerlessBefore: ReturnType<typeof sql>, problem: RowProblem): Promise<number[]> {
  const ownerGone = liveInstances.length > 0 ? notInArray(fileUploads.ownerInstance, [...liveInstances]) : sql`true`;
  const failed = await db
    .update(fileUploads)
    .set({ status: 'failed', errorCount: 1, errors: [problem], completedAt: sql`now()` })
    .where(
      and(
        eq(fileUploads.status, 'processing'),
        or(and(isNotNull(fileUploads.ownerInstance), ownerGone), and(isNull(fileUploads.ownerInstance), lt(fileUploads.createdAt, ownerlessBefore))),
      ),
    )
    .returning({ id: fileUploads.id });
  return failed.map((r) => r.id);
}

// ---- The wizard's progress (one row per school). ----

export async function selectWizardProgress(db: DbOrTx, lock: boolean): Promise<WizardProgressRow | undefined> {
  const query = db.select({ currentStep: wizardProgress.currentStep, completedSteps: wizardProgress.completedSteps }).from(wizardProgress).where(eq(wizardProgress.id, true));
  const [row] = lock ? await query.for('update') : await query;
  return row;
}

export async function insertWizardProgress(db: DbOrTx): Promise<void> {
  await db.insert(wizardProgress).values({ id: true }).onConflictDoNothing();
}

export async function updateWizardProgress(db: DbOrTx, p: WizardProgressRow, actorId: number | null): Promise<void> {
  await db
    .update(wizardProgress)
    .set({ ...p, updatedAt: sql`now()`, updatedBy: actorId })
    .where(eq(wizardProgress.id, true));
}

// ---- What the import checks read: the records a file's rows may name or collide with. ----
// Keys come as one array parameter (`= any($1)`): a file may name 100,000 of them.

export async function selectProgramRefs(tx: DbOrTx) {
  return tx.select({ id: programs.id, sisProgramId: programs.sisProgramId }).from(programs);
}

export async function selectProgramsByKeyOrCode(tx: DbOrTx, sisIds: readonly string[], codes: readonly string[]) {
  return tx
    .select({ id: programs.id, sisProgramId: programs.sisProgramId, programCode: programs.programCode })
    .from(programs)
    .where(or(sql`${programs.sisProgramId} = ${anyOf(sisIds, 'text')}`, sql`${programs.programCode} = ${anyOf(codes, 'text')}`));
}

export async function selectCourseRefs(tx: DbOrTx) {
  return tx.select({ id: courses.id, sisCourseId: courses.sisCourseId, courseCode: courses.courseCode, programId: courses.programId }).from(courses);
}

export async function selectPrerequisiteLinks(tx: DbOrTx) {
  return tx.select({ courseId: coursePrerequisites.courseId, prerequisiteId: coursePrerequisites.prerequisiteId }).from(coursePrerequisites);
}

export async function selectStudentsBySis(tx: DbOrTx, sisIds: readonly string[]) {
  return tx
    .select({ id: students.id, sisStudentId: students.sisStudentId, programId: students.programId })
    .from(students)
    .where(sql`${students.sisStudentId} = ${anyOf(sisIds, 'text')}`);
}

export async function selectScheduleKeys(tx: DbOrTx, sisIds: readonly string[]) {
  return tx
    .select({ sisScheduleId: schedules.sisScheduleId })
    .from(schedules)
    .where(sql`${schedules.sisScheduleId} = ${anyOf(sisIds, 'text')}`);
}

export async function selectInstructorRefs(tx: DbOrTx) {
  return tx.select({ id: users.id, sisUserId: users.sisUserId, email: users.email, isActive: users.isActive }).from(users).where(eq(users.role, 'instructor'));
}
