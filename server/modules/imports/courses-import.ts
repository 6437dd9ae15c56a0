import { COURSE_SELF_PREREQUISITE, courseHoursProblem } from '../../../common/courses.ts';
import { CHUNK_ROWS, upsertRows } from '../../db/bulk-upsert.ts';
import type { DbOrTx } from '../../db/client.ts';
import { courses as courseTable } from '../../db/schema/index.ts';
import { replacePrerequisiteLinks, reserveCourseIds, selectCourseRefs, selectPrerequisiteLinks, selectProgramRefs } from './queries.ts';
import {
  allRows,
  copiedColumns,
  flagDuplicates,
  keysOf,
  resolveRef,
  splitByExisting,
  syncDateColumn,
  type ImportHandler,
  type ImportPlan,
  type PlanContext,
} from './handler.ts';
import type { Sheet } from './sheet.ts';

const COPIED = [
  ['sisCourseId', courseTable.sisCourseId, 'text'],
  ['courseCode', courseTable.courseCode, 'text'],
  ['courseName', courseTable.courseName, 'text'],
  ['clockHours', courseTable.clockHours, 'numeric'],
  ['description', courseTable.description, 'text'],
  ['isActive', courseTable.isActive, 'bool'],
  ['syllabusUrl', courseTable.syllabusUrl, 'text'],
  ['textbooks', courseTable.textbooks, 'text'],
  ['labHours', courseTable.labHours, 'numeric'],
  ['lectureHours', courseTable.lectureHours, 'numeric'],
  ['passingGrade', courseTable.passingGrade, 'numeric'],
  ['category', courseTable.category, 'text'],
  ['credits', courseTable.credits, 'numeric'],
  ['externalCourseId', courseTable.externalCourseId, 'text'],
  ['departmentCode', courseTable.departmentCode, 'text'],
  ['transferCredits', courseTable.transferCredits, 'bool'],
] as const;

type CourseRow = Awaited<ReturnType<typeof selectCourseRefs>>[number];
/** A course in the prerequisite graph: a stored one by id, a new one from the file by SIS id (or row). */
type Node = string;

/**
 * Courses: upsert by sisCourseId. programId must name a program; courseCode stays unique
 * (case-insensitive); prerequisites must exist in the database or on an earlier row, and may
 * not make a course its own prerequisite, directly or through a cycle.
 */
export const planCourses: ImportHandler = (ctx) => planCourseRows(ctx, false);

/**
 * The course list of the courses screen (SPEC §3's simpler course CSV): the same checks, but a
 * row without a SIS course ID, or whose SIS ID is new while its code names a course without one,
 * updates the stored course with that code, as the screen's import always did.
 */
export const planCourseList: ImportHandler = (ctx) => planCourseRows(ctx, true);

async function planCourseRows({ tx, sheet, problems, timeZone }: PlanContext, byCode: boolean): Promise<ImportPlan> {
  const keys = keysOf(sheet, problems, 'sisCourseId');
  flagDuplicates(sheet, problems, 'courseCode', (v) => v.toLowerCase());

  const programs = await selectProgramRefs(tx);
  const programBySis = new Map(programs.filter((p) => p.sisProgramId != null).map((p) => [p.sisProgramId!, p.id]));
  const programById = new Map(programs.map((p) => [p.id, p.id]));
  const courses = await selectCourseRefs(tx);
  const courseBySis = new Map(courses.filter((c) => c.sisCourseId != null).map((c) => [c.sisCourseId!, c]));
  const courseById = new Map(courses.map((c) => [c.id, c]));
  const courseByCode = new Map(courses.map((c) => [c.courseCode.toLowerCase(), c]));

  // The stored course each row updates (undefined: a new course).
  const targets: (CourseRow | undefined)[] = new Array(sheet.size);
  const targetedBy = new Map<number, number>();
  for (let i = 0; i < sheet.size; i++) {
    const key = keys[i];
    const code = sheet.text('courseCode', i);
    const owner = code == null ? undefined : courseByCode.get(code.toLowerCase());
    targets[i] = (key == null ? undefined : courseBySis.get(key)) ?? (byCode && owner && (key == null || owner.sisCourseId == null) ? owner : undefined);
    const target = targets[i];
    if (target && byCode) {
      const first = targetedBy.get(target.id);
      if (first !== undefined) problems.add(sheet.row(i), 'courseCode', `Updates the same course as row ${first} (${target.courseCode})`, code ?? undefined);
      else targetedBy.set(target.id, sheet.row(i));
    }
  }

  const programIds: (number | null)[] = new Array(sheet.size).fill(null);
  const fileRowOfKey = new Map<string, number>();
  const nodeOf = (i: number): Node => {
    const stored = targets[i];
    return stored ? `id:${stored.id}` : keys[i] != null ? `sis:${keys[i]}` : `row:${i}`;
  };
  const codeOfNode = new Map<Node, string>(courses.map((c) => [`id:${c.id}`, c.courseCode]));
  const edges = new Map<Node, Node[]>();
  for (const l of await selectPrerequisiteLinks(tx)) edges.set(`id:${l.courseId}`, [...(edges.get(`id:${l.courseId}`) ?? []), `id:${l.prerequisiteId}`]);
  const changed: number[] = [];

  for (let i = 0; i < sheet.size; i++) {
    const row = sheet.row(i);
    const key = keys[i];
    const ref = sheet.raw('programId', i);
    if (ref !== '' && sheet.text('programId', i) != null) {
      const id = resolveRef(ref, programBySis, programById);
      if (id === undefined) problems.add(row, 'programId', `No program with SIS ID or id ${ref}`, ref);
      else programIds[i] = id;
    }
    const code = sheet.text('courseCode', i);
    const owner = code == null ? undefined : courseByCode.get(code.toLowerCase());
    if (owner && owner !== targets[i]) {
      problems.add(
        row,
        'courseCode',
        `courseCode ${code} already belongs to another course (${owner.sisCourseId ? `SIS ID ${owner.sisCourseId}` : `id ${owner.id}`})`,
        code,
      );
    }
    // The hours rule of every path (decision 040); the column checked the range, this the steps.
    const hoursProblem = courseHoursProblem(sheet.value<number>('clockHours', i), undefined, 'clockHours');
    if (hoursProblem) problems.add(row, 'clockHours', hoursProblem, sheet.raw('clockHours', i));
    if (key != null || byCode) codeOfNode.set(nodeOf(i), code ?? key ?? `row ${row}`);

    const prereqs = sheet.value<readonly (number | string)[]>('prerequisiteIds', i);
    if (prereqs && (key != null || byCode)) {
      const self = nodeOf(i);
      const targetsOfRow: Node[] = [];
      for (const p of prereqs) {
        let target: Node | null = null;
        if (typeof p === 'number') {
          if (courseById.has(p)) target = `id:${p}`;
          else problems.add(row, 'prerequisiteIds', `No course with id ${p}`, sheet.raw('prerequisiteIds', i));
        } else if (p === key) {
          target = self;
        } else if (fileRowOfKey.has(p)) {
          target = nodeOf(fileRowOfKey.get(p)!);
        } else if (courseBySis.has(p)) {
          target = `id:${courseBySis.get(p)!.id}`;
        } else {
          problems.add(row, 'prerequisiteIds', `No course with SIS ID ${p} in the database or on an earlier row`, sheet.raw('prerequisiteIds', i));
        }
        if (target === self) problems.add(row, 'prerequisiteIds', COURSE_SELF_PREREQUISITE, sheet.raw('prerequisiteIds', i));
        else if (target) targetsOfRow.push(target);
      }
      edges.set(self, targetsOfRow);
      changed.push(i);
    }
    if (key != null && !fileRowOfKey.has(key)) fileRowOfKey.set(key, i);
  }

  // A changed course must not be reachable from its own prerequisites.
  for (const i of changed) {
    const start = nodeOf(i);
    const path = findPath(edges, edges.get(start) ?? [], start);
    if (path) {
      problems.add(
        sheet.row(i),
        'prerequisiteIds',
        `Prerequisites would form a cycle: ${[start, ...path].map((n) => codeOfNode.get(n) ?? n).join(' → ')}`,
        sheet.raw('prerequisiteIds', i),
      );
    }
  }

  const updated = targets.filter((t) => t !== undefined).length;
  return {
    ...(byCode ? { created: sheet.size - updated, updated } : splitByExisting(keys, courseBySis)),
    write: async (w) => {
      const rowIds = byCode
        ? await writeByTarget(w, sheet, keys, targets, programIds, timeZone)
        : await writeBySis(w, sheet, keys, courses, programIds, timeZone);
      if (!sheet.has('prerequisiteIds')) return;
      const courseIds: number[] = [];
      const prereqIds: number[] = [];
      for (let i = 0; i < sheet.size; i++) {
        const prereqs = sheet.value<readonly (number | string)[]>('prerequisiteIds', i) ?? [];
        for (const p of prereqs) {
          courseIds.push(rowIds[i]!);
          const j = typeof p === 'number' ? undefined : fileRowOfKey.get(p);
          prereqIds.push(typeof p === 'number' ? p : j !== undefined ? rowIds[j]! : courseBySis.get(p)!.id);
        }
      }
      await replacePrerequisiteLinks(w, rowIds, { courseIds, prerequisiteIds: prereqIds }, CHUNK_ROWS * 5);
    },
  };
}

/** The template import: rows keyed by SIS course ID, upserted on it. Answers each row's course id. */
async function writeBySis(
  w: DbOrTx,
  sheet: Sheet,
  keys: readonly (string | null)[],
  courses: readonly CourseRow[],
  programIds: readonly (number | null)[],
  timeZone: string,
): Promise<number[]> {
  const written = await upsertRows(w, {
    table: courseTable,
    conflict: courseTable.sisCourseId,
    columns: [
      ...copiedColumns(sheet, COPIED),
      { db: courseTable.programId, type: 'int', value: (i) => programIds[i] },
      ...syncDateColumn(sheet, timeZone, courseTable.lastSyncDate),
    ],
    rows: allRows(sheet),
    returning: { id: courseTable.id, sisCourseId: courseTable.sisCourseId },
  });
  const idBySis = new Map(courses.filter((c) => c.sisCourseId != null).map((c) => [c.sisCourseId!, c.id]));
  for (const r of written) idBySis.set(r.sisCourseId!, r.id);
  return keys.map((k) => idBySis.get(k!)!);
}

/**
 * The course list: every row's id is known before the write (its stored course, or a fresh one
 * from the sequence), so rows with and without a SIS ID are upserted on the id alike.
 */
async function writeByTarget(
  w: DbOrTx,
  sheet: Sheet,
  keys: readonly (string | null)[],
  targets: readonly (CourseRow | undefined)[],
  programIds: readonly (number | null)[],
  timeZone: string,
): Promise<number[]> {
  const fresh = targets.filter((t) => t === undefined).length;
  const ids = await reserveCourseIds(w, fresh);
  let next = 0;
  const rowIds = targets.map((t) => t?.id ?? ids[next++]!);
  await upsertRows(w, {
    table: courseTable,
    conflict: courseTable.id,
    columns: [
      { db: courseTable.id, type: 'int', value: (i) => rowIds[i] },
      ...copiedColumns(
        sheet,
        COPIED.filter(([name]) => name !== 'sisCourseId'),
      ),
      // A row without a SIS ID keeps the stored course's.
      { db: courseTable.sisCourseId, type: 'text', value: (i) => keys[i] ?? targets[i]?.sisCourseId ?? null },
      ...(sheet.has('programId') ? [{ db: courseTable.programId, type: 'int' as const, value: (i: number) => programIds[i] }] : []),
      ...syncDateColumn(sheet, timeZone, courseTable.lastSyncDate),
    ],
    rows: allRows(sheet),
    returning: { id: courseTable.id },
  });
  return rowIds;
}

/** A path from one of `from` to `goal` through the graph, or null. */
function findPath(edges: ReadonlyMap<Node, Node[]>, from: readonly Node[], goal: Node): Node[] | null {
  const parent = new Map<Node, Node | null>();
  const queue: Node[] = [];
  for (const f of from) {
    if (!parent.has(f)) {
      parent.set(f, null);
      queue.push(f);
    }
  }
  while (queue.length > 0) {
    const n = queue.shift()!;
    if (n === goal) {
      const path: Node[] = [];
      for (let c: Node | null = n; c != null; c = parent.get(c) ?? null) path.unshift(c);
      return path;
    }
    for (const next of edges.get(n) ?? []) {
      if (!parent.has(next)) {
        parent.set(next, n);
        queue.push(next);
      }
    }
  }
  return null;
}
