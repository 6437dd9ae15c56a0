import { and, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import { ATTENDED_STATUSES } from '../../../common/constants.ts';
import type { DbOrTx } from '../../db/client.ts';
import { attendanceRecords, meetingBreaks } from '../../db/schema/index.ts';

// Queries of the meeting-breaks module (instructor-led breaks, docs/decisions/052): each takes the
// database or a transaction first. The qr-sessions module reads the breaks with its sessions.

type Meeting = { scheduleId: number; sessionDate: string };
const ofMeeting = (m: Meeting) => and(eq(meetingBreaks.scheduleId, m.scheduleId), eq(meetingBreaks.sessionDate, m.sessionDate));

/** The meeting's open break, locked until the transaction ends; null when none is open. */
export async function lockOpenMeetingBreak(tx: DbOrTx, m: Meeting): Promise<{ id: number; startedAt: Date } | null> {
  const [row] = await tx
    .select({ id: meetingBreaks.id, startedAt: meetingBreaks.startedAt })
    .from(meetingBreaks)
    .where(and(ofMeeting(m), isNull(meetingBreaks.endedAt)))
    .for('update');
  return row ?? null;
}

/** A break for everyone, started now; its id (meeting_breaks_one_open refuses a second open one). */
export async function insertMeetingBreak(
  tx: DbOrTx,
  b: Pick<typeof meetingBreaks.$inferInsert, 'scheduleId' | 'sessionDate' | 'qrSessionId' | 'startedAt' | 'startedBy'>,
): Promise<number> {
  const [row] = await tx.insert(meetingBreaks).values(b).returning({ id: meetingBreaks.id });
  return row!.id;
}

/**
 * Everyone checked in at the meeting (a check-in, no check-out, an attended status) and not out on a
 * break of their own goes on the instructor's break from `at`; the ids of their records.
 */
export async function checkOutForMeetingBreak(tx: DbOrTx, b: Meeting & { meetingBreakId: number; at: Date }): Promise<number[]> {
  const at = sql`${b.at.toISOString()}::timestamptz`;
  const { rows } = await tx.execute<{ record_id: number }>(sql`
    insert into attendance_breaks (record_id, kind, started_at, meeting_break_id, created_at)
    select r.id, 'instructor', ${at}, ${b.meetingBreakId}, ${at}
      from ${attendanceRecords} r
     where r.schedule_id = ${b.scheduleId} and r.session_date = ${b.sessionDate}::date
       and r.scan_in_time is not null and r.scan_out_time is null
       and r.status in (${sql.join(
         ATTENDED_STATUSES.map((x) => sql`${x}`),
         sql`, `,
       )})
       and not exists (select 1 from attendance_breaks o where o.record_id = r.id and o.ended_at is null)
    on conflict (record_id) where ended_at is null do nothing
    returning record_id`);
  return rows.map((r) => Number(r.record_id));
}

/** How many students the break checked out are not back yet. */
export async function studentsStillOnBreak(db: DbOrTx, meetingBreakId: number): Promise<number> {
  const { rows } = await db.execute<{ n: number }>(
    sql`select count(*)::int as n from attendance_breaks where meeting_break_id = ${meetingBreakId} and ended_at is null`,
  );
  return Number(rows[0]?.n ?? 0);
}

export async function endMeetingBreakRow(tx: DbOrTx, id: number, e: { endedAt: Date; recheckUntil: Date; endedBy: number }): Promise<void> {
  await tx.update(meetingBreaks).set(e).where(eq(meetingBreaks.id, id));
}

/** The meeting's records lose `minutes` of scheduled time (an instructor-led break just ended); how many changed. */
export async function reduceScheduledMinutes(tx: DbOrTx, m: Meeting & { minutes: number; now: Date }): Promise<number> {
  if (m.minutes <= 0) return 0;
  const result = await tx
    .update(attendanceRecords)
    .set({ scheduledMinutes: sql`greatest(0, ${attendanceRecords.scheduledMinutes} - ${m.minutes})`, updatedAt: m.now })
    .where(
      and(eq(attendanceRecords.scheduleId, m.scheduleId), eq(attendanceRecords.sessionDate, m.sessionDate), isNotNull(attendanceRecords.scheduledMinutes)),
    );
  return result.rowCount ?? 0;
}
