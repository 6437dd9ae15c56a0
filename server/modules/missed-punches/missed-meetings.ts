// What a student may ask about: their meetings of the last days with a punch missing, and the requests on them.
import { isAttendedStatus } from '../../../common/constants.ts';
import { addDays } from '../../../common/dates.ts';
import { MISSED_PUNCH_DAYS, type MissedPunchStatus } from '../../../common/missed-punches.ts';
import type { Db, DbOrTx } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import { localDate } from '../../lib/school-time.ts';
import { classWindow, whyNotAMeeting } from '../attendance/service.ts';
import { closedDates } from '../calendar/service.ts';
import { getSettings } from '../settings/service.ts';
import {
  selectDeviceMeetingRecords,
  selectRequestsOfStudents,
  selectRosteredCalendars,
  selectStudentFacts,
  selectStudentMeetingRecords,
  type MeetingRecord,
} from './queries.ts';

export type MissedPunchDeps = { db: Db; clock: Clock };

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
const ended = (days: SchoolDays, m: { sessionDate: string; startTime: string; endTime: string }) =>
  classWindow(m.sessionDate, m.startTime, m.endTime, days.timeZone).end <= days.now;

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
  return withRequests(
    deps.db,
    days,
    records.filter((r) => missingCheckOut(r) && ended(days, r)).map((r) => fromRecord(r, 'check_out')),
  );
}
