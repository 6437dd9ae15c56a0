import { sql } from 'drizzle-orm';
import { COURSE_SELF_PREREQUISITE } from '../../../common/courses.ts';
import { anyOf, CHUNK_ROWS, upsertRows } from './bulk-sql.ts';
import { allRows, copiedColumns, flagDuplicates, keysOf, resolveRef, splitByExisting, syncDateColumn, type ImportHandler } from './handler.ts';

const COPIED = [
  ['sisCourseId', 'sis_course_id', 'text'],
  ['courseCode', 'course_code', 'text'],
  ['courseName', 'course_name', 'text'],
  ['clockHours', 'clock_hours', 'numeric'],
  ['description', 'description', 'text'],
  ['isActive', 'is_active', 'bool'],
  ['syllabusUrl', 'syllabus_url', 'text'],
  ['textbooks', 'textbooks', 'text'],
  ['labHours', 'lab_hours', 'numeric'],
  ['lectureHours', 'lecture_hours', 'numeric'],
  ['passingGrade', 'passing_grade', 'numeric'],
  ['category', 'category', 'text'],
  ['credits', 'credits', 'numeric'],
  ['externalCourseId', 'external_course_id', 'text'],
  ['departmentCode', 'department_code', 'text'],
  ['transferCredits', 'transfer_credits', 'bool'],
] as const;

type CourseRow = { id: number; sis_course_id: string | null; course_code: string; program_id: number | null };
/** A course in the prerequisite graph: a stored one by id, a new one from the file by SIS id. */
type Node = string;

/**
 * Courses: upsert by sisCourseId. programId must name a program; courseCode stays unique
 * (case-insensitive); prerequisites must exist in the database or on an earlier row, and may
 * not make a course its own prerequisite, directly or through a cycle.
 */
export const planCourses: ImportHandler = async ({ tx, sheet, problems, timeZone }) => {
  const keys = keysOf(sheet, problems, 'sisCourseId');
  flagDuplicates(sheet, problems, 'courseCode', (v) => v.toLowerCase());

  const { rows: programs } = await tx.execute<{ id: number; sis_program_id: string | null }>(sql`select id, sis_program_id from programs`);
  const programBySis = new Map(programs.filter((p) => p.sis_program_id != null).map((p) => [p.sis_program_id!, p.id]));
  const programById = new Map(programs.map((p) => [p.id, p.id]));
  const { rows: courses } = await tx.execute<CourseRow>(sql`select id, sis_course_id, course_code, program_id from courses`);
  const courseBySis = new Map(courses.filter((c) => c.sis_course_id != null).map((c) => [c.sis_course_id!, c]));
  const courseById = new Map(courses.map((c) => [c.id, c]));
  const courseByCode = new Map(courses.map((c) => [c.course_code.toLowerCase(), c]));

  const programIds: (number | null)[] = new Array(sheet.size).fill(null);
  const fileRowOfKey = new Map<string, number>();
  const nodeOf = (i: number): Node => {
    const stored = courseBySis.get(keys[i] ?? '');
    return stored ? `id:${stored.id}` : `sis:${keys[i]}`;
  };
  const codeOfNode = new Map<Node, string>(courses.map((c) => [`id:${c.id}`, c.course_code]));
  const edges = new Map<Node, Node[]>();
  const { rows: links } = await tx.execute<{ course_id: number; prerequisite_id: number }>(sql`select course_id, prerequisite_id from course_prerequisites`);
  for (const l of links) edges.set(`id:${l.course_id}`, [...(edges.get(`id:${l.course_id}`) ?? []), `id:${l.prerequisite_id}`]);
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
    if (owner && owner.sis_course_id !== key) {
      problems.add(row, 'courseCode', `courseCode ${code} already belongs to another course (${owner.sis_course_id ? `SIS ID ${owner.sis_course_id}` : `id ${owner.id}`})`, code);
    }
    if (key != null) codeOfNode.set(nodeOf(i), code ?? key);

    const prereqs = sheet.value<readonly (number | string)[]>('prerequisiteIds', i);
    if (prereqs && key != null) {
      const self = nodeOf(i);
      const targets: Node[] = [];
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
        else if (target) targets.push(target);
      }
      edges.set(self, targets);
      changed.push(i);
    }
    if (key != null && !fileRowOfKey.has(key)) fileRowOfKey.set(key, i);
  }

  // A changed course must not be reachable from its own prerequisites.
  for (const i of changed) {
    const start = nodeOf(i);
    const path = findPath(edges, edges.get(start) ?? [], start);
    if (path) {
      problems.add(sheet.row(i), 'prerequisiteIds', `Prerequisites would form a cycle: ${[start, ...path].map((n) => codeOfNode.get(n) ?? n).join(' → ')}`, sheet.raw('prerequisiteIds', i));
    }
  }

  return {
    ...splitByExisting(keys, courseBySis),
    write: async (w) => {
      const written = await upsertRows<{ id: number; sis_course_id: string }>(w, {
        table: 'courses',
        conflict: 'sis_course_id',
        columns: [...copiedColumns(sheet, COPIED), { db: 'program_id', type: 'int', value: (i) => programIds[i] }, ...syncDateColumn(sheet, timeZone)],
        rows: allRows(sheet),
        returning: 'id, sis_course_id',
      });
      if (!sheet.has('prerequisiteIds')) return;
      const idBySis = new Map(courses.filter((c) => c.sis_course_id != null).map((c) => [c.sis_course_id!, c.id]));
      for (const r of written) idBySis.set(r.sis_course_id, r.id);
      const courseIds: number[] = [];
      const prereqIds: number[] = [];
      for (let i = 0; i < sheet.size; i++) {
        const prereqs = sheet.value<readonly (number | string)[]>('prerequisiteIds', i) ?? [];
        for (const p of prereqs) {
          courseIds.push(idBySis.get(keys[i]!)!);
          prereqIds.push(typeof p === 'number' ? p : idBySis.get(p)!);
        }
      }
      const ids = written.map((r) => r.id);
      await w.execute(sql`delete from course_prerequisites where course_id = ${anyOf(ids, 'int')}`);
      for (let s = 0; s < courseIds.length; s += CHUNK_ROWS * 5) {
        await w.execute(sql`
          insert into course_prerequisites (course_id, prerequisite_id)
          select * from unnest(${sql.param(courseIds.slice(s, s + CHUNK_ROWS * 5))}::int[], ${sql.param(prereqIds.slice(s, s + CHUNK_ROWS * 5))}::int[])
          on conflict do nothing`);
      }
    },
  };
};

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
