import { sql } from 'drizzle-orm';
import { UNSTORABLE_TEXT, isStorableText } from '../../../common/validation.ts';
import type { Db, DbOrTx } from '../../db/client.ts';
import type { Tabular } from '../../lib/tabular-file.ts';
import { pgError } from '../../lib/db-errors.ts';
import { recordAudit } from '../audit-logs/service.ts';
import { replacePrerequisites } from './service.ts';

/** The simpler course CSV of SPEC §3 (courses screen Bulk Import), with snake_case aliases. */
export const COURSE_BULK_COLUMNS = ['courseCode', 'courseName', 'description', 'clockHours', 'programId', 'sisCourseId', 'prerequisiteIds'] as const;
type Column = (typeof COURSE_BULK_COLUMNS)[number];
const ALIASES: Record<string, Column> = {
  course_code: 'courseCode',
  course_name: 'courseName',
  clock_hours: 'clockHours',
  program_id: 'programId',
  sis_course_id: 'sisCourseId',
  prerequisite_ids: 'prerequisiteIds',
};
const canonical = (h: string): Column | null =>
  (COURSE_BULK_COLUMNS as readonly string[]).includes(h) ? (h as Column) : (ALIASES[h] ?? null);

export type RowError = { row: number; column: string; value?: string; message: string };
type Valid = {
  line: number;
  courseCode: string;
  courseName: string;
  description: string | null;
  clockHours: number | null;
  programId: number | null;
  sisCourseId: string | null;
  prerequisiteIds: number[];
};

/**
 * Validate every row first; write nothing unless all are valid; then create or update in one
 * transaction (by SIS course id, else by course code), so a re-import never duplicates.
 */
export async function importCourses(db: Db, table: Tabular, ctx: { actorId: number; ip: string | null; fileName: string }) {
  const errors: RowError[] = [];
  const columnOf = new Map<Column, string>();
  for (const h of table.headers) {
    const c = canonical(h);
    if (c && !columnOf.has(c)) columnOf.set(c, h);
  }
  for (const required of ['courseCode', 'courseName'] as const) {
    if (!columnOf.has(required)) errors.push({ row: 1, column: required, message: `Missing required column ${required}` });
  }
  if (errors.length > 0) return { imported: 0, errors };
  if (table.rows.length === 0) return { imported: 0, errors: [{ row: 1, column: 'file', message: 'The file has a header but no data rows' }] };

  const { rows: programs } = await db.execute<{ id: number; sis_program_id: string | null }>(sql`select id, sis_program_id from programs`);
  const { rows: courseIds } = await db.execute<{ id: number }>(sql`select id from courses`);
  const knownCourses = new Set(courseIds.map((c) => c.id));
  const seenCodes = new Map<string, number>();
  const seenSis = new Map<string, number>();
  const valid: Valid[] = [];

  for (const { line, values } of table.rows) {
    const get = (c: Column) => (columnOf.has(c) ? (values[columnOf.get(c)!] ?? '') : '');
    const fail = (column: Column, message: string) => errors.push({ row: line, column, value: get(column), message });
    const before = errors.length;
    // PostgreSQL cannot store NUL (or broken Unicode): name the cell rather than fail the insert.
    const unstorable = COURSE_BULK_COLUMNS.filter((c) => !isStorableText(get(c)));
    for (const c of unstorable) errors.push({ row: line, column: c, message: `${c} ${UNSTORABLE_TEXT}` });
    if (unstorable.length > 0) continue;
    const courseCode = get('courseCode');
    const courseName = get('courseName');
    if (!courseCode) fail('courseCode', 'courseCode is required');
    else if (courseCode.length > 50) fail('courseCode', 'courseCode must be at most 50 characters');
    else if (seenCodes.has(courseCode.toLowerCase())) fail('courseCode', `Duplicate courseCode: also on row ${seenCodes.get(courseCode.toLowerCase())}`);
    if (!courseName) fail('courseName', 'courseName is required');
    let clockHours: number | null = null;
    if (get('clockHours')) {
      clockHours = Number(get('clockHours'));
      if (!Number.isFinite(clockHours)) fail('clockHours', 'clockHours must be a number');
      else if (clockHours < 1 || clockHours > 120) fail('clockHours', 'clockHours must be between 1 and 120');
    }
    let programId: number | null = null;
    const programRef = get('programId');
    if (programRef) {
      const match = programs.find((p) => String(p.id) === programRef || p.sis_program_id === programRef);
      if (!match) fail('programId', `No program with id or SIS id ${programRef}`);
      else programId = match.id;
    }
    const sisCourseId = get('sisCourseId') || null;
    if (sisCourseId && seenSis.has(sisCourseId)) fail('sisCourseId', `Duplicate sisCourseId: also on row ${seenSis.get(sisCourseId)}`);
    let prerequisiteIds: number[] = [];
    const prereqText = get('prerequisiteIds');
    if (prereqText) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(prereqText);
      } catch {
        parsed = undefined;
      }
      if (!Array.isArray(parsed) || !parsed.every((v) => Number.isInteger(v) && v > 0)) {
        fail('prerequisiteIds', 'prerequisiteIds must be a JSON array of course ids, such as [1,2,3] or []');
      } else {
        const unknown = parsed.filter((v) => !knownCourses.has(v as number));
        if (unknown.length > 0) fail('prerequisiteIds', `No course with id ${unknown.join(', ')}`);
        prerequisiteIds = parsed as number[];
      }
    }
    if (courseCode) seenCodes.set(courseCode.toLowerCase(), line);
    if (sisCourseId) seenSis.set(sisCourseId, line);
    if (errors.length === before) {
      valid.push({ line, courseCode, courseName, description: get('description') || null, clockHours, programId, sisCourseId, prerequisiteIds });
    }
  }
  if (errors.length > 0) return { imported: 0, errors };

  let created = 0;
  let updated = 0;
  const conflicts: RowError[] = [];
  await db
    .transaction(async (tx) => {
      for (const v of valid) {
        const id = await findExisting(tx, v);
        if (id != null && v.prerequisiteIds.includes(id)) {
          conflicts.push({ row: v.line, column: 'prerequisiteIds', message: 'A course cannot be its own prerequisite' });
          throw new ImportConflict();
        }
        try {
          const courseId = id == null ? await insertCourse(tx, v) : await updateExisting(tx, id, v);
          await replacePrerequisites(tx, courseId, v.prerequisiteIds);
        } catch (err) {
          const e = pgError(err);
          if (e.code !== '23505') throw err;
          // The row's SIS id names one existing course and its code another.
          conflicts.push({ row: v.line, column: e.constraint?.includes('sis') ? 'sisCourseId' : 'courseCode', message: 'Conflicts with another existing course' });
          throw new ImportConflict();
        }
        if (id == null) created += 1;
        else updated += 1;
      }
      await recordAudit(tx, {
        userId: ctx.actorId,
        action: 'Upload',
        tableName: 'courses',
        recordId: null,
        ipAddress: ctx.ip,
        newValues: { fileName: ctx.fileName, rows: valid.length, created, updated },
      });
    })
    .catch((err) => {
      // All or nothing: the transaction rolled back every row of this file.
      if (!(err instanceof ImportConflict)) throw err;
    });
  if (conflicts.length > 0) return { imported: 0, errors: conflicts };
  return { imported: created + updated, created, updated, errors: [] as RowError[] };
}

class ImportConflict extends Error {}

async function findExisting(tx: DbOrTx, v: Valid): Promise<number | null> {
  const { rows } = await tx.execute<{ id: number }>(sql`
    select id from courses
     where (${v.sisCourseId}::text is not null and sis_course_id = ${v.sisCourseId})
        or lower(course_code) = lower(${v.courseCode})
     order by (sis_course_id is not distinct from ${v.sisCourseId}) desc limit 1`);
  return rows[0]?.id ?? null;
}

async function insertCourse(tx: DbOrTx, v: Valid): Promise<number> {
  const { rows } = await tx.execute<{ id: number }>(sql`
    insert into courses (course_code, course_name, clock_hours, description, program_id, sis_course_id)
    values (${v.courseCode}, ${v.courseName}, ${v.clockHours}, ${v.description}, ${v.programId}, ${v.sisCourseId}) returning id`);
  return rows[0]!.id;
}

async function updateExisting(tx: DbOrTx, id: number, v: Valid): Promise<number> {
  await tx.execute(sql`
    update courses set course_code = ${v.courseCode}, course_name = ${v.courseName}, clock_hours = ${v.clockHours},
           description = ${v.description}, program_id = ${v.programId}, sis_course_id = coalesce(${v.sisCourseId}, sis_course_id), updated_at = now()
     where id = ${id}`);
  return id;
}
