// The monthly hours report's rows: one per student enrolled during the month, from the same ledger as everything else.
import type { MONTHLY_HOURS_COLUMNS } from '../../../common/compliance.ts';
import { timeClockHours } from '../../../common/hours.ts';
import type { DbOrTx } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import { addDays } from '../../../common/dates.ts';
import { sumsBetween } from '../hours/service.ts';
import { enrolledLedgers, hours, percent, schoolToday } from './enrolled-ledgers.ts';

/** The month's first and last days. */
function monthRange(month: string): { from: string; to: string } {
  const [y, m] = month.split('-').map(Number) as [number, number];
  const last = new Date(Date.UTC(y, m, 0)).getUTCDate();
  return { from: `${month}-01`, to: `${month}-${String(last).padStart(2, '0')}` };
}

export type MonthlyHoursRow = Record<(typeof MONTHLY_HOURS_COLUMNS)[number], string | number | null>;

/**
 * One row per student enrolled during the month (started by its end, not withdrawn before it):
 * the month's hours and the cumulative credited hours at its end, from the same ledger.
 */
export async function* monthlyHoursRows(db: DbOrTx, q: { month: string; programId?: number }, clock: Clock): AsyncGenerator<MonthlyHoursRow> {
  const { today, timeZone } = await schoolToday(db, clock);
  const { from, to } = monthRange(q.month);
  const dayBefore = addDays(from, -1);
  // Today's ledgers, read at the month's ends: the days through the month are the same whatever the date.
  for await (const { student, ledger } of enrolledLedgers(db, {
    programId: q.programId,
    asOf: today,
    timeZone,
    now: clock.now(),
    statuses: ['enrolled', 'active', 'loa', 'withdrawn', 'graduated', 'suspended', 'inactive'],
    sums: { dates: () => [dayBefore, to] },
  })) {
    if (!ledger.startDate || ledger.startDate > to) continue;
    if (ledger.withdrawalDate && ledger.withdrawalDate < from) continue;
    const atEnd = ledger.sumsAt(to);
    const inMonth = sumsBetween(ledger.sumsAt(dayBefore), atEnd);
    const sum = (k: 'scheduledMinutes' | 'attendedMinutes' | 'makeUpMinutes' | 'creditedMinutes') => inMonth[k];
    if (student.status !== 'enrolled' && student.status !== 'active' && student.status !== 'loa' && sum('scheduledMinutes') + sum('creditedMinutes') === 0)
      continue;
    yield {
      sisStudentId: student.sisStudentId,
      firstName: student.firstName,
      lastName: student.lastName,
      programName: student.programName,
      month: q.month,
      scheduledHours: hours(sum('scheduledMinutes')),
      attendedHours: hours(sum('attendedMinutes')),
      makeUpHours: hours(sum('makeUpMinutes')),
      creditedHours: hours(sum('creditedMinutes')),
      cumulativeCreditedHours: hours(atEnd.creditedMinutes + ledger.totals.openingCreditedMinutes),
      attendancePercent: percent(sum('creditedMinutes'), sum('scheduledMinutes')),
      status: student.status,
      // Once a withdrawal is recorded, its LDA is the one frozen with it.
      lastDateOfAttendance: ledger.withdrawalDate ? ledger.lastDateOfAttendance : atEnd.lastAttended,
      // What Credited holds besides Attended and Make-up (excused time within the cap), taken from
      // the rounded figures so that each line adds up as printed.
      excusedCreditedHours: Math.round((hours(sum('creditedMinutes')) - hours(sum('attendedMinutes')) - hours(sum('makeUpMinutes'))) * 100) / 100,
      ...timeClockHours([inMonth]),
    };
  }
}
