import type { Closure } from '../../../common/calendar.ts';
import { addDays } from '../../../common/dates.ts';
import type { Db, DbOrTx } from '../../db/client.ts';
import { badRequest, notFound } from '../../lib/errors.ts';
import { recordAudit } from '../audit-logs/service.ts';
import { findProgramName } from '../programs/service.ts';
import { deleteClosureRow, insertClosure, selectClosure, selectClosureRanges, selectClosures, type ClosureRow } from './queries.ts';

type Ctx = { actorId: number; ip: string | null };
type ClosureInput = { startDate: string; endDate: string; name: string; programId: number | null };

const toClosure = (r: ClosureRow): Closure => ({ ...r, createdAt: r.createdAt.toISOString() });

/** Closures overlapping [from, to] that apply to a program (school-wide ones and the program's own); all when no program. */
export async function listClosures(db: DbOrTx, filter: { from?: string; to?: string; programId?: number }): Promise<Closure[]> {
  return (await selectClosures(db, filter)).map(toClosure);
}

/**
 * Every day (YYYY-MM-DD) in [from, to] on which a program does not meet: the school's closures and
 * the program's own; with programId null, the school's only. The ledger skips these days.
 */
export async function closedDates(db: DbOrTx, filter: { from: string; to: string; programId: number | null }): Promise<Set<string>> {
  const closed = new Set<string>();
  if (filter.from > filter.to) return closed;
  for (const r of await selectClosureRanges(db, filter)) {
    const last = r.endDate < filter.to ? r.endDate : filter.to;
    for (let d = r.startDate > filter.from ? r.startDate : filter.from; d <= last; d = addDays(d, 1)) closed.add(d);
  }
  return closed;
}

export async function createClosure(db: Db, input: ClosureInput, ctx: Ctx): Promise<Closure> {
  return db.transaction(async (tx) => {
    if (input.programId != null && (await findProgramName(tx, input.programId)) === undefined) {
      throw badRequest('Program does not exist', [{ field: 'programId', message: `No program with id ${input.programId}` }]);
    }
    const { id } = await insertClosure(tx, { ...input, createdBy: ctx.actorId });
    await recordAudit(tx, { userId: ctx.actorId, action: 'Create', tableName: 'calendar_closures', recordId: id, ipAddress: ctx.ip, newValues: input });
    return toClosure((await selectClosure(tx, id))!);
  });
}

export async function deleteClosure(db: Db, id: number, ctx: Ctx): Promise<void> {
  await db.transaction(async (tx) => {
    const before = await selectClosure(tx, id, { forUpdate: true });
    if (!before) throw notFound('Closure');
    await deleteClosureRow(tx, id);
    const { startDate, endDate, name, programId, programName } = before;
    await recordAudit(tx, {
      userId: ctx.actorId,
      action: 'Delete',
      tableName: 'calendar_closures',
      recordId: id,
      ipAddress: ctx.ip,
      oldValues: { startDate, endDate, name, programId, programName },
    });
  });
}
