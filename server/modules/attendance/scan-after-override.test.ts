import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCAN_DEVICE_USED, standingRecordMessage, type AttendanceRow } from '../../../common/attendance.ts';
import { type CheckInFlag } from '../../../common/check-in-flags.ts';
import { markAbsentees } from '../../jobs/auto-absent.ts';
import { auditEntries, createTestApp, fixedClock, type TestApp } from '../../test/helpers.ts';
import { PIXEL, seedClass, type Phone, type TestClass, type TestStudent } from './test-support.ts';

// A scan after an absence (decision 004): a student marked absent who then arrives and scans is told
// the truth ("see your instructor"), the record stands, and the scan is flagged on the roster for a
// one-click correction. The auto-absent job leaves a meeting alone while one of its QR sessions is open.

// Monday 2 March 2026, 07:55 in Chicago: class 08:00–12:00 (14:00–18:00Z).
const clock = fixedClock('2026-03-02T13:55:00Z');
let t: TestApp;
let cls: TestClass;
let session: { sessionId: string; id: number };

beforeAll(async () => {
  t = await createTestApp({ clock });
  cls = await seedClass(t, 8);
});
afterAll(() => t?.close());

const student = (i: number) => cls.students[i]!;

const scanAndSubmit = (s: TestStudent, phone: Phone, extra?: Record<string, unknown>) => cls.scan(session.sessionId, s, phone, extra);
const rowOf = async (s: TestStudent, cookie?: string): Promise<AttendanceRow> => (await cls.roster('2026-03-02', cookie)).find((r) => r.studentId === s.id)!;
const scanFlags = async (s: TestStudent): Promise<CheckInFlag[]> => (await rowOf(s)).flags.filter((f) => f.reason === 'scanned_after_override');
const markAs = (s: TestStudent, status: string, overrideReason: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/attendance',
    headers: { cookie: cls.instructor.cookie },
    payload: { scheduleId: cls.scheduleId, studentId: s.id, status, overrideReason },
  });
const review = (flagId: number, decision: string, cookie: string) =>
  t.app.inject({ method: 'POST', url: `/api/attendance/flags/${flagId}/review`, headers: { cookie }, payload: { decision } });

describe('a scan after the instructor marked the student absent', () => {
  const phone: Phone = { ip: '10.60.0.1', userAgent: PIXEL, device: 'sick-student-phone-0001' };

  it('answers with the standing status and "see your instructor", keeps the record, and flags the scan once', async () => {
    const sick = student(0);
    expect((await markAs(sick, 'absent', 'Called in sick')).statusCode).toBe(201);
    session = await cls.startSession();
    clock.set('2026-03-02T14:15:00Z'); // 08:15 local: past the 10-minute threshold, so the scan would be late

    const { res } = await scanAndSubmit(sick, phone);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ action: 'already_recorded', status: 'absent', scanInTime: null });
    expect(res.json().message).toBe('Your instructor has recorded you as Absent for this class. If you are here, please see your instructor.');
    expect(res.json().message).toBe(standingRecordMessage('absent', true));

    const row = await rowOf(sick);
    expect(row).toMatchObject({ status: 'absent', isManualOverride: true, overrideReason: 'Called in sick', scanInTime: null });
    expect(row.flags).toHaveLength(1);
    expect(row.flags[0]).toMatchObject({
      reason: 'scanned_after_override',
      status: 'flagged',
      evidence: { checkedInAt: '2026-03-02T14:15:00.000Z', ipAddress: '10.60.0.1', standingStatus: 'absent', scanStatus: 'late', localTime: '08:15' },
    });
    expect(row.flags[0]!.evidence.device).toMatch(/^[0-9a-f]{12}$/);
    expect(row.flags[0]!.evidence.signature).toMatch(/^[0-9a-f]{12}$/);
    // The device cookie itself stays on the server.
    expect(JSON.stringify(row.flags[0])).not.toContain(phone.device);
    const raised = (await auditEntries(t.db, 'check_in_flags')).filter((e) => e.action === 'Create');
    expect(raised).toHaveLength(1);
    expect(raised[0]).toMatchObject({
      user_id: null,
      new_values: { reason: 'scanned_after_override', status: 'flagged', evidence: { ipAddress: '10.60.0.1' } },
    });
  });

  it('does not pile up flags when the student scans again', async () => {
    const sick = student(0);
    clock.advance(30_000);
    expect((await scanAndSubmit(sick, phone)).res.json()).toMatchObject({ action: 'already_recorded', status: 'absent' });
    clock.advance(3 * 60_000);
    expect((await scanAndSubmit(sick, { ...phone, device: 'sick-student-tablet-02' })).res.json()).toMatchObject({
      action: 'already_recorded',
      status: 'absent',
    });
    const flags = await scanFlags(sick);
    expect(flags).toHaveLength(1);
    expect(flags[0]!.evidence.checkedInAt).toBe('2026-03-02T14:15:00.000Z'); // the first scan: when the student came
    expect((await auditEntries(t.db, 'check_in_flags')).filter((e) => e.action === 'Create')).toHaveLength(1);
  });

  it('keeps the old answer, and raises nothing, when the standing record shows the student present', async () => {
    const s = student(1);
    await markAs(s, 'present', 'Signed the paper sheet');
    const { res } = await scanAndSubmit(s, { ip: '10.60.0.2', device: 'present-student-phone-1' });
    expect(res.json()).toMatchObject({
      action: 'already_recorded',
      status: 'present',
      message: 'Your attendance for this class has already been recorded by your instructor.',
    });
    expect((await rowOf(s)).flags).toEqual([]);
  });

  it('tells an excused student the same truth', async () => {
    const s = student(2);
    await markAs(s, 'excused', 'Clinical placement');
    const { res } = await scanAndSubmit(s, { ip: '10.60.0.3', device: 'excused-student-phone-2' });
    expect(res.json()).toMatchObject({ action: 'already_recorded', status: 'excused', message: standingRecordMessage('excused', true) });
    expect(await scanFlags(s)).toMatchObject([{ status: 'flagged', evidence: { standingStatus: 'excused' } }]);
  });

  it('lets only the class instructor (or an admin) accept the scan, with instructor overrides allowed', async () => {
    const [flag] = await scanFlags(student(0));
    const otherInstructor = (await t.signedIn('instructor')).cookie;
    const support = (await t.signedIn('support_staff')).cookie;
    expect((await review(flag!.id, 'accept_scan', otherInstructor)).statusCode).toBe(403);
    expect((await review(flag!.id, 'accept_scan', support)).statusCode).toBe(403);
    // A scan flag is not a proxy verdict, and a proxy flag cannot be "accepted".
    expect((await review(flag!.id, 'confirmed', cls.instructor.cookie)).statusCode).toBe(400);
    await t.app.inject({ method: 'PUT', url: '/api/settings', headers: { cookie: cls.admin }, payload: { attendance: { allowInstructorOverride: false } } });
    expect((await review(flag!.id, 'accept_scan', cls.instructor.cookie)).statusCode).toBe(403);
    await t.app.inject({ method: 'PUT', url: '/api/settings', headers: { cookie: cls.admin }, payload: { attendance: { allowInstructorOverride: true } } });
    expect(await rowOf(student(0))).toMatchObject({ status: 'absent', isManualOverride: true });
    expect((await scanFlags(student(0)))[0]!.status).toBe('flagged');
  });

  it('on accept, sets the record to what the scan would have given, audited, and clears the override', async () => {
    const sick = student(0);
    const [flag] = await scanFlags(sick);
    clock.advance(60_000);
    const res = await review(flag!.id, 'accept_scan', cls.instructor.cookie);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: flag!.id, status: 'accepted', reviewedBy: 'Test instructor', reviewedAt: clock.now().toISOString() });
    expect(await rowOf(sick)).toMatchObject({
      status: 'late',
      scanInTime: '2026-03-02T14:15:00.000Z',
      scanOutTime: null,
      minutesAttended: 225, // 08:15 to 12:00
      scheduledMinutes: 240,
      isManualOverride: false,
      overrideReason: null,
      source: 'qr',
    });
    const change = (await auditEntries(t.db, 'attendance')).at(-1);
    expect(change).toMatchObject({
      action: 'Update',
      user_id: cls.instructor.userId,
      old_values: { status: 'absent', isManualOverride: true, overrideReason: 'Called in sick', scanInTime: null },
      new_values: { status: 'late', isManualOverride: false, scanInTime: '2026-03-02T14:15:00.000Z', minutesAttended: 225 },
    });
    expect((await auditEntries(t.db, 'check_in_flags')).at(-1)).toMatchObject({
      action: 'Update',
      user_id: cls.instructor.userId,
      old_values: { status: 'flagged' },
      new_values: { status: 'accepted' },
    });
    // Pressed twice: nothing more happens; dismissing an accepted scan is refused.
    expect((await review(flag!.id, 'accept_scan', cls.instructor.cookie)).json()).toMatchObject({ status: 'accepted' });
    expect((await review(flag!.id, 'cleared', cls.instructor.cookie)).statusCode).toBe(409);
  });

  it('treats the accepted scan as the check-in: the phone is that student’s now, and a later check-out checks out', async () => {
    const sick = student(0);
    expect((await scanAndSubmit(student(3), phone)).res.json().message).toBe(SCAN_DEVICE_USED);
    clock.set('2026-03-02T17:58:00Z'); // 11:58 local
    // The first session lasts the class (docs/decisions/042): the instructor ends it and starts another.
    expect(
      (await t.app.inject({ method: 'PUT', url: `/api/qr-sessions/${session.id}/deactivate`, headers: { cookie: cls.instructor.cookie } })).statusCode,
    ).toBe(200);
    session = await cls.startSession();
    // A check-in again changes nothing (docs/decisions/039); the explicit check-out checks out.
    expect((await scanAndSubmit(sick, phone)).res.json()).toMatchObject({ action: 'already_checked_in', status: 'late', scanOutTime: null });
    expect((await scanAndSubmit(sick, phone, { intent: 'check-out' })).res.json()).toMatchObject({
      action: 'checked_out',
      status: 'late',
      minutesAttended: 223,
    });
  });

  it('dismisses a scan flag without touching the record', async () => {
    const s = student(2);
    const [flag] = await scanFlags(s);
    const res = await review(flag!.id, 'cleared', cls.instructor.cookie);
    expect(res.json()).toMatchObject({ status: 'cleared' });
    expect(await rowOf(s)).toMatchObject({ status: 'excused', isManualOverride: true });
  });
});

describe('the auto-absent job and open QR sessions', () => {
  it('does not mark a meeting whose QR session is still open, and marks it once the session closes', async () => {
    // Two hours after the 12:00 end the job may run; the instructor has a session open at 13:50 local.
    clock.set('2026-03-02T19:50:00Z');
    session = await cls.startSession(); // open until 20:20Z (30 minutes)
    clock.set('2026-03-02T20:05:00Z');
    expect(await markAbsentees(t.db, clock)).toBe(0);
    const missing = (
      await t.db.execute<{ n: number }>(
        sql`select count(*)::int as n from attendance_records where schedule_id = ${cls.scheduleId} and session_date = '2026-03-02'`,
      )
    ).rows[0]!.n;
    expect(missing).toBeLessThan(8);
    clock.set('2026-03-02T20:20:00Z'); // the session's expiry
    const marked = await markAbsentees(t.db, clock);
    expect(marked).toBe(8 - missing);
    expect(await rowOf(student(5))).toMatchObject({ status: 'absent', source: 'auto', isManualOverride: false });
  });

  it('marks a meeting once its open session is ended by hand', async () => {
    // A later session for the same meeting, ended early by the instructor: the job may mark again.
    clock.set('2026-03-02T20:30:00Z');
    session = await cls.startSession();
    await t.db.execute(sql`delete from attendance_records where student_id = ${student(6).id}`);
    expect(await markAbsentees(t.db, clock)).toBe(0);
    const end = await t.app.inject({ method: 'PUT', url: `/api/qr-sessions/${session.sessionId}/deactivate`, headers: { cookie: cls.instructor.cookie } });
    expect(end.statusCode).toBe(200);
    expect(await markAbsentees(t.db, clock)).toBe(1);
  });

  it('tells a student the auto-absent job marked absent the truth too, and flags the scan', async () => {
    clock.set('2026-03-02T20:40:00Z');
    session = await cls.startSession();
    const s = student(5);
    const { res } = await scanAndSubmit(s, { ip: '10.60.0.5', device: 'auto-absent-phone-00005' });
    expect(res.json()).toMatchObject({ action: 'already_recorded', status: 'absent', message: standingRecordMessage('absent', false) });
    expect(res.json().message).toBe('You have been recorded as Absent for this class. If you are here, please see your instructor.');
    expect(await scanFlags(s)).toMatchObject([{ status: 'flagged', evidence: { standingStatus: 'absent', scanStatus: 'late' } }]);
  });
});
