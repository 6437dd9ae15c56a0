// The students' ledgers walked batch by batch, the school's today, and the rounding the lists and reports share.
import type { StudentStatus } from '../../../common/constants.ts';
import type { DbOrTx } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import { localDate } from '../../lib/school-time.ts';
import { sliceYielder } from '../../lib/event-loop-turns.ts';
import { giveWay } from '../../lib/give-way.ts';
import { keptLedgersFor, type SumKey, type SumsWanted } from '../hours/service.ts';
import { getSettings } from '../settings/service.ts';
import { selectStudentsBatch, type CandidateRow } from './queries.ts';
export { hoursOfMinutes as hours } from '../../../common/hours.ts';

/**
 * Students per batch of a compliance read. Kept ledgers walk a few days each, so a batch's dozen
 * statements serve many students (each statement costs a round trip and a wake-up of both
 * processes); keptLedgersFor walks the few students not kept in smaller parts of their own.
 */
const BATCH = 2500;

/** Students still expected in class: the watch and the compliance lists are about them. */
const ENROLLED: StudentStatus[] = ['enrolled', 'active', 'loa'];

export async function schoolToday(db: DbOrTx, clock: Clock): Promise<{ today: string; timeZone: string }> {
  const { timeZone } = (await getSettings(db)).attendance;
  return { today: localDate(clock.now(), timeZone), timeZone };
}
export const percent = (part: number, whole: number) => (whole > 0 ? Math.round((part / whole) * 1000) / 10 : null);

/**
 * The students' ledgers (kept ones walk only the days since, kept-ledgers.ts), batch by batch;
 * `sums`: the dates each student's running figures are wanted at, and which figures.
 */
export async function* enrolledLedgers<K extends SumKey = SumKey>(
  db: DbOrTx,
  f: {
    programId?: number;
    asOf: string;
    timeZone: string;
    now: Date;
    statuses?: readonly StudentStatus[];
    sums?: SumsWanted<CandidateRow, K>;
  },
) {
  const settings = await getSettings(db);
  const next = async (afterId: number) => {
    // Heavy work's statements wait their turn behind the requests being answered (lib/give-way.ts).
    await giveWay();
    return selectStudentsBatch(db, { statuses: f.statuses ?? ENROLLED, programId: f.programId, afterId, limit: BATCH });
  };
  const load = (batch: CandidateRow[]) => {
    const ledgers = keptLedgersFor(db, batch, f.asOf, f.timeZone, f.now, f.sums, settings);
    // Awaited below; a caller that stops early leaves it to finish unheard.
    ledgers.catch(() => {});
    return ledgers;
  };
  let batch = await next(0);
  let loading = batch.length > 0 ? load(batch) : null;
  while (loading) {
    const ledgers = await loading;
    // The next batch loads (PostgreSQL's work) while this one is handed out (this process's work).
    const following = batch.length < BATCH ? [] : await next(batch[batch.length - 1]!.id);
    loading = following.length > 0 ? load(following) : null;
    // What the caller does with each student lets waiting I/O through now and then.
    const pause = sliceYielder();
    for (const s of batch) {
      await pause();
      yield { student: s, ledger: ledgers.get(s.id)! };
    }
    batch = following;
  }
}
