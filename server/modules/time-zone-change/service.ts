import type { TimeZoneImpact } from '../../../common/settings.ts';
import type { DbOrTx } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import { localDate, zonedInstant } from '../../lib/school-time.ts';
import { withdrawalWatch } from '../compliance/service.ts';
import { getSettings } from '../settings/service.ts';
import { countClockedHistory } from './queries.ts';

// Its own module: the preview reads the compliance watch, and compliance reads the settings, so
// the settings module could not ask the watch itself without an import cycle.

const overdue = (rows: { state: string }[]) => rows.filter((r) => r.state === 'overdue').length;

/**
 * What changing the school's time zone to `timeZone` would recount, before anyone saves it
 * (decision 046). Class times are school-local clock times and check-ins are instants, so
 * every meeting of history is placed again on the new clock and every check-in measured again
 * against it. Counted here: how far class times move, how much history that is, and the
 * withdrawal watch now and on the new clock. The watch is the Compliance screen's own read, run
 * twice; the route is a heavy read (plugins/heavy-reads.ts), so its cost is bounded as that
 * screen's is. Writes nothing.
 */
export async function timeZoneImpact(db: DbOrTx, timeZone: string, clock: Clock): Promise<TimeZoneImpact> {
  const now = clock.now();
  const from = (await getSettings(db)).attendance.timeZone;
  const today = localDate(now, from);
  // A class at 08:00 today, on either clock.
  const classTimesMoveMinutes = Math.round((zonedInstant(today, 8 * 60, timeZone).getTime() - zonedInstant(today, 8 * 60, from).getTime()) / 60_000);
  const history = await countClockedHistory(db, now);
  const watchNow = await withdrawalWatch(db, {}, clock);
  const watchAfter = timeZone === from ? watchNow : await withdrawalWatch(db, { timeZone }, clock);
  return {
    from,
    to: timeZone,
    classTimesMoveMinutes,
    ...history,
    overdueWithdrawals: { now: overdue(watchNow), after: overdue(watchAfter) },
    onWithdrawalWatch: { now: watchNow.length, after: watchAfter.length },
  };
}
