// The hours CSV (GET /api/export/hours): every student's hours over a range, streamed in batches.
import { HOURS_EXPORT_COLUMNS, timeClockHours } from '../../../common/hours.ts';
import type { DbOrTx } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import { csvDownloadHeaders, csvFromRows } from '../../lib/csv.ts';
import { sliceYielder } from '../../lib/event-loop-turns.ts';
import { WHOLE_SCHOOL } from '../access/service.ts';
import { recordAudit } from '../audit-logs/service.ts';
import { addDays } from '../../../common/dates.ts';
import { keptLedgersFor, sumsBetween } from './kept-ledgers.ts';
import { LEDGER_BATCH_STUDENTS as EXPORT_BATCH } from './ledgers.ts';
import { selectHoursStudents } from './queries.ts';
import { ledgerAsOf } from './reading.ts';
import { hoursOfMinutes as hours } from '../../../common/hours.ts';

type Ctx = { clock: Clock; ip: string | null };

async function* hoursExportRows(db: DbOrTx, q: { programId?: number; from?: string; to: string }, timeZone: string, now: Date) {
  let afterId = 0;
  for (;;) {
    const list = await selectHoursStudents(db, { programId: q.programId, scope: WHOLE_SCHOOL, sort: 'lastName', order: 'asc', limit: EXPORT_BATCH, afterId });
    if (list.length === 0) return;
    const dayBefore = q.from ? addDays(q.from, -1) : null;
    const ledgers = await keptLedgersFor(db, list, q.to, timeZone, now, { dates: () => (dayBefore ? [dayBefore, q.to] : [q.to]) });
    const pause = sliceYielder();
    for (const s of list) {
      await pause();
      const l = ledgers.get(s.id)!;
      const days = dayBefore ? sumsBetween(l.sumsAt(dayBefore), l.sumsAt(q.to)) : l.sumsAt(q.to);
      const sum = (k: 'scheduledMinutes' | 'attendedMinutes' | 'excusedMinutes' | 'makeUpMinutes') => days[k];
      // Credited within the range: what the ledger credited by `to` less what it had credited the day before `from`.
      const credited = dayBefore ? days.creditedMinutes : l.totals.creditedMinutes;
      const scheduled = sum('scheduledMinutes');
      const current = l.paymentPeriods.find((p) => p.status !== 'completed');
      yield {
        sisStudentId: s.sisStudentId,
        studentId: s.id,
        firstName: s.firstName,
        lastName: s.lastName,
        programName: s.programName,
        from: q.from ?? l.startDate,
        to: q.to,
        scheduledHours: hours(scheduled),
        attendedHours: hours(sum('attendedMinutes')),
        excusedHours: hours(sum('excusedMinutes')),
        makeUpHours: hours(sum('makeUpMinutes')),
        creditedHours: hours(credited),
        attendancePercent: scheduled > 0 ? Math.round((credited / scheduled) * 1000) / 10 : null,
        paymentPeriod: current?.number ?? null,
        hoursToNextPaymentPeriod: current?.hoursRemaining ?? null,
        lastDateOfAttendance: l.lastDateOfAttendance,
        ...timeClockHours([days]),
      } satisfies Record<(typeof HOURS_EXPORT_COLUMNS)[number], unknown>;
    }
    if (list.length < EXPORT_BATCH) return;
    afterId = list[list.length - 1]!.id;
  }
}

/** GET /api/export/hours: audited as it starts, streamed in batches of students. */
export async function exportHours(db: DbOrTx, q: { programId?: number; from?: string; to?: string }, ctx: Ctx & { actorId: number }) {
  const { asOf: to, timeZone } = await ledgerAsOf(db, ctx.clock, q.to, 'to');
  const fileName = `hours_export_${to}.csv`;
  await recordAudit(db, { userId: ctx.actorId, action: 'Export', tableName: 'hours', ipAddress: ctx.ip, newValues: { ...q, to, fileName } });
  return { headers: csvDownloadHeaders(fileName), stream: csvFromRows(HOURS_EXPORT_COLUMNS, hoursExportRows(db, { ...q, to }, timeZone, ctx.clock.now())) };
}
