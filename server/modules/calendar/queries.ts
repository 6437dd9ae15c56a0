import { and, asc, eq, gte, isNull, lte, or } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { calendarClosures, programs } from '../../db/schema/index.ts';

export type ClosureRow = Pick<typeof calendarClosures.$inferSelect, 'id' | 'startDate' | 'endDate' | 'name' | 'programId' | 'createdAt'> & {
  programName: string | null;
};
type ClosureValues = typeof calendarClosures.$inferInsert;

const closureColumns = {
  id: calendarClosures.id,
  startDate: calendarClosures.startDate,
  endDate: calendarClosures.endDate,
  name: calendarClosures.name,
  programId: calendarClosures.programId,
  programName: programs.programName,
  createdAt: calendarClosures.createdAt,
};

/**
 * Closures overlapping [from, to] (either end open), of the whole school and, when programId is
 * given, of that program only; without programId, every closure.
 */
export async function selectClosures(db: DbOrTx, filter: { from?: string; to?: string; programId?: number }): Promise<ClosureRow[]> {
  const conditions = [
    filter.from ? gte(calendarClosures.endDate, filter.from) : undefined,
    filter.to ? lte(calendarClosures.startDate, filter.to) : undefined,
    filter.programId != null ? or(isNull(calendarClosures.programId), eq(calendarClosures.programId, filter.programId)) : undefined,
  ];
  return db
    .select(closureColumns)
    .from(calendarClosures)
    .leftJoin(programs, eq(programs.id, calendarClosures.programId))
    .where(and(...conditions))
    .orderBy(asc(calendarClosures.startDate), asc(calendarClosures.id));
}

/** The date ranges of the closures overlapping [from, to] that close a program (null: school-wide ones only). */
export async function selectClosureRanges(
  db: DbOrTx,
  filter: { from: string; to: string; programId: number | null },
): Promise<{ startDate: string; endDate: string }[]> {
  const applies =
    filter.programId == null ? isNull(calendarClosures.programId) : or(isNull(calendarClosures.programId), eq(calendarClosures.programId, filter.programId));
  return db
    .select({ startDate: calendarClosures.startDate, endDate: calendarClosures.endDate })
    .from(calendarClosures)
    .where(and(gte(calendarClosures.endDate, filter.from), lte(calendarClosures.startDate, filter.to), applies));
}

export async function selectClosure(db: DbOrTx, id: number, opts: { forUpdate?: boolean } = {}): Promise<ClosureRow | undefined> {
  const q = db.select(closureColumns).from(calendarClosures).leftJoin(programs, eq(programs.id, calendarClosures.programId)).where(eq(calendarClosures.id, id));
  const [row] = opts.forUpdate ? await q.for('update', { of: calendarClosures }) : await q;
  return row;
}

export async function insertClosure(db: DbOrTx, values: ClosureValues): Promise<{ id: number }> {
  const [row] = await db.insert(calendarClosures).values(values).returning({ id: calendarClosures.id });
  return row!;
}

export async function deleteClosureRow(db: DbOrTx, id: number): Promise<void> {
  await db.delete(calendarClosures).where(eq(calendarClosures.id, id));
}
