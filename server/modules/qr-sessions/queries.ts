import { and, desc, eq, gt, lte, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { userFullName } from '../../db/user-name.ts';
import { courses, meetingBreaks, qrSessions, schedules, users } from '../../db/schema/index.ts';

// Queries of the qr-sessions module: each takes the database or a transaction first.

// The scan page, the dashboard and the attendance rules take class times as HH:MM.
const hhmm = (time: typeof schedules.startTime | typeof schedules.endTime) => sql<string>`to_char(${time}, 'HH24:MI')`;

/**
 * The ended instructor-led breaks of the meeting (schedule, date) as [from, to] in epoch ms, in
 * order: they are not scheduled time, so a record written after one leaves it out (decision 052).
 */
const endedMeetingBreaksJson = (scheduleId: SQL | typeof qrSessions.scheduleId, sessionDate: SQL | typeof qrSessions.sessionDate) => sql<
  [number, number][]
>`coalesce((
  select jsonb_agg(jsonb_build_array((extract(epoch from mb.started_at) * 1000)::float8, (extract(epoch from mb.ended_at) * 1000)::float8) order by mb.started_at)
    from meeting_breaks mb where mb.schedule_id = ${scheduleId} and mb.session_date = ${sessionDate} and mb.ended_at is not null), '[]'::jsonb)`;

const sessionColumns = {
  id: qrSessions.id,
  sessionId: qrSessions.sessionId,
  scheduleId: qrSessions.scheduleId,
  tokenSecret: qrSessions.tokenSecret,
  sessionDate: qrSessions.sessionDate,
  createdAt: qrSessions.createdAt,
  expiresAt: qrSessions.expiresAt,
  endedAt: qrSessions.endedAt,
  isActive: qrSessions.isActive,
  instructorId: schedules.instructorId,
  instructorName: userFullName,
  courseName: courses.courseName,
  courseCode: courses.courseCode,
  roomNumber: schedules.roomNumber,
  startTime: hhmm(schedules.startTime),
  endTime: hhmm(schedules.endTime),
  breaks: schedules.breaks,
  instructorBreaks: endedMeetingBreaksJson(qrSessions.scheduleId, qrSessions.sessionDate),
};

/** A session with what the screens and the check-in need about its class (its scheduled breaks, its meeting's ended instructor-led breaks). */
export type SessionRow = Pick<
  typeof qrSessions.$inferSelect,
  'id' | 'sessionId' | 'scheduleId' | 'tokenSecret' | 'sessionDate' | 'createdAt' | 'expiresAt' | 'endedAt' | 'isActive'
> &
  Pick<typeof schedules.$inferSelect, 'instructorId' | 'roomNumber' | 'breaks'> &
  Pick<typeof courses.$inferSelect, 'courseName' | 'courseCode'> & {
    instructorName: string | null;
    startTime: string;
    endTime: string;
    instructorBreaks: [number, number][];
  };

function selectSessions(db: DbOrTx, where: SQL | undefined) {
  return db
    .select(sessionColumns)
    .from(qrSessions)
    .innerJoin(schedules, eq(schedules.id, qrSessions.scheduleId))
    .innerJoin(courses, eq(courses.id, schedules.courseId))
    .leftJoin(users, eq(users.id, schedules.instructorId))
    .where(where);
}

export async function sessionById(db: DbOrTx, id: number): Promise<SessionRow | null> {
  const [row] = await selectSessions(db, eq(qrSessions.id, id));
  return row ?? null;
}

export async function sessionByUuid(db: DbOrTx, sessionUuid: string): Promise<SessionRow | null> {
  // Prepared (parsed and planned once per connection): every check-in of a rush reads its session.
  const [row] = await selectSessions(db, eq(qrSessions.sessionId, sessionUuid)).prepare('qr_session_by_uuid').execute();
  return row ?? null;
}

/** Open sessions (not ended, not expired), of one instructor's schedules when given, newest first. */
export async function openSessions(db: DbOrTx, now: Date, instructorId: number | null): Promise<SessionRow[]> {
  const own = instructorId == null ? undefined : eq(schedules.instructorId, instructorId);
  return selectSessions(db, and(eq(qrSessions.isActive, true), gt(qrSessions.expiresAt, now), own)).orderBy(desc(qrSessions.createdAt));
}

/** Close sessions past their expiry; the number closed. */
export async function closeExpired(db: DbOrTx, now: Date, scheduleId?: number): Promise<number> {
  const result = await db
    .update(qrSessions)
    .set({ isActive: false, endedAt: sql`coalesce(${qrSessions.endedAt}, ${qrSessions.expiresAt})` })
    .where(and(eq(qrSessions.isActive, true), lte(qrSessions.expiresAt, now), scheduleId == null ? undefined : eq(qrSessions.scheduleId, scheduleId)));
  return result.rowCount ?? 0;
}

export async function insertSession(
  tx: DbOrTx,
  s: Pick<typeof qrSessions.$inferInsert, 'scheduleId' | 'createdBy' | 'tokenSecret' | 'sessionDate' | 'createdAt' | 'expiresAt'>,
): Promise<number> {
  const [row] = await tx.insert(qrSessions).values(s).returning({ id: qrSessions.id });
  return row!.id;
}

/** End a session now, or keep the earlier of its end and expiry. */
export async function endSessionNow(tx: DbOrTx, id: number, now: Date): Promise<void> {
  await tx
    .update(qrSessions)
    .set({ isActive: false, endedAt: sql`least(coalesce(${qrSessions.endedAt}, ${now}), ${qrSessions.expiresAt})` })
    .where(eq(qrSessions.id, id));
}

/** Hold a session's row until the transaction ends (extensions one after the other). */
export async function lockSession(tx: DbOrTx, id: number): Promise<void> {
  await tx.select({ id: qrSessions.id }).from(qrSessions).where(eq(qrSessions.id, id)).for('update');
}

/** A session's new close (an extension). */
export async function setSessionExpiry(tx: DbOrTx, id: number, expiresAt: Date): Promise<void> {
  await tx.update(qrSessions).set({ expiresAt }).where(eq(qrSessions.id, id));
}

export type RecentMeeting = Pick<typeof qrSessions.$inferSelect, 'scheduleId' | 'sessionDate'> &
  Pick<typeof schedules.$inferSelect, 'breaks'> & { startTime: string; endTime: string; instructorBreaks: [number, number][] };

/** Meetings (schedule + date) that had a QR session in the last two weeks, with their class times (HH:MM) and breaks. */
export async function recentSessionMeetings(tx: DbOrTx, now: Date): Promise<RecentMeeting[]> {
  return tx
    .selectDistinct({
      scheduleId: qrSessions.scheduleId,
      sessionDate: qrSessions.sessionDate,
      startTime: hhmm(schedules.startTime),
      endTime: hhmm(schedules.endTime),
      breaks: schedules.breaks,
      instructorBreaks: endedMeetingBreaksJson(qrSessions.scheduleId, qrSessions.sessionDate),
    })
    .from(qrSessions)
    .innerJoin(schedules, eq(schedules.id, qrSessions.scheduleId))
    .where(sql`${qrSessions.sessionDate} >= (${now}::timestamptz - interval '14 days')::date`);
}

// ---- Instructor-led breaks (meeting_breaks; docs/decisions/052) ----

export type MeetingBreakRow = Pick<typeof meetingBreaks.$inferSelect, 'id' | 'scheduleId' | 'sessionDate' | 'startedAt' | 'endedAt' | 'recheckUntil'>;
const meetingBreakColumns = {
  id: meetingBreaks.id,
  scheduleId: meetingBreaks.scheduleId,
  sessionDate: meetingBreaks.sessionDate,
  startedAt: meetingBreaks.startedAt,
  endedAt: meetingBreaks.endedAt,
  recheckUntil: meetingBreaks.recheckUntil,
};
const ofMeeting = (m: { scheduleId: number; sessionDate: string }) =>
  and(eq(meetingBreaks.scheduleId, m.scheduleId), eq(meetingBreaks.sessionDate, m.sessionDate));

/** The meeting's open break or, when none is open, its latest one; null when it had none. */
export async function latestMeetingBreak(db: DbOrTx, m: { scheduleId: number; sessionDate: string }): Promise<MeetingBreakRow | null> {
  const [row] = await db
    .select(meetingBreakColumns)
    .from(meetingBreaks)
    .where(ofMeeting(m))
    .orderBy(sql`${meetingBreaks.endedAt} is null desc`, desc(meetingBreaks.startedAt), desc(meetingBreaks.id))
    .limit(1);
  return row ?? null;
}

/** The meeting's ended breaks as [from, to] epoch ms, in order. */
export async function endedMeetingBreaks(db: DbOrTx, m: { scheduleId: number; sessionDate: string }): Promise<[number, number][]> {
  const { rows } = await db.execute<{ breaks: [number, number][] }>(
    sql`select ${endedMeetingBreaksJson(sql`${m.scheduleId}::int`, sql`${m.sessionDate}::date`)} as breaks`,
  );
  return rows[0]?.breaks ?? [];
}

/** Retention: sessions of meetings before `cutoffDate` that no attendance record points at any more. */
export async function deleteSessionsBefore(tx: DbOrTx, cutoffDate: string): Promise<number> {
  const result = await tx.execute(sql`delete from ${qrSessions} s
    where s.session_date < ${cutoffDate}::date and not exists (select 1 from attendance_records a where a.qr_session_id = s.id)`);
  return result.rowCount ?? 0;
}
