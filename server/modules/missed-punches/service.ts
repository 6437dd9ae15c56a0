import { isAttendedStatus } from '../../../common/constants.ts';
import { addDays } from '../../../common/hours.ts';
import {
  MISSED_PUNCH_DAYS,
  exceptionRateOf,
  missedPunchFormSchema,
  type ExceptionRates,
  type ExceptionRatesQuery,
  type MissedPunchApproval,
  type MissedPunchListQuery,
  type MissedPunchPage,
  type MissedPunchRequest,
  type MissedPunchSource,
  type MissedPunchStatus,
  type StudentExceptions,
} from '../../../common/missed-punches.ts';
import type { Role } from '../../../common/roles.ts';
import type { Db, DbOrTx } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import { conflict, notFound } from '../../lib/errors.ts';
import { localDate, minutesOfDay, zonedInstant } from '../../lib/school-time.ts';
import { assertMayDecideMissedPunch, assertMayReadStudent, assertMayUseSchedule, viewerScope } from '../access/service.ts';
import { classWindow, correctMissedPunch, whyNotAMeeting } from '../attendance/service.ts';
import { recordAudit } from '../audit-logs/service.ts';
import { closedDates } from '../calendar/service.ts';
import { getSettings } from '../settings/service.ts';
import {
  countOpenRequests,
  insertRequest,
  lockRequest,
  selectDeviceMeetingRecords,
  selectExceptionCounts,
  selectRequestPage,
  selectRequestsOfStudents,
  selectRosteredCalendars,
  selectStudentFacts,
  selectStudentMeetingRecords,
  setDecision,
  type MeetingRecord,
  type RequestListRow,
} from './queries.ts';

/**
 * Missed-punch requests (issue 29, docs/decisions/053). A student without an account asks, from the
 * e-mailed hours link (which names the student) or from the phone that checked in (its device
 * cookie), for the check-in or check-out they forgot: the time and why. The class instructor or an
 * administrator approves (the attendance module writes the punch, a correction flagged as an
 * exception) or declines. The student pages live in student-hours; this module decides.
 */

type User = { id: number; role: Role };
type Ctx = { clock: Clock; ip: string | null };
export type MissedPunchDeps = { db: Db; clock: Clock };

// ---- What a student may ask about ----

/** A meeting of the last MISSED_PUNCH_DAYS days, ended, with a punch missing. */
export type MissedMeeting = {
  studentId: number;
  firstName: string;
  scheduleId: number;
  sessionDate: string;
  courseName: string;
  /** Class times, school time HH:MM. */
  startTime: string;
  endTime: string;
  recordId: number | null;
  /** check_out: checked in, never out; check_in: no record, or only the automatic absence. */
  missing: 'check_out' | 'check_in';
  checkedInAt: Date | null;
  /** The latest punch a check-out must follow: the check-in, or the end of the last break. */
  lastPunchAt: Date | null;
  /** A request waits for the instructor: no second one. */
  pending: boolean;
  /** The reason of the latest request when it was declined. */
  declinedReason: string | null;
};

type SchoolDays = { timeZone: string; today: string; from: string; now: Date };

async function schoolDays(db: DbOrTx, clock: Clock): Promise<SchoolDays> {
  const { timeZone } = (await getSettings(db)).attendance;
  const now = clock.now();
  const today = localDate(now, timeZone);
  return { timeZone, today, from: addDays(today, -MISSED_PUNCH_DAYS), now };
}

const meetingKey = (m: { studentId: number; scheduleId: number; sessionDate: string }) => `${m.studentId}|${m.scheduleId}|${m.sessionDate}`;
const ended = (days: SchoolDays, m: { sessionDate: string; startTime: string; endTime: string }) => classWindow(m.sessionDate, m.startTime, m.endTime, days.timeZone).end <= days.now;

/** A record checked in and never out (a break left open is a check-out at its start, not a missed punch). */
function missingCheckOut(r: MeetingRecord): boolean {
  return isAttendedStatus(r.status) && r.scanInTime != null && r.scanOutTime == null && !r.openBreak;
}

const fromRecord = (r: MeetingRecord, missing: MissedMeeting['missing']): MissedMeeting => ({
  studentId: r.studentId,
  firstName: r.firstName,
  scheduleId: r.scheduleId,
  sessionDate: r.sessionDate,
  courseName: r.courseName,
  startTime: r.startTime,
  endTime: r.endTime,
  recordId: r.recordId,
  missing,
  checkedInAt: missing === 'check_out' ? r.scanInTime : null,
  lastPunchAt: missing === 'check_out' ? (r.lastBreakEnd && r.scanInTime && r.lastBreakEnd > r.scanInTime ? r.lastBreakEnd : r.scanInTime) : null,
  pending: false,
  declinedReason: null,
});

/** Marks each meeting's requests on it (pending, or the latest declined), in date order. */
async function withRequests(db: DbOrTx, days: SchoolDays, meetings: MissedMeeting[]): Promise<MissedMeeting[]> {
  const requests = await selectRequestsOfStudents(db, [...new Set(meetings.map((m) => m.studentId))], days.from, days.today);
  const latest = new Map<string, { status: MissedPunchStatus; decisionReason: string | null }>();
  const pending = new Set<string>();
  for (const r of requests) {
    latest.set(meetingKey(r), r);
    if (r.status === 'pending') pending.add(meetingKey(r));
  }
  return meetings
    .map((m) => {
      const last = latest.get(meetingKey(m));
      return { ...m, pending: pending.has(meetingKey(m)), declinedReason: last?.status === 'declined' ? last.decisionReason : null };
    })
    .sort((a, b) => (a.sessionDate !== b.sessionDate ? (a.sessionDate < b.sessionDate ? 1 : -1) : a.startTime < b.startTime ? -1 : 1));
}

/**
 * The student's meetings of the last MISSED_PUNCH_DAYS days (school time) that have ended with a
 * punch missing: a record checked in and never out (any class), or a meeting of a rostered class
 * (the meeting rule, not a closed day, within their enrolment) with no record or only the job's
 * automatic absence. A record staff wrote otherwise (absent, excused) is their decision, not listed.
 */
export async function missedMeetingsOfStudent(deps: MissedPunchDeps, studentId: number): Promise<MissedMeeting[]> {
  const { db } = deps;
  const days = await schoolDays(db, deps.clock);
  const [student, records, calendars] = await Promise.all([
    selectStudentFacts(db, studentId),
    selectStudentMeetingRecords(db, studentId, days.from, days.today),
    selectRosteredCalendars(db, studentId),
  ]);
  if (!student) return [];
  const found: MissedMeeting[] = records.filter((r) => missingCheckOut(r) && ended(days, r)).map((r) => fromRecord(r, 'check_out'));
  const recordOf = new Map(records.map((r) => [`${r.scheduleId}|${r.sessionDate}`, r]));
  const closedByProgram = new Map<number | null, Set<string>>();
  for (const c of calendars) {
    if (!closedByProgram.has(c.programId)) closedByProgram.set(c.programId, await closedDates(db, { from: days.from, to: days.today, programId: c.programId }));
    const closed = closedByProgram.get(c.programId)!;
    for (let d = days.from; d <= days.today; d = addDays(d, 1)) {
      if (closed.has(d) || whyNotAMeeting(d, c) !== null) continue;
      if ((student.enrollmentDate && d < student.enrollmentDate) || (student.withdrawalDate && d > student.withdrawalDate)) continue;
      const meeting = { sessionDate: d, startTime: c.startTime, endTime: c.endTime };
      if (!ended(days, meeting)) continue;
      const record = recordOf.get(`${c.scheduleId}|${d}`);
      const autoAbsence = record && record.source === 'auto' && record.status === 'absent' && !record.isManualOverride;
      if (record && !autoAbsence) continue;
      found.push({
        studentId,
        firstName: student.firstName,
        scheduleId: c.scheduleId,
        sessionDate: d,
        courseName: c.courseName,
        startTime: c.startTime,
        endTime: c.endTime,
        recordId: record?.recordId ?? null,
        missing: 'check_in',
        checkedInAt: null,
        lastPunchAt: null,
        pending: false,
        declinedReason: null,
      });
    }
  }
  return withRequests(db, days, found);
}

/**
 * The meetings of the last MISSED_PUNCH_DAYS days this phone checked a student in at and nobody
 * checked out of. An unknown device has none: the page it gets is the page of a device with none.
 */
export async function missedMeetingsOfDevice(deps: MissedPunchDeps, deviceId: string): Promise<MissedMeeting[]> {
  const days = await schoolDays(deps.db, deps.clock);
  const records = await selectDeviceMeetingRecords(deps.db, deviceId, days.from, days.today);
  return withRequests(deps.db, days, records.filter((r) => missingCheckOut(r) && ended(days, r)).map((r) => fromRecord(r, 'check_out')));
}

// ---- Filing ----

/** Who asks: the student an hours link names, or the phone (device cookie) that checked in. */
export type Filer = { studentId: number } | { deviceId: string };

export type FilingField = 'checkIn' | 'checkOut' | 'reason';
/** Why a field was refused, for the page to say in the student's language (times HH:MM, school time). */
export type FilingProblem =
  | { field: FilingField; code: 'required' | 'invalid' | 'too_long' }
  | { field: 'checkIn' | 'checkOut'; code: 'outside_class'; start: string; end: string }
  | { field: 'checkOut'; code: 'before_check_in'; after: Date };

export type FilingOutcome =
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
export async function fileMissedPunch(deps: MissedPunchDeps, filer: Filer, source: MissedPunchSource, rawBody: unknown, ip: string | null): Promise<FilingOutcome> {
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
      newValues: { studentId: meeting.studentId, scheduleId: meeting.scheduleId, sessionDate: meeting.sessionDate, checkInAt: at.checkIn, checkOutAt: at.checkOut, reason: parsed.data.reason, source },
      at: now,
    });
    return id;
  });
  // Asked twice at once: the other request is the one waiting.
  if (requestId == null) return { kind: 'already_asked' };
  return { kind: 'filed', requestId, meeting: { ...meeting, pending: true } };
}

// ---- Staff: the requests, approve, decline ----

const toRequest = (r: RequestListRow): MissedPunchRequest => ({
  id: r.id,
  studentId: r.studentId,
  studentName: `${r.firstName} ${r.lastName}`,
  sisStudentId: r.sisStudentId,
  scheduleId: r.scheduleId,
  courseName: r.courseName,
  sessionDate: r.sessionDate,
  checkInAt: r.checkInAt?.toISOString() ?? null,
  checkOutAt: r.checkOutAt?.toISOString() ?? null,
  reason: r.reason,
  source: r.source as MissedPunchSource,
  status: r.status as MissedPunchStatus,
  createdAt: r.createdAt.toISOString(),
  decidedAt: r.decidedAt?.toISOString() ?? null,
  decidedBy: r.decidedBy,
  decisionReason: r.decisionReason,
  recordId: r.recordId,
});

/**
 * GET /api/missed-punch-requests: a page of requests, newest meeting first. Instructors see their
 * own schedules' only (a schedule of another instructor named in the query: 403).
 */
export async function listMissedPunchRequests(db: DbOrTx, user: User, q: MissedPunchListQuery): Promise<MissedPunchPage> {
  if (q.scheduleId != null) await assertMayUseSchedule(db, user, q.scheduleId);
  const pageSize = q.pageSize ?? 50;
  const page = q.page ?? 1;
  const { rows, total } = await selectRequestPage(
    db,
    { status: q.status, scheduleId: q.scheduleId, date: q.date, studentId: q.studentId, instructorId: viewerScope(user).instructorId },
    { limit: pageSize, offset: (page - 1) * pageSize },
  );
  return { items: rows.map(toRequest), total };
}

async function requestView(db: DbOrTx, id: number): Promise<MissedPunchRequest> {
  const [row] = (await selectRequestPage(db, { id }, { limit: 1, offset: 0 })).rows;
  if (!row) throw notFound('Missed-punch request');
  return toRequest(row);
}

/** The request locked, after the per-record check (the class's instructor or an administrator); 409 once decided. */
async function pendingRequest(tx: DbOrTx, user: User, id: number) {
  const request = await lockRequest(tx, id);
  if (!request) throw notFound('Missed-punch request');
  await assertMayDecideMissedPunch(tx, user, request);
  if (request.status !== 'pending') throw conflict(`This request was already ${request.status}`);
  return request;
}

/**
 * POST /api/missed-punch-requests/{id}/approve: the punch written to the meeting's record by the
 * attendance module's rules (correctMissedPunch: the times the student gave, or those staff adjust
 * to; a correction flagged with this request), the request approved with the reason; all audited,
 * in one transaction.
 */
export async function approveMissedPunch(db: Db, user: User, id: number, body: MissedPunchApproval, ctx: Ctx): Promise<MissedPunchRequest> {
  await db.transaction(async (tx) => {
    const request = await pendingRequest(tx, user, id);
    const punch = await correctMissedPunch(
      tx,
      user,
      {
        studentId: request.studentId,
        scheduleId: request.scheduleId,
        sessionDate: request.sessionDate,
        checkInAt: body.checkInAt ? new Date(body.checkInAt) : request.checkInAt,
        checkOutAt: body.checkOutAt ? new Date(body.checkOutAt) : request.checkOutAt,
        reason: body.reason,
        missedPunchRequestId: id,
      },
      ctx,
    );
    const now = ctx.clock.now();
    await setDecision(tx, id, { status: 'approved', decidedBy: user.id, decidedAt: now, decisionReason: body.reason, recordId: punch.recordId });
    await recordAudit(tx, {
      userId: user.id,
      action: 'Update',
      tableName: 'missed_punch_requests',
      recordId: id,
      ipAddress: ctx.ip,
      oldValues: { status: 'pending' },
      newValues: { status: 'approved', decisionReason: body.reason, recordId: punch.recordId, scanInTime: punch.scanInTime, scanOutTime: punch.scanOutTime, attendanceStatus: punch.status },
      at: now,
    });
  });
  return requestView(db, id);
}

/** POST /api/missed-punch-requests/{id}/decline: nothing changes in the record; the request says why. */
export async function declineMissedPunch(db: Db, user: User, id: number, reason: string, ctx: Ctx): Promise<MissedPunchRequest> {
  await db.transaction(async (tx) => {
    await pendingRequest(tx, user, id);
    const now = ctx.clock.now();
    await setDecision(tx, id, { status: 'declined', decidedBy: user.id, decidedAt: now, decisionReason: reason });
    await recordAudit(tx, {
      userId: user.id,
      action: 'Update',
      tableName: 'missed_punch_requests',
      recordId: id,
      ipAddress: ctx.ip,
      oldValues: { status: 'pending' },
      newValues: { status: 'declined', decisionReason: reason },
      at: now,
    });
  });
  return requestView(db, id);
}

// ---- Exception rates ----

/**
 * GET /api/missed-punch-requests/exception-rates: the students with exceptions in the period, by
 * rate, highest first. Instructors count their own schedules' meetings only.
 */
export async function exceptionRates(db: DbOrTx, user: User, q: ExceptionRatesQuery): Promise<ExceptionRates> {
  const rows = await selectExceptionCounts(db, { from: q.from, to: q.to, programId: q.programId, instructorId: viewerScope(user).instructorId }, true);
  return {
    from: q.from,
    to: q.to,
    items: rows.map((r) => ({
      studentId: r.studentId,
      name: `${r.firstName} ${r.lastName}`,
      sisStudentId: r.sisStudentId,
      meetingsAttended: r.meetings,
      exceptions: r.exceptions,
      exceptionRate: exceptionRateOf(r.exceptions, r.meetings),
    })),
  };
}

/** GET /api/students/{id}/exceptions: the student's exceptions over all their meetings, and requests waiting; the hours' need-to-know. */
export async function studentExceptions(db: DbOrTx, user: User, studentId: number): Promise<StudentExceptions> {
  await assertMayReadStudent(db, user, studentId);
  const [[counts], openRequests] = await Promise.all([selectExceptionCounts(db, { studentId }, false), countOpenRequests(db, studentId)]);
  const meetings = counts?.meetings ?? 0;
  const exceptions = counts?.exceptions ?? 0;
  return { exceptions, meetingsAttended: meetings, exceptionRate: exceptionRateOf(exceptions, meetings), openRequests };
}
