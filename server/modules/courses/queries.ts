import { asc, eq, inArray, not, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { coursePrerequisites, courses } from '../../db/schema/index.ts';

type CourseRow = typeof courses.$inferSelect;
export type CourseValues = Pick<typeof courses.$inferInsert, 'courseCode' | 'courseName' | 'clockHours' | 'description' | 'programId' | 'sisCourseId'>;

/** A course with its prerequisite ids (ascending), as the API shows it. */
const COURSE_FIELDS = {
  id: courses.id,
  courseCode: courses.courseCode,
  courseName: courses.courseName,
  clockHours: courses.clockHours,
  description: courses.description,
  programId: courses.programId,
  sisCourseId: courses.sisCourseId,
  isActive: courses.isActive,
  prerequisiteIds: sql<number[]>`coalesce((select array_agg(${coursePrerequisites.prerequisiteId} order by ${coursePrerequisites.prerequisiteId})
    from ${coursePrerequisites} where ${coursePrerequisites.courseId} = ${courses.id}), '{}')`,
};

export async function selectCourses(db: DbOrTx) {
  return db.select(COURSE_FIELDS).from(courses).orderBy(asc(courses.courseCode));
}

export async function selectCourse(db: DbOrTx, id: number) {
  const [row] = await db.select(COURSE_FIELDS).from(courses).where(eq(courses.id, id));
  return row;
}

export type CourseWithPrerequisites = NonNullable<Awaited<ReturnType<typeof selectCourse>>>;

/** Locks the course for the rest of the transaction; false when there is none. */
export async function lockCourse(db: DbOrTx, id: number): Promise<boolean> {
  const rows = await db.select({ id: courses.id }).from(courses).where(eq(courses.id, id)).for('update');
  return rows.length > 0;
}

export async function selectExistingCourseIds(db: DbOrTx, ids: readonly number[]): Promise<number[]> {
  const rows = await db
    .select({ id: courses.id })
    .from(courses)
    .where(inArray(courses.id, [...ids]));
  return rows.map((r) => r.id);
}

/**
 * The course's code when it is reachable from `prerequisiteIds` through the stored graph (a
 * recursive walk, so raw SQL), i.e. when those prerequisites would make a cycle.
 */
export async function selectCycleCode(db: DbOrTx, courseId: number, prerequisiteIds: readonly number[]): Promise<CourseRow['courseCode'] | null> {
  const ids = sql`array[${sql.join(
    prerequisiteIds.map((i) => sql`${i}::int`),
    sql`, `,
  )}]`;
  const { rows } = await db.execute<Pick<CourseRow, 'courseCode'>>(sql`
    with recursive reach(id) as (
      select unnest(${ids})
      union
      select cp.prerequisite_id from ${coursePrerequisites} cp join reach r on cp.course_id = r.id
    )
    select (select course_code from ${courses} where id = ${courseId}) as "courseCode" from reach where id = ${courseId} limit 1`);
  return rows[0]?.courseCode ?? null;
}

export async function replacePrerequisiteRows(db: DbOrTx, courseId: number, prerequisiteIds: readonly number[]): Promise<void> {
  await db.delete(coursePrerequisites).where(eq(coursePrerequisites.courseId, courseId));
  const unique = [...new Set(prerequisiteIds)];
  if (unique.length > 0) await db.insert(coursePrerequisites).values(unique.map((prerequisiteId) => ({ courseId, prerequisiteId })));
}

export async function insertCourse(db: DbOrTx, values: CourseValues): Promise<number> {
  const [row] = await db.insert(courses).values(values).returning({ id: courses.id });
  return row!.id;
}

export async function updateCourseRow(db: DbOrTx, id: number, values: CourseValues): Promise<void> {
  await db
    .update(courses)
    .set({ ...values, updatedAt: sql`now()` })
    .where(eq(courses.id, id));
}

/** Flips is_active; the new value, or undefined when there is no such course. */
export async function toggleCourseActive(db: DbOrTx, id: number): Promise<boolean | undefined> {
  const [row] = await db
    .update(courses)
    .set({ isActive: not(courses.isActive), updatedAt: sql`now()` })
    .where(eq(courses.id, id))
    .returning({ isActive: courses.isActive });
  return row?.isActive;
}
