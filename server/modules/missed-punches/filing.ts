// Filing: a student's request checked field by field and stored pending, audited.
import { missedPunchFormSchema, type MissedPunchSource } from '../../../common/missed-punches.ts';
import { minutesOfDay, zonedInstant } from '../../lib/school-time.ts';
import { classWindow } from '../attendance/service.ts';
import { recordAudit } from '../audit-logs/service.ts';
import { getSettings } from '../settings/service.ts';
import { missedMeetingsOfDevice, missedMeetingsOfStudent, type MissedMeeting, type MissedPunchDeps } from './missed-meetings.ts';
import { insertRequest } from './queries.ts';

/** Who asks: the student an hours link names, or the phone (device cookie) that checked in. */
export type Filer = { studentId: number } | { deviceId: string };

export type FilingField = 'checkIn' | 'checkOut' | 'reason';
/** Why a field was refused, for the page to say in the student's language (times HH:MM, school time). */
export type FilingProblem =
  | { field: FilingField; code: 'required' | 'invalid' | 'too_long' }
  | { field: 'checkIn' | 'checkOut'; code: 'outside_class'; start: string; end: string }
  | { field: 'checkOut'; code: 'before_check_in'; after: Date };

type FilingOutcome =
  | { kind: 'filed'; requestId: number; meeting: MissedMeeting }
  | { kind: 'already_asked' }
  /** Not a meeting this student or phone may ask about (now): the same answer whoever asks. */
  | { kind: 'not_available' }
  | { kind: 'invalid'; meeting: MissedMeeting; problems: FilingProblem[]; values: { checkIn: string; checkOut: string; reason: string } };

/** HH:MM school time on the meeting's day; a class crossing midnight puts times before its start on the next day. */
function instantOf(m: Pick<MissedMeeting, 'sessionDate' | 'startTime' | 'endTime'>, hhmm: string, timeZone: string): Date {
  const start = minutesOfDay(m.startTime);
  const crosses = minutesOfDay(m.endTime) <= start;
  const minutes = minutesOfDay(hhmm);
  return zonedInstant(m.sessionDate, crosses && minutes < start ? minutes + 24 * 60 : minutes, timeZone);
}

const text = (body: Record<string, unknown>, name: string) => (typeof body[name] === 'string' ? (body[name] as string) : '');

/**
 * A student's request, checked and stored pending with an audit entry in one transaction. The
 * meeting must be one of the filer's missed meetings (missedMeetingsOf…) without a pending request;
 * a missed check-out needs the time they left, a missed check-in both times; each within the class,
 * the check-out after the check-in (and after the last break). The form's fields are checked by
 * common/missed-punches.ts's schema; each refusal comes back as a problem for the page to show.
 */
export async function fileMissedPunch(
  deps: MissedPunchDeps,
  filer: Filer,
  source: MissedPunchSource,
  rawBody: unknown,
  ip: string | null,
): Promise<FilingOutcome> {
  const body = (typeof rawBody === 'object' && rawBody !== null ? rawBody : {}) as Record<string, unknown>;
  const which = missedPunchFormSchema.pick({ scheduleId: true, sessionDate: true }).safeParse(body);
  if (!which.success) return { kind: 'not_available' };
  const meetings = 'studentId' in filer ? await missedMeetingsOfStudent(deps, filer.studentId) : await missedMeetingsOfDevice(deps, filer.deviceId);
  const meeting = meetings.find((m) => m.scheduleId === which.data.scheduleId && m.sessionDate === which.data.sessionDate);
  if (!meeting) return { kind: 'not_available' };
  if (meeting.pending) return { kind: 'already_asked' };

  const values = { checkIn: text(body, 'checkIn'), checkOut: text(body, 'checkOut'), reason: text(body, 'reason') };
  // A missed check-out asks only when they left; a missed check-in, both times.
  const needed: ('checkIn' | 'checkOut')[] = meeting.missing === 'check_in' ? ['checkIn', 'checkOut'] : ['checkOut'];
  // A time the meeting does not ask for is not read.
  const parsed = missedPunchFormSchema.safeParse(needed.includes('checkIn') ? body : { ...body, checkIn: undefined });
  const problems: FilingProblem[] = [];
  const refused = new Set<string>();
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = String(issue.path[0]) as FilingField;
      if (refused.has(field)) continue;
      refused.add(field);
      problems.push({ field, code: field === 'reason' ? (issue.code === 'too_big' ? 'too_long' : 'required') : 'invalid' });
    }
  }
  const given = { checkIn: parsed.success ? parsed.data.checkIn : undefined, checkOut: parsed.success ? parsed.data.checkOut : undefined };
  if (!parsed.success) {
    // The times that did parse are still checked against the class, so every field says what is wrong at once.
    for (const f of ['checkIn', 'checkOut'] as const) if (!refused.has(f) && values[f].trim()) given[f] = values[f].trim().slice(0, 5);
  }
  const { timeZone } = (await getSettings(deps.db)).attendance;
  const window = classWindow(meeting.sessionDate, meeting.startTime, meeting.endTime, timeZone);
  const at: { checkIn: Date | null; checkOut: Date | null } = { checkIn: null, checkOut: null };
  for (const f of needed) {
    if (refused.has(f)) continue;
    const hhmm = given[f];
    if (!hhmm) {
      problems.push({ field: f, code: 'required' });
      continue;
    }
    const instant = instantOf(meeting, hhmm, timeZone);
    if (instant < window.start || instant > window.end) problems.push({ field: f, code: 'outside_class', start: meeting.startTime, end: meeting.endTime });
    else at[f] = instant;
  }
  const after = at.checkIn ?? meeting.lastPunchAt;
  if (at.checkOut && after && at.checkOut <= after) {
    problems.push({ field: 'checkOut', code: 'before_check_in', after });
    at.checkOut = null;
  }
  if (!parsed.success || problems.length > 0) return { kind: 'invalid', meeting, problems, values };

  const now = deps.clock.now();
  const requestId = await deps.db.transaction(async (tx) => {
    const id = await insertRequest(tx, {
      studentId: meeting.studentId,
      scheduleId: meeting.scheduleId,
      sessionDate: meeting.sessionDate,
      recordId: meeting.recordId,
      checkInAt: at.checkIn,
      checkOutAt: at.checkOut,
      reason: parsed.data.reason,
      source,
      createdAt: now,
    });
    if (id == null) return null;
    await recordAudit(tx, {
      userId: null,
      action: 'Create',
      tableName: 'missed_punch_requests',
      recordId: id,
      ipAddress: ip,
      newValues: {
        studentId: meeting.studentId,
        scheduleId: meeting.scheduleId,
        sessionDate: meeting.sessionDate,
        checkInAt: at.checkIn,
        checkOutAt: at.checkOut,
        reason: parsed.data.reason,
        source,
      },
      at: now,
    });
    return id;
  });
  // Asked twice at once: the other request is the one waiting.
  if (requestId == null) return { kind: 'already_asked' };
  return { kind: 'filed', requestId, meeting: { ...meeting, pending: true } };
}
