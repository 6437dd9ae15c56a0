// Instructor-led breaks (docs/decisions/052) as a session's meeting has them.
import type { MeetingBreak } from '../../../common/qr-sessions.ts';
import type { DbOrTx } from '../../db/client.ts';
import { endedMeetingBreaks, latestMeetingBreak, type MeetingBreakRow } from './queries.ts';

/** A meeting break as the routes answer it. */
export const toMeetingBreak = (b: MeetingBreakRow): MeetingBreak => ({
  id: b.id,
  startedAt: b.startedAt.toISOString(),
  endedAt: b.endedAt?.toISOString() ?? null,
  recheckUntil: b.recheckUntil?.toISOString() ?? null,
});

type Meeting = { scheduleId: number; sessionDate: string };

/** A meeting's open break or, when none is open, its latest (a re-check-in reads its window); null when it had none. */
export async function meetingBreakOf(db: DbOrTx, meeting: Meeting): Promise<MeetingBreakRow | null> {
  return latestMeetingBreak(db, meeting);
}

/** A meeting's ended instructor-led breaks as [from, to] epoch ms, in order: not scheduled time (rules.ts scheduledMinutes). */
export async function endedMeetingBreaksOf(db: DbOrTx, meeting: Meeting): Promise<[number, number][]> {
  return endedMeetingBreaks(db, meeting);
}
