import { and, desc, eq, isNotNull, isNull, lt, notInArray, or, sql } from 'drizzle-orm';
import type { ProgramCohort } from '../../../common/schedules.ts';
import type { DbOrTx } from '../../db/client.ts';
import {
  coursePrerequisites,
  courses,
  fileUploads,
  instructorProfiles,
  programs,
  scheduleRosters,
  schedules,
  students,
  users,
  wizardProgress,
} from '../../db/schema/index.ts';
import type { RowProblem } from '../../lib/errors.ts';
import { anyOf } from '../../db/bulk-upsert.ts';
import { LOCK_CLASSES } from '../../db/advisory-locks.ts';

export type WizardProgressRow = Pick<typeof wizardProgress.$inferSelect, 'currentStep' | 'completedSteps'>;

/** One import of a type (a wizard step) at a time, so the checks still hold when the rows are written. */
export async function lockImportType(tx: DbOrTx, step: number): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${LOCK_CLASSES.importStep}, ${step})`);
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
  return db
    .select(UPLOAD_FIELDS)
    .from(fileUploads)
    .leftJoin(users, eq(users.id, fileUploads.uploadedBy))
    .orderBy(desc(fileUploads.createdAt), desc(fileUploads.id))
    .limit(limit);
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
/** `ownerlessOlderThanMinutes`: uploads without an owner fail once this old (0: all of them). */
export async function failProcessingUploads(
  db: DbOrTx,
  liveInstances: readonly string[],
  ownerlessOlderThanMinutes: number,
  problem: RowProblem,
): Promise<number[]> {
  const ownerlessBefore = sql`now() - make_interval(mins => ${ownerlessOlderThanMinutes})`;
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
  const query = db
    .select({ currentStep: wizardProgress.currentStep, completedSteps: wizardProgress.completedSteps })
    .from(wizardProgress)
    .where(eq(wizardProgress.id, true));
  const [row] = lock ? await query.for('update') : await query;
  return row;
}

/** The wizard as nobody has moved it yet (never saved by a person, nothing completed). */
export async function selectWizardUntouched(db: DbOrTx): Promise<boolean> {
  const [row] = await db
    .select({ updatedBy: wizardProgress.updatedBy, completedSteps: wizardProgress.completedSteps })
    .from(wizardProgress)
    .where(eq(wizardProgress.id, true));
  return row != null && row.updatedBy == null && row.completedSteps.length === 0;
}

/** Adopt steps for data already there, only while the wizard is still untouched (a reset or a move since wins). */
export async function adoptWizardProgress(db: DbOrTx, p: WizardProgressRow): Promise<boolean> {
  const rows = await db
    .update(wizardProgress)
    .set({ ...p, updatedAt: sql`now()` })
    .where(and(eq(wizardProgress.id, true), isNull(wizardProgress.updatedBy), sql`cardinality(${wizardProgress.completedSteps}) = 0`))
    .returning({ id: wizardProgress.id });
  return rows.length > 0;
}

type TypeRowCounts = { programs: number; courses: number; instructors: number; students: number; schedules: number };

/** Rows of each import type already in the school (added by hand or before the wizard existed). */
export async function typeRowCounts(db: DbOrTx): Promise<TypeRowCounts> {
  const { rows } = await db.execute<TypeRowCounts>(sql`
    select (select count(*) from ${programs})::int as "programs",
           (select count(*) from ${courses})::int as "courses",
           (select count(*) from ${users} where ${users.role} = 'instructor')::int as "instructors",
           (select count(*) from ${students})::int as "students",
           (select count(*) from ${schedules})::int as "schedules"`);
  return rows[0]!;
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

/**
 * How many of the staged students exist already, and which of them the file moves to another
 * program: counted by the database, so a 100,000-row re-import holds none of them in memory.
 */
export async function classifyStagedStudents(tx: DbOrTx, staging: string): Promise<{ existing: number; moved: string[] }> {
  const { rows } = await tx.execute<{ existing: number; moved: string[] }>(sql`
    select count(*)::int as existing,
           coalesce(array_agg(st.sis_student_id) filter (where f.program_id is not null and st.program_id is distinct from f.program_id), '{}') as moved
      from ${sql.identifier(staging)} f
      join ${students} st on st.sis_student_id = f.sis_student_id`);
  return rows[0]!;
}

export async function selectScheduleKeys(tx: DbOrTx, sisIds: readonly string[]) {
  return tx
    .select({ sisScheduleId: schedules.sisScheduleId })
    .from(schedules)
    .where(sql`${schedules.sisScheduleId} = ${anyOf(sisIds, 'text')}`);
}

/** Every cohort of the schedules (number, name, program, course end), for common/schedules.ts numberNamedCohorts. */
export async function selectScheduleCohorts(tx: DbOrTx): Promise<ProgramCohort[]> {
  return tx
    .selectDistinct({
      programId: courses.programId,
      cohortNumber: schedules.cohortNumber,
      cohortName: schedules.cohortName,
      courseEndDate: schedules.courseEndDate,
    })
    .from(schedules)
    .innerJoin(courses, eq(courses.id, schedules.courseId));
}

export async function selectInstructorRefs(tx: DbOrTx) {
  return tx.select({ id: users.id, sisUserId: users.sisUserId, email: users.email, isActive: users.isActive }).from(users).where(eq(users.role, 'instructor'));
}

export async function selectUsersByKeys(tx: DbOrTx, sisIds: readonly string[], emails: readonly string[], usernames: readonly string[]) {
  return tx
    .select({ id: users.id, email: users.email, username: users.username, role: users.role, sisUserId: users.sisUserId })
    .from(users)
    .where(
      or(
        sql`${users.sisUserId} = ${anyOf(sisIds, 'text')}`,
        sql`lower(${users.email}) = ${anyOf(emails, 'text')}`,
        sql`lower(${users.username}) = ${anyOf(usernames, 'text')}`,
      ),
    );
}

export async function selectProfilesByEmployeeId(tx: DbOrTx, employeeIds: readonly string[]) {
  return tx
    .select({ userId: instructorProfiles.userId, employeeId: instructorProfiles.employeeId })
    .from(instructorProfiles)
    .where(sql`${instructorProfiles.employeeId} = ${anyOf(employeeIds, 'text')}`);
}

// ---- The writes beside the bulk upserts (db/bulk-upsert.ts): one statement per list, whatever its length. ----

/** Fresh course ids from the table's sequence, for rows whose id must be known before the write. */
export async function reserveCourseIds(tx: DbOrTx, count: number): Promise<number[]> {
  const { rows } = await tx.execute<Pick<typeof courses.$inferSelect, 'id'>>(
    sql`select nextval(pg_get_serial_sequence('courses', 'id'))::int as id from generate_series(1, ${count}::int)`,
  );
  return rows.map((r) => r.id);
}

/** Replace the prerequisites of `courseIds` by the pairs (courseIds[k], prerequisiteIds[k]). */
export async function replacePrerequisiteLinks(
  tx: DbOrTx,
  ofCourses: readonly number[],
  links: { courseIds: number[]; prerequisiteIds: number[] },
  chunk: number,
): Promise<void> {
  await tx.delete(coursePrerequisites).where(sql`${coursePrerequisites.courseId} = ${anyOf(ofCourses, 'int')}`);
  for (let s = 0; s < links.courseIds.length; s += chunk) {
    await tx.execute(sql`
      insert into ${coursePrerequisites} (course_id, prerequisite_id)
      select * from unnest(${sql.param(links.courseIds.slice(s, s + chunk))}::int[], ${sql.param(links.prerequisiteIds.slice(s, s + chunk))}::int[])
      on conflict do nothing`);
  }
}

/** Students moved to another program leave the rosters of the old program's schedules still running on `today`. */
export async function removeMovedStudentsFromRosters(tx: DbOrTx, sisStudentIds: readonly string[], today: string): Promise<void> {
  await tx.execute(sql`
    delete from ${scheduleRosters} r using ${schedules} sc, ${courses} co, ${students} st
     where st.sis_student_id = ${anyOf(sisStudentIds, 'text')} and r.student_id = st.id and sc.id = r.schedule_id
       and co.id = sc.course_id and co.program_id is distinct from st.program_id and sc.course_end_date >= ${today}::date`);
}

/** The staged students who are enrolled join the rosters of their program's active schedules that have not ended. */
export async function addStagedStudentsToRosters(tx: DbOrTx, staging: string, today: string): Promise<void> {
  await tx.execute(sql`
    insert into ${scheduleRosters} (schedule_id, student_id)
    select sc.id, st.id
      from ${sql.identifier(staging)} f
      join ${students} st on st.sis_student_id = f.sis_student_id
      join ${courses} co on co.program_id = st.program_id
      join ${schedules} sc on sc.course_id = co.id
     where st.status = 'enrolled' and sc.is_active and sc.course_end_date >= ${today}::date
    on conflict do nothing`);
}

/** Each schedule's roster gets the enrolled students of its course's program. */
export async function fillScheduleRosters(tx: DbOrTx, scheduleIds: readonly number[]): Promise<void> {
  await tx.execute(sql`
    insert into ${scheduleRosters} (schedule_id, student_id)
    select sc.id, st.id
      from ${schedules} sc
      join ${courses} co on co.id = sc.course_id
      join ${students} st on st.program_id = co.program_id and st.status = 'enrolled'
     where sc.id = ${anyOf(scheduleIds, 'int')}
    on conflict do nothing`);
}

/** Link existing instructor accounts to their SIS user ids. */
export async function linkUsersToSisIds(tx: DbOrTx, links: readonly { id: number; sis: string }[]): Promise<void> {
  await tx.execute(sql`
    update ${users} set sis_user_id = v.sis, updated_at = now()
      from unnest(${sql.param(links.map((l) => l.id))}::int[], ${sql.param(links.map((l) => l.sis))}::text[]) as v(id, sis)
     where users.id = v.id`);
}

/** The current status of each student named by these SIS ids (those that exist). */
export async function selectStudentStatusesBySis(tx: DbOrTx, sisStudentIds: string[]): Promise<Map<string, string>> {
  const rows = await tx
    .select({ sis: students.sisStudentId, status: students.status })
    .from(students)
    .where(sql`${students.sisStudentId} = ${anyOf(sisStudentIds, 'text')}`);
  return new Map(rows.map((r) => [r.sis!, r.status]));
}

/** Retention: upload records created before `cutoff`. */
export async function deleteUploadsBefore(tx: DbOrTx, cutoff: Date): Promise<number> {
  const result = await tx.delete(fileUploads).where(lt(fileUploads.createdAt, cutoff));
  return result.rowCount ?? 0;
}
