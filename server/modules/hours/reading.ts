// What every read of the hours starts from: the student the reader may see, and the day it stands at.
import type { Role } from '../../../common/roles.ts';
import type { DbOrTx } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import { badRequest } from '../../lib/errors.ts';
import { localDate } from '../../lib/school-time.ts';
import { assertMayReadStudent } from '../access/service.ts';
import { getSettings } from '../settings/service.ts';
import { selectLedgerStudent, type LedgerStudentRow } from './queries.ts';

type User = { id: number; role: Role };

/** The student a ledger is computed for, for a reader the access module lets see them (403/404 as it decides). */
export function readableStudent(db: DbOrTx, user: User, studentId: number): Promise<LedgerStudentRow> {
  return assertMayReadStudent(db, user, studentId, selectLedgerStudent);
}

export async function schoolToday(db: DbOrTx, clock: Clock): Promise<{ today: string; timeZone: string }> {
  const { timeZone } = (await getSettings(db)).attendance;
  return { today: localDate(clock.now(), timeZone), timeZone };
}

/**
 * The day a ledger read stands at: the date asked for (`field` names it in the error), default
 * today in the school's time zone, never after today. Hours are counted only for days that have
 * happened, and a ledger's cost grows with its days: a date in 2200 would walk and keep every day
 * to it for every student (decision 038). Every read that takes such a date comes through here.
 */
export async function ledgerAsOf(
  db: DbOrTx,
  clock: Clock,
  date: string | undefined,
  field = 'asOf',
): Promise<{ asOf: string; today: string; timeZone: string }> {
  const { today, timeZone } = await schoolToday(db, clock);
  if (date != null && date > today) {
    const message = `${field} must not be after today (${today} in the school's time zone): hours are counted only for days that have happened`;
    throw badRequest(message, [{ field, message }]);
  }
  return { asOf: date ?? today, today, timeZone };
}

/**
 * The student row a ledger is computed for (name and program included); undefined when there is
 * none. Unchecked: for a reader who is not staff (the student's own hours link).
 */
export function ledgerStudentUnchecked(db: DbOrTx, studentId: number): Promise<LedgerStudentRow | undefined> {
  return selectLedgerStudent(db, studentId);
}
