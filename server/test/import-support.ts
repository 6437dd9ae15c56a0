// Test fixtures for imports: uploads through the app, and proofs that an import wrote nothing.
// Here, beside the other test helpers, not in the module: its SQL reads the tables directly.
import { sql } from 'drizzle-orm';
import type { UploadType } from '../../common/constants.ts';
import { importType, templateRows } from '../../common/import-columns.ts';
import type { Db } from '../db/client.ts';
import { multipart, type TestApp } from './helpers.ts';

/** POST a file to /api/upload/:type through the app, as a signed-in caller. */
export async function upload(t: TestApp, cookie: string, type: UploadType | string, fileName: string, content: string | Buffer, query = '') {
  const body = multipart(fileName, content);
  return t.app.inject({
    method: 'POST',
    url: `${type ? `/api/upload/${type}` : '/api/upload'}${query}`,
    headers: { cookie, ...body.headers },
    payload: body.payload,
  });
}

/** A CSV from a header and rows; cells with commas, quotes or line breaks are quoted. */
export function csv(header: readonly string[], rows: readonly (readonly (string | number)[])[], eol = '\n'): string {
  const cell = (v: string | number) => {
    const s = String(v);
    return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
  };
  return [header, ...rows].map((r) => r.map(cell).join(',')).join(eol) + eol;
}

/** Row counts of every table an import may write, to prove that nothing was written. */
export async function dataCounts(db: Db): Promise<Record<string, number>> {
  const { rows } = await db.execute<Record<string, number>>(sql`
    select (select count(*)::int from programs) as programs, (select count(*)::int from courses) as courses,
           (select count(*)::int from course_prerequisites) as prerequisites, (select count(*)::int from users) as users,
           (select count(*)::int from instructor_profiles) as profiles, (select count(*)::int from students) as students,
           (select count(*)::int from schedules) as schedules, (select count(*)::int from schedule_rosters) as rosters`);
  return rows[0]!;
}

/** A fingerprint of the imported tables' contents (not just counts), to prove an import changed nothing. */
export async function dataFingerprint(db: Db): Promise<string> {
  const { rows } = await db.execute<{ h: string }>(sql`
    select md5(coalesce((select string_agg(p::text, '|' order by id) from programs p), '') ||
               coalesce((select string_agg(c::text, '|' order by id) from courses c), '') ||
               coalesce((select string_agg(x::text, '|' order by course_id, prerequisite_id) from course_prerequisites x), '') ||
               coalesce((select string_agg(u.id || u.email || coalesce(u.sis_user_id, ''), '|' order by id) from users u), '') ||
               coalesce((select string_agg(i::text, '|' order by user_id) from instructor_profiles i), '') ||
               coalesce((select string_agg(s::text, '|' order by id) from students s), '') ||
               coalesce((select string_agg(s::text, '|' order by id) from schedules s), '') ||
               coalesce((select string_agg(r.schedule_id || ':' || r.student_id, '|' order by schedule_id, student_id) from schedule_rosters r), '')) as h`);
  return rows[0]!.h;
}

/**
 * A cheap stamp of every imported table: row count and the newest row version (xmin). Any insert,
 * update or delete that commits changes it; a rolled-back one does not.
 */
export async function writeStamp(db: Db): Promise<string> {
  const tables = ['programs', 'courses', 'course_prerequisites', 'users', 'instructor_profiles', 'students', 'schedules', 'schedule_rosters'];
  const { rows } = await db.execute<{ s: string }>(
    sql.raw(`select concat_ws('|', ${tables.map((t) => `(select count(*) || ':' || coalesce(max(xmin::text::bigint), 0) from ${t})`).join(', ')}) as s`),
  );
  return rows[0]!.s;
}

/** A type's template file (its sample rows) as a CSV. */
export function templateCsv(type: UploadType): string {
  const { header, rows } = templateRows(importType(type));
  return csv(header, rows);
}

/** Upload the template file of each type in turn (later types refer to earlier ones); throws on a refusal. */
export async function uploadTemplates(t: TestApp, cookie: string, types: readonly UploadType[]): Promise<void> {
  for (const type of types) {
    const res = await upload(t, cookie, type, `${type}.csv`, templateCsv(type));
    if (res.statusCode !== 200) throw new Error(res.body);
  }
}
