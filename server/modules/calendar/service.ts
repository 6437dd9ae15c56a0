import type { Closure } from '../../../common/hours.ts';
import type { DbOrTx } from '../../db/client.ts';
import { selectClosures } from './queries.ts';

/** Closures overlapping [from, to] that apply to a program (school-wide ones and the program's own); all when no program. */
export async function listClosures(db: DbOrTx, filter: { from?: string; to?: string; programId?: number }): Promise<Closure[]> {
  return (await selectClosures(db, filter)).map((r) => ({ ...r, createdAt: r.createdAt.toISOString() }));
}
