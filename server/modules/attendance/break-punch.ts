// A break punch of a checked-in student (docs/decisions/051): the break started or ended, the record's minutes and the audit entry.
import { SCAN_ALREADY_ON_BREAK, type AttendanceSubmitResult } from '../../../common/attendance.ts';
import type { Tx } from '../../db/client.ts';
import { AppError } from '../../lib/errors.ts';
import { recordAudit } from '../audit-logs/service.ts';
import { endBreak, insertBreak, setRecordMinutes, type CheckInRow, type StoredBreak } from './check-in-queries.ts';
import { breakEndsAt, minutesWithBreaks } from './punches.ts';
import { answer } from './punch-answer.ts';
import type { ClassWindow } from './rules.ts';

/** A break punch of a checked-in student, inside the submit's transaction, the record locked. */
type BreakPunchContext = {
  tx: Tx;
  record: CheckInRow & { scanInTime: Date; breaks: StoredBreak[] };
  window: ClassWindow;
  now: Date;
  deviceId: string;
  ip: string | null;
  courseName: string;
};

/**
 * The record's minutes after a break punch (a break never ended counts as leaving at its start, so
 * the roster shows what the punches give if nothing else happens), and the punch's audit entry.
 */
async function afterBreakPunch(p: BreakPunchContext, breaks: StoredBreak[], audit: { oldValues: Record<string, unknown>; newValues: Record<string, unknown> }) {
  const minutes = minutesWithBreaks(p.record.scanInTime, null, breaks, p.window);
  const updated = await setRecordMinutes(p.tx, p.record.id, { minutes, now: p.now });
  await recordAudit(p.tx, {
    userId: null,
    action: 'Update',
    tableName: 'attendance',
    recordId: p.record.id,
    ipAddress: p.ip,
    oldValues: { ...audit.oldValues, minutesAttended: p.record.minutesAttended },
    newValues: { ...audit.newValues, minutesAttended: minutes },
    at: p.now,
  });
  return updated;
}

export async function startBreak(p: BreakPunchContext, kind: 'break' | 'lunch'): Promise<AttendanceSubmitResult> {
  const started = await insertBreak(p.tx, { recordId: p.record.id, kind, at: p.now, deviceId: p.deviceId });
  // Another break opened meanwhile (an instructor's, for everyone): the student is on a break already.
  if (!started) throw new AppError(409, 'ON_BREAK', SCAN_ALREADY_ON_BREAK);
  const breaks = [...p.record.breaks, started];
  const updated = await afterBreakPunch(p, breaks, {
    oldValues: { onBreak: false },
    newValues: { onBreak: true, breakStarted: { id: started.id, kind, startedAt: p.now } },
  });
  return answer('break_started', updated, p.courseName, breaks, kind);
}

export async function endOpenBreak(p: BreakPunchContext, open: StoredBreak): Promise<AttendanceSubmitResult> {
  const endedAt = breakEndsAt(open, p.now);
  await endBreak(p.tx, open.id, { endedAt, deviceId: p.deviceId });
  const breaks = p.record.breaks.map((b) => (b.id === open.id ? { ...b, endedAt } : b));
  const updated = await afterBreakPunch(p, breaks, {
    oldValues: { onBreak: true },
    newValues: { onBreak: false, breakEnded: { id: open.id, kind: open.kind, startedAt: open.startedAt, endedAt, punchedAt: p.now } },
  });
  return answer('break_ended', updated, p.courseName, breaks, open.kind);
}
