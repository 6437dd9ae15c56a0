import type { Db } from '../db/client.ts';
import type { Clock } from '../lib/clock.ts';
import { markAbsentees as markAbsenteesNow } from '../modules/attendance/service.ts';

/** The auto-absent job: the attendance module does the work (idempotent, one instance at a time). */
export function markAbsentees(db: Db, clock: Clock): Promise<number> {
  return markAbsenteesNow(db, clock);
}
