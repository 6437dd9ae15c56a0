import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  LUNCH_CLASS_MINUTES,
  SCAN_ALREADY_ON_BREAK,
  SCAN_BREAK_AFTER_CHECK_OUT,
  SCAN_BREAK_ENDED,
  SCAN_BREAK_NOT_CHECKED_IN,
  SCAN_BREAK_STARTED,
  SCAN_CHECK_OUT_ON_BREAK,
  SCAN_DEVICE_USED,
  SCAN_LUNCH_ENDED,
  SCAN_LUNCH_STARTED,
  SCAN_NOT_ON_BREAK,
  SCAN_OPEN_LINK,
  offersLunchPunches,
  punchPairs,
} from '../../../common/attendance.ts';
import { attendanceBreaks, meetingBreaks } from '../../db/schema/index.ts';
import { auditEntries, createTestApp, fixedClock, type TestApp } from '../../test/helpers.ts';
import { seedClass, type Phone, type TestClass, type TestStudent } from './test-support.ts';

// "Several punches per meeting" (docs/decisions/051): a checked-in student punches breaks
// and lunch through POST /api/attendance/submit with the check-in's own pass, code, device and roster
// rules; each break is a row of attendance_breaks and the record's minutes leave it out.

// Monday 2 March 2026 in Chicago (UTC-6): class 08:00–12:00 local = 14:00–18:00Z.
const DATE = '2026-03-02';
const clock = fixedClock('2026-03-02T14:00:00Z');
let t: TestApp;
let cls: TestClass;
let session: { sessionId: string; id: number };

beforeAll(async () => {
  t = await createTestApp({ clock });
  cls = await seedClass(t, 10, 'B');
  session = await cls.startSession();
});
afterAll(() => t?.close());

/** 08:00 + `minutes`, school time, as the server's clock. */
const at = (hhmm: string) => clock.set(`${DATE}T${String(Number(hhmm.slice(0, 2)) + 6).padStart(2, '0')}:${hhmm.slice(3)}:00Z`);
const iso = (hhmm: string) => `${DATE}T${String(Number(hhmm.slice(0, 2)) + 6).padStart(2, '0')}:${hhmm.slice(3)}:00.000Z`;
const phoneOf = (i: number): Phone => ({ ip: `10.8.0.${i}`, device: `break-punch-phone-${String(i).padStart(4, '0')}` });
const scan = (s: TestStudent, phone: Phone, extra: Record<string, unknown> = {}) => cls.scan(session.sessionId, s, phone, extra);
const punch = async (s: TestStudent, phone: Phone, intent?: string, extra: Record<string, unknown> = {}) =>
  (await scan(s, phone, { ...(intent ? { intent } : {}), ...extra })).res;
const rowOf = async (s: TestStudent) => (await cls.roster(DATE)).find((r) => r.studentId === s.id)!;
const updatesOf = async (recordId: number) => (await auditEntries(t.db, 'attendance')).filter((a) => a.action === 'Update' && a.record_id === String(recordId));
const breakRows = async (recordId: number) =>
  (
    await t.db.execute<{ kind: string; started_device_id: string | null; ended_device_id: string | null }>(
      sql`select * from attendance_breaks where record_id = ${recordId} order by started_at`,
    )
  ).rows;

describe('a student’s breaks and lunch', () => {
  it('starts and ends a break, then lunch, and checks out: every punch kept, the minutes without the breaks, each audited', async () => {
    const s = cls.students[0]!;
    const phone = phoneOf(1);
    at('08:00');
    expect((await punch(s, phone)).json()).toMatchObject({ action: 'checked_in', onBreak: false, breaks: [], minutesAttended: 240 });

    at('10:00');
    const out = await punch(s, phone, 'break-start');
    expect(out.statusCode).toBe(200);
    expect(out.json()).toMatchObject({
      action: 'break_started',
      message: SCAN_BREAK_STARTED,
      status: 'present',
      onBreak: true,
      breaks: [{ kind: 'break', startedAt: iso('10:00'), endedAt: null }],
      // A break never ended is the student leaving at its start: 08:00–10:00.
      minutesAttended: 120,
    });
    const onBreak = await rowOf(s);
    expect(onBreak).toMatchObject({ scanOutTime: null, minutesAttended: 120, breaks: [{ kind: 'break', startedAt: iso('10:00'), endedAt: null }] });

    at('10:15');
    expect((await punch(s, phone, 'break-end')).json()).toMatchObject({
      action: 'break_ended',
      message: SCAN_BREAK_ENDED,
      onBreak: false,
      breaks: [{ kind: 'break', startedAt: iso('10:00'), endedAt: iso('10:15') }],
      minutesAttended: 225, // 08:00–10:00 and 10:15–12:00
    });

    at('11:00');
    expect((await punch(s, phone, 'lunch-out')).json()).toMatchObject({
      action: 'break_started',
      message: SCAN_LUNCH_STARTED,
      onBreak: true,
      minutesAttended: 165,
    });
    at('11:30');
    expect((await punch(s, phone, 'lunch-in')).json()).toMatchObject({
      action: 'break_ended',
      message: SCAN_LUNCH_ENDED,
      breaks: [
        { kind: 'break', startedAt: iso('10:00'), endedAt: iso('10:15') },
        { kind: 'lunch', startedAt: iso('11:00'), endedAt: iso('11:30') },
      ],
      minutesAttended: 195, // 120 + 45 + 30
    });

    at('11:55'); // within the early-leave threshold of the end: no confirmation
    const checkOut = await punch(s, phone, 'check-out');
    expect(checkOut.json()).toMatchObject({ action: 'checked_out', status: 'present', scanOutTime: iso('11:55'), minutesAttended: 190, onBreak: false });
    expect(checkOut.json().breaks).toHaveLength(2);

    const row = await rowOf(s);
    expect(row).toMatchObject({ scanInTime: iso('08:00'), scanOutTime: iso('11:55'), minutesAttended: 190 });
    expect(row.breaks).toEqual(checkOut.json().breaks);
    // Which phone punched each break is kept.
    expect(await breakRows(row.id!)).toMatchObject([
      { kind: 'break', started_device_id: phone.device, ended_device_id: phone.device },
      { kind: 'lunch', started_device_id: phone.device, ended_device_id: phone.device },
    ]);

    // Each punch is an audit entry of the record (by nobody: the student), old and new minutes with it.
    const updates = await updatesOf(row.id!);
    expect(updates).toHaveLength(5);
    expect(updates[0]).toMatchObject({
      user_id: null,
      old_values: { onBreak: false, minutesAttended: 240 },
      new_values: { onBreak: true, breakStarted: { kind: 'break', startedAt: iso('10:00') }, minutesAttended: 120 },
    });
    expect(updates[1]).toMatchObject({
      old_values: { onBreak: true, minutesAttended: 120 },
      new_values: { onBreak: false, breakEnded: { kind: 'break', startedAt: iso('10:00'), endedAt: iso('10:15') }, minutesAttended: 225 },
    });
    expect(updates[2]).toMatchObject({ new_values: { breakStarted: { kind: 'lunch' } } });
    expect(updates[4]).toMatchObject({ new_values: { status: 'present', minutesAttended: 190 } });
  });

  it('counts a break from the phone that checked in or from another, with the code typed instead of a pass', async () => {
    const s = cls.students[1]!;
    at('08:05');
    await punch(s, phoneOf(2));
    at('09:00');
    // From a phone that checked nobody in, with the six digits on the screen and no pass.
    const { code } = await cls.screen(session.sessionId);
    const typed = await cls.submit(session.sessionId, s, phoneOf(12), { intent: 'break-start', token: code });
    expect(typed.statusCode).toBe(200);
    expect(typed.json()).toMatchObject({ action: 'break_started', onBreak: true });
    at('09:10');
    expect((await punch(s, phoneOf(2), 'break-end')).json()).toMatchObject({
      action: 'break_ended',
      breaks: [{ startedAt: iso('09:00'), endedAt: iso('09:10') }],
    });
    const { id } = await rowOf(s);
    expect(await breakRows(id!)).toMatchObject([{ started_device_id: phoneOf(12).device, ended_device_id: phoneOf(2).device }]);
  });

  it('ends a break with a plain check-in (the student scans the QR again on coming back)', async () => {
    const s = cls.students[2]!;
    at('08:00');
    await punch(s, phoneOf(3));
    at('09:30');
    await punch(s, phoneOf(3), 'break-start');
    at('09:42');
    expect((await punch(s, phoneOf(3))).json()).toMatchObject({
      action: 'break_ended',
      message: SCAN_BREAK_ENDED,
      onBreak: false,
      breaks: [{ kind: 'break', startedAt: iso('09:30'), endedAt: iso('09:42') }],
      minutesAttended: 228,
    });
    // Not on a break any more: a check-in again changes nothing, as before (docs/decisions/039).
    at('09:50');
    expect((await punch(s, phoneOf(3))).json()).toMatchObject({ action: 'already_checked_in', onBreak: false, minutesAttended: 228 });
  });
});

describe('refusals (409 with a code, nothing written)', () => {
  it('a break by a student not checked in: NOT_CHECKED_IN, and no record', async () => {
    const s = cls.students[3]!;
    at('09:00');
    for (const intent of ['break-start', 'lunch-out', 'break-end', 'lunch-in']) {
      const res = await punch(s, phoneOf(4), intent);
      expect(res.statusCode, intent).toBe(409);
      expect(res.json(), intent).toMatchObject({ code: 'NOT_CHECKED_IN', message: SCAN_BREAK_NOT_CHECKED_IN });
    }
    expect((await rowOf(s)).id).toBeNull();
  });

  it('a break started on a break (ON_BREAK), ended when none is open (NOT_ON_BREAK), a check-out on a break (ON_BREAK)', async () => {
    const s = cls.students[4]!;
    const phone = phoneOf(5);
    at('08:00');
    await punch(s, phone);
    at('08:30');
    const none = await punch(s, phone, 'lunch-in');
    expect(none.statusCode).toBe(409);
    // Where the student stands comes with it (the scan page shows it).
    expect(none.json()).toMatchObject({ code: 'NOT_ON_BREAK', message: SCAN_NOT_ON_BREAK, scanInTime: iso('08:00'), breaks: [] });

    await punch(s, phone, 'lunch-out');
    const { id } = await rowOf(s);
    const audited = (await updatesOf(id!)).length;
    at('08:40');
    for (const intent of ['break-start', 'lunch-out']) {
      const again = await punch(s, phone, intent);
      expect(again.statusCode, intent).toBe(409);
      expect(again.json(), intent).toMatchObject({
        code: 'ON_BREAK',
        message: SCAN_ALREADY_ON_BREAK,
        breaks: [{ kind: 'lunch', startedAt: iso('08:30'), endedAt: null }],
      });
    }
    // Checking out while out for lunch: end the break first (or, not coming back, nothing to do).
    const leaving = await punch(s, phone, 'check-out', { confirm: true });
    expect(leaving.statusCode).toBe(409);
    expect(leaving.json()).toMatchObject({ code: 'ON_BREAK', message: SCAN_CHECK_OUT_ON_BREAK });
    expect(await rowOf(s)).toMatchObject({ scanOutTime: null, minutesAttended: 30, breaks: [{ kind: 'lunch', endedAt: null }] });
    expect(await updatesOf(id!)).toHaveLength(audited);

    // Ended by either button, whatever its kind.
    expect((await punch(s, phone, 'break-end')).json()).toMatchObject({
      action: 'break_ended',
      message: SCAN_LUNCH_ENDED,
      breaks: [{ kind: 'lunch', endedAt: iso('08:40') }],
    });
  });

  it('a break after the check-out: ALREADY_CHECKED_OUT', async () => {
    const s = cls.students[0]!; // checked out at 11:55 above
    at('11:58');
    for (const intent of ['break-start', 'break-end']) {
      const res = await punch(s, phoneOf(1), intent);
      expect(res.statusCode, intent).toBe(409);
      expect(res.json(), intent).toMatchObject({ code: 'ALREADY_CHECKED_OUT', message: SCAN_BREAK_AFTER_CHECK_OUT });
    }
    expect((await rowOf(s)).breaks).toHaveLength(2);
  });

  it('the check-in’s own rules: no pass nor code (403), a phone that checked another student in (DEVICE_USED), an unknown intent (400)', async () => {
    const s = cls.students[4]!;
    at('09:00');
    const bare = await cls.submit(session.sessionId, s, phoneOf(5), { intent: 'break-start' });
    expect(bare.statusCode).toBe(403);
    expect(bare.json()).toMatchObject({ message: SCAN_OPEN_LINK });

    // Phone 3 checked students[2] in: it punches for nobody else.
    const borrowed = await punch(s, phoneOf(3), 'break-start');
    expect(borrowed.statusCode).toBe(409);
    expect(borrowed.json()).toMatchObject({ code: 'DEVICE_USED', message: SCAN_DEVICE_USED });

    const odd = await punch(s, phoneOf(5), 'coffee');
    expect(odd.statusCode).toBe(400);
    expect(JSON.stringify(odd.json())).toContain('intent');
    expect((await rowOf(s)).breaks).toMatchObject([{ kind: 'lunch', endedAt: iso('08:40') }]);
  });
});

describe('coming back from an instructor’s break', () => {
  /** Everyone checked in at 08:00 was put on an instructor's break at 10:00 (what Take Attendance's "Break for everyone" writes). */
  async function instructorBreak(students: TestStudent[], b: { endedAt: string | null; recheckUntil: string | null }) {
    const [mb] = await t.db
      .insert(meetingBreaks)
      .values({
        scheduleId: cls.scheduleId,
        sessionDate: DATE,
        qrSessionId: session.id,
        startedAt: new Date(iso('10:00')),
        endedAt: b.endedAt ? new Date(b.endedAt) : null,
        recheckUntil: b.recheckUntil ? new Date(b.recheckUntil) : null,
      })
      .returning({ id: meetingBreaks.id });
    for (const s of students) {
      const { id } = await rowOf(s);
      await t.db.insert(attendanceBreaks).values({ recordId: id!, kind: 'instructor', startedAt: new Date(iso('10:00')), meetingBreakId: mb!.id });
    }
    return mb!.id;
  }

  it('is credited from the end of the break within the re-check-in window, from the scan after it', async () => {
    const [early, late, button] = [cls.students[5]!, cls.students[6]!, cls.students[7]!];
    at('08:00');
    for (const [i, s] of [early, late, button].entries()) await punch(s, phoneOf(20 + i));
    // The break ran 10:00–10:10; the re-check-in window closes at 10:15.
    const mb = await instructorBreak([early, late, button], { endedAt: iso('10:10'), recheckUntil: iso('10:15') });

    at('10:13');
    expect((await punch(early, phoneOf(20))).json()).toMatchObject({
      action: 'break_ended',
      message: SCAN_BREAK_ENDED,
      breaks: [{ kind: 'instructor', startedAt: iso('10:00'), endedAt: iso('10:10') }],
      minutesAttended: 230, // 08:00–10:00 and 10:10–12:00: the window is grace
    });
    at('10:15'); // the window's last instant still counts; Back from break is the same return
    expect((await punch(button, phoneOf(22), 'break-end')).json()).toMatchObject({
      breaks: [{ kind: 'instructor', endedAt: iso('10:10') }],
      minutesAttended: 230,
    });
    at('10:21');
    expect((await punch(late, phoneOf(21))).json()).toMatchObject({ breaks: [{ kind: 'instructor', endedAt: iso('10:21') }], minutesAttended: 219 });

    const { rows } = await t.db.execute<{ n: number }>(
      sql`select count(*)::int as n from attendance_breaks where meeting_break_id = ${mb} and ended_at is null`,
    );
    expect(rows[0]!.n).toBe(0);
    const audit = await updatesOf((await rowOf(early)).id!);
    expect(audit.at(-1)).toMatchObject({ new_values: { breakEnded: { kind: 'instructor', endedAt: iso('10:10'), punchedAt: iso('10:13') } } });
  });

  it('is credited from the scan while the break still runs', async () => {
    const s = cls.students[8]!;
    at('08:00');
    await punch(s, phoneOf(30));
    // A second instructor's break of the meeting, still running (the first has ended).
    const [mb] = await t.db
      .insert(meetingBreaks)
      .values({ scheduleId: cls.scheduleId, sessionDate: DATE, qrSessionId: session.id, startedAt: new Date(iso('11:00')), endedAt: null, recheckUntil: null })
      .returning({ id: meetingBreaks.id });
    const { id } = await rowOf(s);
    await t.db.insert(attendanceBreaks).values({ recordId: id!, kind: 'instructor', startedAt: new Date(iso('11:00')), meetingBreakId: mb!.id });
    at('11:04');
    expect((await punch(s, phoneOf(30))).json()).toMatchObject({
      breaks: [{ kind: 'instructor', startedAt: iso('11:00'), endedAt: iso('11:04') }],
      minutesAttended: 236,
    });
  });
});

describe('corrections keep the breaks', () => {
  it('an undone check-out counts to the end of class without the breaks', async () => {
    const s = cls.students[0]!; // 08:00–11:55, breaks 10:00–10:15 and 11:00–11:30
    const { id } = await rowOf(s);
    const res = await t.app.inject({ method: 'POST', url: `/api/attendance/${id}/undo-check-out`, headers: { cookie: cls.instructor.cookie } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ scanOutTime: null, minutesAttended: 195, breaks: [{ kind: 'break' }, { kind: 'lunch' }] });
  });
});

describe('the rules as functions', () => {
  it('pairs the punches: [in, b1.start], [b1.end, b2.start] … [bn.end, out]; nothing after a break never ended', () => {
    expect(
      punchPairs(0, 100, [
        { startedAt: 60, endedAt: 70 },
        { startedAt: 10, endedAt: 20 },
      ]),
    ).toEqual([
      { in: 0, out: 10 },
      { in: 20, out: 60 },
      { in: 70, out: 100 },
    ]);
    expect(punchPairs(0, null, [{ startedAt: 10, endedAt: null }])).toEqual([{ in: 0, out: 10 }]);
    expect(punchPairs(0, null, [])).toEqual([{ in: 0, out: null }]);
  });

  it('offers lunch from the meal rule’s minutes, or five hours without one', () => {
    expect(LUNCH_CLASS_MINUTES).toBe(300);
    expect(offersLunchPunches(240, null)).toBe(false);
    expect(offersLunchPunches(300, null)).toBe(true);
    expect(offersLunchPunches(240, { afterMinutes: 240 })).toBe(true);
    expect(offersLunchPunches(480, { afterMinutes: 540 })).toBe(false);
  });
});
