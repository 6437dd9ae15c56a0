import { and, asc, eq, gte, isNull, lte, or } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { calendarClosures, programs } from '../../db/schema/index.ts';

export type ClosureRow = Pick<typeof calendarClosures.$inferSelect, 'id' | 'startDate' | 'endDate' | 'name' | 'programId' | 'createdAt'> & {
  programName: string | null;
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
    .select({
      id: calendarClosures.id,
      startDate: calendarClosures.startDate,
      endDate: calendarClosures.endDate,
      name: calendarClosures.name,
      programId: calendarClosures.programId,
      programName: programs.programName,
      createdAt: calendarClosures.createdAt,
    })
    .from(calendarClosures)
    .leftJoin(programs, eq(programs.id, calendarClosures.programId))
    .where(and(...conditions))
    .orderBy(asc(calendarClosures.startDate), asc(calendarClosures.id));
}
