import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BREAK_ALREADY_OPEN, BREAK_SESSION_CLOSED, NO_BREAK_OPEN } from '../../../common/qr-sessions.ts';
import { attendanceBreaks, attendanceRecords, meetingBreaks } from '../../db/schema/index.ts';
import { auditEntries, createTestApp, fixedClock, type TestApp } from '../../test/helpers.ts';
import { seedClass, type TestClass } from '../attendance/test-support.ts';

// "Break for everyone" and "End break" on Take Attendance (decision 052). Monday 2 March
// 2026 in Chicago (UTC−6); the class meets 08:00–12:00 (240 scheduled minutes).

const clock = fixedClock('2026-03-02T14:00:00Z');
const at = (hhmm: string) => clock.set(`2026-03-02T${String(Number(hhmm.slice(0, 2)) + 6).padStart(2, '0')}:${hhmm.slice(3)}:00Z`);
const DATE = '2026-03-02';
let t: TestApp;
let cls: TestClass;
let other: TestClass;
let session: { sessionId: string; id: number };

beforeAll(async () => {
  t = await createTestApp({ clock });
  cls = await seedClass(t, 6, 'A');
  other = await seedClass(t, 1, 'B');
  const sa = (await t.signedIn('super_admin')).cookie;
  await t.app.inject({ method: 'PUT', url: '/api/settings', headers: { cookie: sa }, payload: { security: { sessionLifetimeHours: 168 } } });
});
afterAll(() => t?.close());

const startBreak = (ref: string, cookie = cls.instructor.cookie) => t.app.inject({ method: 'POST', url: `/api/qr-sessions/${ref}/break`, headers: { cookie } });
const endBreak = (ref: string, payload?: unknown, cookie = cls.instructor.cookie) =>
  t.app.inject({
    method: 'POST',
    url: `/api/qr-sessions/${ref}/break/end`,
    headers: { cookie },
    ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
  });
const readSession = (ref: string, cookie = cls.instructor.cookie) => t.app.inject({ url: `/api/qr-sessions/${ref}`, headers: { cookie } });
const recordOf = async (studentIndex: number) =>
  (
    await t.db
      .select()
      .from(attendanceRecords)
      .where(and(eq(attendanceRecords.studentId, cls.students[studentIndex]!.id), eq(attendanceRecords.sessionDate, DATE)))
  )[0];
const breaksOf = async (studentIndex: number) => {
  const record = await recordOf(studentIndex);
  return record ? t.db.select().from(attendanceBreaks).where(eq(attendanceBreaks.recordId, record.id)).orderBy(attendanceBreaks.id) : [];
};

describe('a break for everyone', () => {
  it('checks out everyone checked in, and nobody checked out, absent, already out on a break, or not there', async () => {
    at('08:00');
    session = await cls.startSession();
    // 0 and 1 are in class; 2 came and left; 3 is marked absent; 4 is out on a break of their own; 5 never came.
    for (const i of [0, 1, 2, 4]) expect((await cls.scan(session.sessionId, cls.students[i]!, { ip: `10.0.0.${10 + i}` })).res.statusCode).toBe(200);
    await t.db
      .update(attendanceRecords)
      .set({ scanOutTime: new Date('2026-03-02T14:30:00Z'), status: 'incomplete' })
      .where(eq(attendanceRecords.id, (await recordOf(2))!.id));
    const absent = await t.app.inject({
      method: 'POST',
      url: '/api/attendance',
      headers: { cookie: cls.instructor.cookie },
      payload: { scheduleId: cls.scheduleId, studentId: cls.students[3]!.id, status: 'absent', overrideReason: 'Called in sick' },
    });
    expect(absent.statusCode, absent.body).toBe(201);
    await t.db.insert(attendanceBreaks).values({ recordId: (await recordOf(4))!.id, kind: 'break', startedAt: new Date('2026-03-02T15:50:00Z') });

    at('10:00');
    const res = await startBreak(session.sessionId);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ meetingBreak: { startedAt: '2026-03-02T16:00:00.000Z', endedAt: null, recheckUntil: null }, studentsOnBreak: 2 });
    const meetingBreakId = res.json().meetingBreak.id;
    for (const i of [0, 1])
      expect(await breaksOf(i)).toMatchObject([{ kind: 'instructor', startedAt: new Date('2026-03-02T16:00:00Z'), endedAt: null, meetingBreakId }]);
    // The roster's minutes are what the day gives if they never come back: 08:00–10:00 (they were 240).
    for (const i of [0, 1]) expect((await recordOf(i))!.minutesAttended).toBe(120);
    expect(await breaksOf(2)).toEqual([]);
    expect(await breaksOf(3)).toEqual([]);
    expect(await breaksOf(4)).toMatchObject([{ kind: 'break', meetingBreakId: null }]);
    expect(await recordOf(5)).toBeUndefined();
    const [row] = await t.db.select().from(meetingBreaks).where(eq(meetingBreaks.id, meetingBreakId));
    expect(row).toMatchObject({ scheduleId: cls.scheduleId, sessionDate: DATE, qrSessionId: session.id, startedBy: cls.instructor.userId, endedAt: null });
    const audit = (await auditEntries(t.db, 'meeting_breaks')).at(-1)!;
    expect(audit).toMatchObject({ action: 'Create', record_id: String(meetingBreakId), user_id: cls.instructor.userId, new_values: { sessionDate: DATE } });
    expect(audit.new_values!.recordsOnBreak).toHaveLength(2);
  });

  it('is shown with the session, after a reload too (by UUID and by id)', async () => {
    for (const ref of [session.sessionId, String(session.id)]) {
      const read = await readSession(ref);
      expect(read.statusCode).toBe(200);
      expect(read.json()).toMatchObject({ sessionId: session.sessionId, meetingBreak: { startedAt: '2026-03-02T16:00:00.000Z', endedAt: null } });
    }
    expect((await readSession(session.sessionId, cls.admin)).json().meetingBreak.endedAt).toBeNull();
  });

  it('is one at a time: a second start is a 409, as is ending when none is open', async () => {
    const again = await startBreak(session.sessionId);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'BREAK_OPEN', message: BREAK_ALREADY_OPEN });
    const { sessionId: otherSession } = await other.startSession();
    const none = await endBreak(otherSession, undefined, other.instructor.cookie);
    expect(none.statusCode).toBe(409);
    expect(none.json()).toMatchObject({ code: 'NO_BREAK_OPEN', message: NO_BREAK_OPEN });
    // Another class's session shows no break.
    expect((await readSession(otherSession, other.instructor.cookie)).json().meetingBreak).toBeNull();
  });

  it('is run only by whoever may run the session: another instructor gets 403, a missing session 404', async () => {
    expect((await startBreak(session.sessionId, other.instructor.cookie)).statusCode).toBe(403);
    expect((await endBreak(session.sessionId, undefined, other.instructor.cookie)).statusCode).toBe(403);
    expect((await readSession(session.sessionId, other.instructor.cookie)).statusCode).toBe(403);
    expect((await startBreak('00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
    const support = await t.signedIn('support_staff');
    expect([403, 404]).toContain((await startBreak(session.sessionId, support.cookie)).statusCode);
  });

  it('refuses a re-check-in window outside 1–30 minutes, naming recheckMinutes', async () => {
    for (const bad of [0, 31, 2.5, 'five']) {
      const res = await endBreak(session.sessionId, { recheckMinutes: bad });
      expect(res.statusCode, String(bad)).toBe(400);
      expect(res.json().errors[0].field).toBe('recheckMinutes');
    }
    expect((await t.db.select().from(meetingBreaks).where(eq(meetingBreaks.scheduleId, cls.scheduleId)))[0]!.endedAt).toBeNull();
  });

  it('ends with a re-check-in window; the break is not scheduled time: the records lose its 15 minutes', async () => {
    at('10:15');
    const res = await endBreak(session.sessionId, { recheckMinutes: 10 });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      meetingBreak: { startedAt: '2026-03-02T16:00:00.000Z', endedAt: '2026-03-02T16:15:00.000Z', recheckUntil: '2026-03-02T16:25:00.000Z' },
      // Nobody has scanned back yet.
      studentsOnBreak: 2,
    });
    for (const i of [0, 1, 2, 3, 4]) expect((await recordOf(i))!.scheduledMinutes, `student ${i}`).toBe(225);
    const [row] = await t.db.select().from(meetingBreaks).where(eq(meetingBreaks.id, res.json().meetingBreak.id));
    expect(row).toMatchObject({ endedBy: cls.instructor.userId });
    expect((await auditEntries(t.db, 'meeting_breaks')).at(-1)).toMatchObject({
      action: 'Update',
      old_values: { endedAt: null },
      new_values: {
        endedAt: '2026-03-02T16:15:00.000Z',
        recheckUntil: '2026-03-02T16:25:00.000Z',
        recheckMinutes: 10,
        scheduledMinutesLess: 15,
        recordsChanged: 5,
      },
    });
    expect((await readSession(session.sessionId)).json().meetingBreak).toMatchObject({
      endedAt: '2026-03-02T16:15:00.000Z',
      recheckUntil: '2026-03-02T16:25:00.000Z',
    });
    expect((await endBreak(session.sessionId)).statusCode).toBe(409);
  });

  it('a record written after the break leaves it out too (a late check-in: 225 scheduled)', async () => {
    at('10:40');
    expect((await cls.scan(session.sessionId, cls.students[5]!, { ip: '10.0.0.15' })).res.statusCode).toBe(200);
    expect((await recordOf(5))!.scheduledMinutes).toBe(225);
  });

  it('a second break of the day: the default window is 5 minutes, and the records lose only its minutes', async () => {
    at('11:00');
    const started = await startBreak(String(session.id));
    expect(started.statusCode, started.body).toBe(201);
    at('11:20');
    // No body at all: the default window.
    const ended = await endBreak(String(session.id));
    expect(ended.statusCode, ended.body).toBe(200);
    expect(ended.json().meetingBreak).toMatchObject({ endedAt: '2026-03-02T17:20:00.000Z', recheckUntil: '2026-03-02T17:25:00.000Z' });
    for (const i of [0, 5]) expect((await recordOf(i))!.scheduledMinutes).toBe(205);
  });

  it('is refused on a session that has closed (409); a break left open can still be ended there', async () => {
    at('11:30');
    expect((await startBreak(session.sessionId)).statusCode).toBe(201);
    const closed = await t.app.inject({ method: 'PUT', url: `/api/qr-sessions/${session.sessionId}/deactivate`, headers: { cookie: cls.instructor.cookie } });
    expect(closed.statusCode).toBe(200);
    at('11:40');
    const ended = await endBreak(session.sessionId);
    expect(ended.statusCode, ended.body).toBe(200);
    const refused = await startBreak(session.sessionId);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ code: 'SESSION_CLOSED', message: BREAK_SESSION_CLOSED });
    const { rows } = await t.db.execute<{ n: number }>(
      sql`select count(*)::int as n from meeting_breaks where schedule_id = ${cls.scheduleId} and ended_at is null`,
    );
    expect(rows[0]!.n).toBe(0);
  });
});
