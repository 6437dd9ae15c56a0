// The check-ins of one session that arrive together, read, inserted and proxy-checked as one batch each (submit.ts).
import type { Settings } from '../../../common/settings.ts';
import type { Db } from '../../db/client.ts';
import { keyedBatcher } from '../../lib/batcher.ts';
import { pgError } from '../../lib/db-errors.ts';
import { findPublicSession, type SessionRow } from '../qr-sessions/service.ts';
import { getSettings } from '../settings/service.ts';
import {
  checkInsSharingOrigin,
  deviceCheckIns,
  insertCheckIns,
  rosterCandidates,
  type Candidate,
  type CheckInMeeting,
  type InsertedCheckIn,
  type NewCheckIn,
} from './check-in-queries.ts';
import { sameOriginWindow } from './proxy-flags.ts';
import { classWindow, type ClassWindow } from './rules.ts';

type MeetingLook = {
  session: SessionRow | null;
  settings: Settings;
  /** The class's start and end as instants: worked out once a batch (time-zone arithmetic is not free). */
  window: ClassWindow | null;
  candidates: Candidate[];
  /** Students this device has checked in at the meeting (unlocked: the unique index has the last word). */
  deviceStudents: number[];
};
type CheckInBatch = { meeting: CheckInMeeting; row: NewCheckIn };
type OriginCheck = { recordId: number; studentId: number; ip: string | null; browserSignature: string; now: Date };

/**
 * A morning rush is a hundred phones on one session at once. Check-ins of one session that arrive
 * while its previous batch is at the database go together (lib/batcher.ts): one round of reads, one
 * insert statement, one proxy look for the whole batch, instead of nine statements each. What cannot
 * go in a batch (a second scan, a device conflict, a deadlock) takes the one-by-one path (submit.ts).
 */
function checkInBatchers(db: Db) {
  const reads = keyedBatcher<{ studentId: string; deviceId: string }, MeetingLook>(
    async (sessionUuid, items) => {
      const [session, candidates, devices, settings] = await Promise.all([
        findPublicSession(db, sessionUuid),
        rosterCandidates(
          db,
          sessionUuid,
          items.map((i) => i.studentId),
        ),
        deviceCheckIns(
          db,
          sessionUuid,
          items.map((i) => i.deviceId),
        ),
        getSettings(db),
      ]);
      const window = session && classWindow(session.sessionDate, session.startTime, session.endTime, settings.attendance.timeZone, session.breaks);
      return items.map((item, k) => ({
        session,
        settings,
        window,
        candidates: candidates[k]!,
        deviceStudents: devices.filter((d) => d.deviceId === item.deviceId).map((d) => d.studentId),
      }));
    },
    { maxBatch: 200 },
  );
  const inserts = keyedBatcher<CheckInBatch, InsertedCheckIn | null>(
    async (_, items) => {
      // A (student, device) pair goes in once; a repeat in the same batch is a retry, answered one by one.
      const seen = new Set<string>();
      const first = items.map((i) => {
        const key = `${i.row.studentId}|${i.row.deviceId}`;
        return seen.has(key) ? false : (seen.add(key), true);
      });
      let inserted: InsertedCheckIn[];
      try {
        inserted = await insertCheckIns(
          db,
          items[0]!.meeting,
          items.filter((_, k) => first[k]).map((i) => i.row),
        );
      } catch (err) {
        // Two batches waiting on each other's rows: PostgreSQL cancels one; its check-ins go one by one.
        if (pgError(err).code === '40P01') return items.map(() => null);
        throw err;
      }
      return items.map((i, k) => (first[k] ? (inserted.find((r) => r.studentId === i.row.studentId && r.deviceId === i.row.deviceId) ?? null) : null));
    },
    { maxBatch: 200 },
  );
  const origins = keyedBatcher<OriginCheck, boolean>(
    async (qrSessionId, items) => {
      const shared = await checkInsSharingOrigin(
        db,
        Number(qrSessionId),
        items.map((i) => ({ ...i, ...sameOriginWindow(i.now) })),
      );
      return items.map((i) => shared.has(i.recordId));
    },
    { maxBatch: 200 },
  );
  return { reads, inserts, origins };
}
const batchersByDb = new WeakMap<Db, ReturnType<typeof checkInBatchers>>();
export function batchersOf(db: Db) {
  let b = batchersByDb.get(db);
  if (!b) batchersByDb.set(db, (b = checkInBatchers(db)));
  return b;
}
