import { sql, type SQL } from 'drizzle-orm';
import type { ListQuery } from '../../common/validation.ts';

/**
 * ORDER BY / LIMIT / OFFSET for list endpoints. The sort column comes from a fixed map, never from
 * the query string, so it cannot inject SQL.
 */
export function orderAndPage(q: ListQuery, sortable: Record<string, SQL[]>, fallback: SQL[]): SQL {
  // An own key only: `constructor` or `__proto__` must never find Object.prototype's members.
  const columns = (q.sort && Object.hasOwn(sortable, q.sort) && sortable[q.sort]) || fallback;
  const dir = q.order === 'desc' ? sql`desc` : sql`asc`;
  // The direction applies to every expression of a key (name = last name, then first name).
  const keys = sql.join(
    columns.map((c) => sql`${c} ${dir} nulls last`),
    sql`, `,
  );
  const page = q.page ?? (q.pageSize ? 1 : undefined);
  const limit = page ? sql` limit ${q.pageSize ?? 50} offset ${(page - 1) * (q.pageSize ?? 50)}` : sql``;
  return sql`order by ${keys}, 1${limit}`;
}

/** `%term%` for ILIKE with the user's wildcards escaped. */
export function likePattern(search: string): string {
  return `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
