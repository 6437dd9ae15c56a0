import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  NO_CHECK_OUT_TO_UNDO,
  SCAN_ALREADY_CHECKED_IN,
  SCAN_CHECKED_OUT_EARLY,
  SCAN_CONFIRM_CHECK_OUT,
  SCAN_NOT_CHECKED_IN,
} from '../../../common/attendance.ts';
import { auditEntries, createTestApp, fixedClock, type TestApp } from '../../test/helpers.ts';
import { seedClass, type Phone, type TestClass, type TestStudent } from './test-support.ts';

// docs/decisions/039: a checked-in student who opens the class's QR again and
// submits was checked out 11 minutes into class. A check-in again now changes nothing and says so;
// only intent=check-out checks out, and before the end of class only when confirmed; an instructor
// undoes a check-out in one action, the check-out kept in the record's history.

// Monday 2 March 2026 in Chicago (UTC-6): class 08:00–12:00 local = 14:00–18:00Z.
const clock = fixedClock('2026-03-02T14:00:00Z');
let t: TestApp;
let cls: TestClass;
let session: { sessionId: string; id: number };

beforeAll(async () => {
  t = await createTestApp({ clock });
  cls = await seedClass(t, 6, 'Q');
  session = await cls.startSession();
});
afterAll(() => t?.close());

const phoneOf = (i: number): Phone => ({ ip: `10.9.0.${i}`, device: `second-scan-phone-${String(i).padStart(4, '0')}` });
const scan = (s: TestStudent, phone: Phone, extra: Record<string, unknown> = {}) => cls.scan(session.sessionId, s, phone, extra);
const rowOf = async (s: TestStudent) => (await cls.roster('2026-03-02')).find((r) => r.studentId === s.id)!;
const updatesOf = async (recordId: number) => (await auditEntries(t.db, 'attendance')).filter((a) => a.action === 'Update' && a.record_id === String(recordId));
const undo = (recordId: number, cookie = cls.instructor.cookie) =>
  t.app.inject({ method: 'POST', url: `/api/attendance/${recordId}/undo-check-out`, headers: { cookie } });
const history = async (recordId: number) => (await t.app.inject({ url: `/api/attendance/${recordId}/history`, headers: { cookie: cls.admin } })).json();

describe('a second submit from a checked-in student', () => {
  it('without an intent changes nothing and answers already checked in (it used to check out at 08:11)', async () => {
    const s = cls.students[0]!;
    clock.set('2026-03-02T14:02:00Z'); // 08:02
    expect((await scan(s, phoneOf(1))).res.json()).toMatchObject({ action: 'checked_in', status: 'present' });
    const before = await rowOf(s);

    clock.set('2026-03-02T14:11:00Z'); // 08:11: "to make sure it worked"
    const again = await scan(s, phoneOf(1));
    expect(again.res.statusCode).toBe(200);
    expect(again.res.json()).toMatchObject({
      action: 'already_checked_in',
      message: SCAN_ALREADY_CHECKED_IN,
      status: 'present',
      scanInTime: '2026-03-02T14:02:00.000Z',
      scanOutTime: null,
    });
    // From another phone (a cleared cookie, a borrowed phone): the same.
    expect((await scan(s, phoneOf(11))).res.json()).toMatchObject({ action: 'already_checked_in', scanOutTime: null });
    const after = await rowOf(s);
    expect(after).toEqual(before);
    expect(after).toMatchObject({ status: 'present', scanOutTime: null, minutesAttended: 238 });
    expect(await updatesOf(after.id!)).toEqual([]);
  });

  it('with intent=check-out before the end of class asks to confirm, and writes nothing', async () => {
    const s = cls.students[0]!;
    const before = await rowOf(s);
    const res = await scan(s, phoneOf(1), { intent: 'check-out' });
    expect(res.res.statusCode).toBe(409);
    expect(res.res.json()).toMatchObject({
      code: 'CONFIRM_CHECK_OUT',
      message: SCAN_CONFIRM_CHECK_OUT,
      scanInTime: '2026-03-02T14:02:00.000Z',
      minutesAttended: 9, // 08:02 to 08:11
      scheduledMinutes: 240,
      classEndsAt: '2026-03-02T18:00:00.000Z',
    });
    expect(await rowOf(s)).toEqual(before);
    expect(await updatesOf(before.id!)).toEqual([]);
    // `confirm: false` is no confirmation.
    expect((await scan(s, phoneOf(1), { intent: 'check-out', confirm: false })).res.statusCode).toBe(409);
  });

  it('with intent=check-out and confirm checks out: incomplete, the minutes to now, audited', async () => {
    const s = cls.students[0]!;
    const res = await scan(s, phoneOf(1), { intent: 'check-out', confirm: true });
    expect(res.res.statusCode).toBe(200);
    expect(res.res.json()).toMatchObject({
      action: 'checked_out',
      status: 'incomplete',
      minutesAttended: 9,
      scanOutTime: '2026-03-02T14:11:00.000Z',
      message: SCAN_CHECKED_OUT_EARLY,
    });
    const row = await rowOf(s);
    expect(row).toMatchObject({ status: 'incomplete', scanOutTime: '2026-03-02T14:11:00.000Z', minutesAttended: 9 });
    expect(await updatesOf(row.id!)).toMatchObject([
      { user_id: null, old_values: { status: 'present', scanOutTime: null }, new_values: { status: 'incomplete', minutesAttended: 9 } },
    ]);
    // A check-out stands: pressed twice, or sent again later, or a check-in now: the same answer, nothing written.
    expect((await scan(s, phoneOf(1), { intent: 'check-out', confirm: true })).res.json()).toMatchObject({
      action: 'checked_out',
      scanOutTime: '2026-03-02T14:11:00.000Z',
    });
    clock.set('2026-03-02T14:20:00Z');
    expect((await scan(s, phoneOf(1))).res.json()).toMatchObject({ action: 'checked_out', scanOutTime: '2026-03-02T14:11:00.000Z' });
    expect((await scan(s, phoneOf(1), { intent: 'check-out', confirm: true })).res.json()).toMatchObject({
      action: 'checked_out',
      scanOutTime: '2026-03-02T14:11:00.000Z',
      minutesAttended: 9,
    });
    expect(await updatesOf(row.id!)).toHaveLength(1);
  });

  it('with intent=check-out needs no confirmation within the early-leave threshold of the end', async () => {
    const s = cls.students[1]!;
    clock.set('2026-03-02T14:05:00Z'); // 08:05
    expect((await scan(s, phoneOf(2))).res.json()).toMatchObject({ action: 'checked_in' });
    clock.set('2026-03-02T17:51:00Z'); // 11:51: the end less the 10 minutes is 11:50
    // The first session lasts the class (docs/decisions/042): the instructor ends it and starts another.
    expect(
      (await t.app.inject({ method: 'PUT', url: `/api/qr-sessions/${session.id}/deactivate`, headers: { cookie: cls.instructor.cookie } })).statusCode,
    ).toBe(200);
    session = await cls.startSession();
    const res = await scan(s, phoneOf(2), { intent: 'check-out' });
    expect(res.res.json()).toMatchObject({ action: 'checked_out', status: 'present', minutesAttended: 226 });
  });

  it('with intent=check-out for a student who never checked in: 409, and no record', async () => {
    const s = cls.students[2]!;
    const res = await scan(s, phoneOf(3), { intent: 'check-out', confirm: true });
    expect(res.res.statusCode).toBe(409);
    expect(res.res.json()).toMatchObject({ code: 'NOT_CHECKED_IN', message: SCAN_NOT_CHECKED_IN });
    expect((await rowOf(s)).id).toBeNull();
    // An intent the API does not know is refused, naming the field.
    const odd = await scan(s, phoneOf(3), { intent: 'leave' });
    expect(odd.res.statusCode).toBe(400);
    expect(JSON.stringify(odd.res.json())).toContain('intent');
  });
});

describe('POST /api/attendance/{id}/undo-check-out', () => {
  it('makes the record the check-in again in one action, keeping the check-out in its history', async () => {
    const s = cls.students[0]!;
    const { id } = await rowOf(s);
    clock.set('2026-03-02T14:30:00Z');
    const res = await undo(id!);
    expect(res.statusCode).toBe(200);
    // The status the check-in gave (08:02, within the late threshold), minutes to the end of class.
    expect(res.json()).toMatchObject({
      id,
      status: 'present',
      scanInTime: '2026-03-02T14:02:00.000Z',
      scanOutTime: null,
      minutesAttended: 238,
      isManualOverride: false,
    });
    expect(await rowOf(s)).toMatchObject({ status: 'present', scanOutTime: null, minutesAttended: 238 });

    const h = await history(id!);
    expect(h.original).toMatchObject({ status: 'incomplete', scanOutTime: '2026-03-02T14:11:00.000Z', minutesAttended: 9 });
    expect(h.changes).toMatchObject([
      {
        reason: 'Undid the check-out',
        before: { status: 'incomplete', scanOutTime: '2026-03-02T14:11:00.000Z' },
        after: { status: 'present', scanOutTime: null, minutesAttended: 238 },
      },
    ]);
    expect(h.current).toMatchObject({ status: 'present', scanOutTime: null });
    expect((await updatesOf(id!)).at(-1)).toMatchObject({
      user_id: cls.instructor.userId,
      old_values: { status: 'incomplete', scanOutTime: '2026-03-02T14:11:00.000Z', minutesAttended: 9 },
      new_values: { status: 'present', scanOutTime: null, minutesAttended: 238 },
    });

    // Nothing left to undo: 409, and nothing written.
    const again = await undo(id!);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(NO_CHECK_OUT_TO_UNDO);
    expect((await history(id!)).changes).toHaveLength(1);
  });

  it('leaves the student able to check out with the QR later (not an override)', async () => {
    const s = cls.students[0]!;
    clock.set('2026-03-02T17:55:00Z'); // 11:55, in the session opened at 11:51
    expect((await scan(s, phoneOf(1))).res.json()).toMatchObject({ action: 'already_checked_in' });
    expect((await scan(s, phoneOf(1), { intent: 'check-out' })).res.json()).toMatchObject({ action: 'checked_out', status: 'present', minutesAttended: 233 });
  });

  it('is an override by another name: the schedule’s instructor (while overrides are allowed) or an administrator; 409 for a record with no check-out', async () => {
    const s = cls.students[1]!; // checked out at 11:51
    const { id } = await rowOf(s);
    const stranger = await t.signedIn('instructor');
    expect((await undo(id!, stranger.cookie)).statusCode).toBe(403);
    expect((await undo(id!, (await t.signedIn('support_staff')).cookie)).statusCode).toBe(403);
    expect((await undo(999_999)).statusCode).toBe(404);
    await t.app.inject({ method: 'PUT', url: '/api/settings', headers: { cookie: cls.admin }, payload: { attendance: { allowInstructorOverride: false } } });
    expect((await undo(id!)).statusCode).toBe(403);
    expect((await undo(id!, cls.admin)).json()).toMatchObject({ status: 'present', scanOutTime: null });
    await t.app.inject({ method: 'PUT', url: '/api/settings', headers: { cookie: cls.admin }, payload: { attendance: { allowInstructorOverride: true } } });

    // An absence has no check-out to undo.
    const absent = cls.students[3]!;
    await t.app.inject({
      method: 'POST',
      url: '/api/attendance',
      headers: { cookie: cls.instructor.cookie },
      payload: { scheduleId: cls.scheduleId, studentId: absent.id, status: 'absent', overrideReason: 'Called in sick' },
    });
    const absentRow = await rowOf(absent);
    expect((await undo(absentRow.id!)).statusCode).toBe(409);
    const { rows } = await t.db.execute<{ n: number }>(sql`select count(*)::int as n from attendance_corrections where attendance_record_id = ${absentRow.id}`);
    expect(rows[0]!.n).toBe(0);
  });
});
