import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AttendanceRow } from '../../../common/attendance.ts';
import type { CheckInFlag } from '../../../common/check-in-flags.ts';
import { buildAttendanceRecord } from '../../test/factories.ts';
import { auditEntries, createTestApp, fixedClock, type TestApp } from '../../test/helpers.ts';
import { IPHONE, PIXEL, deviceCookieOf, seedClass, type Phone, type TestClass, type TestStudent } from './test-support.ts';

// "Possible proxy" check-ins (decision 006): one phone cannot be proven, so each public check-in's
// origin is recorded and check-ins that look made for someone else are flagged, with the evidence, on
// the roster and in the audit log, for the instructor to confirm or clear.

// Monday 2 March 2026, 07:58 in Chicago: class 08:00–12:00.
const clock = fixedClock('2026-03-02T13:58:00Z');
let t: TestApp;
let cls: TestClass;
let session: { sessionId: string; id: number };

beforeAll(async () => {
  t = await createTestApp({ clock });
  cls = await seedClass(t, 30);
  session = await cls.startSession();
});
afterAll(() => t?.close());

const student = (i: number) => cls.students[i]!;

const scanAndSubmit = (s: TestStudent, phone: Phone) => cls.scan(session.sessionId, s, phone);
const roster = (cookie?: string): Promise<AttendanceRow[]> => cls.roster('2026-03-02', cookie);
const flagsOf = async (s: TestStudent): Promise<CheckInFlag[]> => (await roster()).find((r) => r.studentId === s.id)!.flags;

describe('check-in origins', () => {
  it('records the address and a hash of the browser signature of each public check-in, not the raw headers', async () => {
    const { res } = await scanAndSubmit(student(0), { ip: '10.10.0.1', userAgent: PIXEL, language: 'es-MX', device: 'origin-phone-0000000001' });
    expect(res.json()).toMatchObject({ action: 'checked_in' });
    const { rows } = await t.db.execute<{ ip_address: string; browser_signature: string; qr_session_id: number }>(sql`
      select o.ip_address, o.browser_signature, o.qr_session_id from check_in_origins o join attendance_records a on a.id = o.attendance_record_id where a.student_id = ${student(0).id}`);
    const expected = createHash('sha256').update([PIXEL, 'es-MX', '', '', ''].join('\n')).digest('hex');
    expect(rows).toEqual([{ ip_address: '10.10.0.1', browser_signature: expected, qr_session_id: session.id }]);
    expect(await flagsOf(student(0))).toEqual([]);
  });
});

describe('shared_browser', () => {
  it('flags every check-in when one phone checks in six students from private tabs (the review’s attack)', async () => {
    const phone: Phone = { ip: '10.20.0.1', userAgent: IPHONE, device: null }; // a private tab: no cookie, each time a new one
    const six = [1, 2, 3, 4, 5, 6].map(student);
    for (const s of six) {
      const { res } = await scanAndSubmit(s, phone);
      expect(res.json()).toMatchObject({ action: 'checked_in' }); // nothing a web page can prove, so nothing refused
      clock.advance(20_000);
    }
    const rows = (await roster()).filter((r) => six.some((s) => s.id === r.studentId));
    expect(rows.map((r) => r.flags.map((f) => [f.reason, f.status]))).toEqual(Array(6).fill([['shared_browser', 'flagged']]));
    const recordIds = rows.map((r) => r.id!);
    // The second check-in's flag names the first; the first's names the second (and, read together, the later ones).
    const [first, secondRow] = [rows.find((r) => r.studentId === six[0]!.id)!, rows.find((r) => r.studentId === six[1]!.id)!];
    expect(secondRow.flags[0]!.evidence).toMatchObject({ ipAddress: '10.20.0.1', windowMinutes: 3, otherRecordIds: [first.id] });
    expect(secondRow.flags[0]!.evidence.signature).toMatch(/^[0-9a-f]{12}$/);
    expect(secondRow.flags[0]!.evidence.otherCheckedInAt).toEqual([first.scanInTime]);
    expect(first.flags[0]!.otherStudents.map((o) => o.recordId).sort()).toEqual(recordIds.filter((id) => id !== first.id).sort());
    expect(first.flags[0]!.otherStudents.find((o) => o.recordId === secondRow.id)).toEqual({
      recordId: secondRow.id,
      studentId: six[1]!.id,
      name: `${six[1]!.first} ${six[1]!.last}`,
    });
    // Each flag is in the audit log with its evidence when raised, by nobody (the system), from the phone's address.
    const raised = (await auditEntries(t.db, 'check_in_flags')).filter((e) => e.action === 'Create');
    expect(raised).toHaveLength(6);
    expect(raised.every((e) => e.user_id === null)).toBe(true);
    expect(raised[1]!.new_values).toMatchObject({
      reason: 'shared_browser',
      status: 'flagged',
      evidence: { ipAddress: '10.20.0.1', otherRecordIds: expect.any(Array) },
    });
    // The phone never lost a cookie it had: each private tab was simply new. No dropped_cookie here.
    expect(rows.flatMap((r) => r.flags).some((f) => f.reason === 'dropped_cookie')).toBe(false);
  });

  it('does not flag check-ins from another address, another browser, or more than three minutes apart', async () => {
    clock.set('2026-03-02T14:03:00Z');
    await scanAndSubmit(student(7), { ip: '10.30.0.1', userAgent: IPHONE, device: 'apart-phone-000000007' });
    await scanAndSubmit(student(8), { ip: '10.30.0.2', userAgent: IPHONE, device: 'apart-phone-000000008' }); // another address
    await scanAndSubmit(student(9), { ip: '10.30.0.1', userAgent: PIXEL, device: 'apart-phone-000000009' }); // another browser
    await scanAndSubmit(student(10), { ip: '10.30.0.1', userAgent: IPHONE, language: 'fr-FR', device: 'apart-phone-000000010' }); // another language
    clock.advance(3 * 60_000 + 1000);
    await scanAndSubmit(student(11), { ip: '10.30.0.1', userAgent: IPHONE, device: 'apart-phone-000000011' }); // later than the window
    for (const i of [7, 8, 9, 10, 11]) expect(await flagsOf(student(i))).toEqual([]);
  });

  it('does not flag classmates with identical phones when each uses the phone they checked in with before', async () => {
    clock.set('2026-03-02T14:10:00Z');
    const [x, y, z] = [student(12), student(13), student(14)];
    // Last Monday, each phone checked in its own student.
    for (const [s, device] of [
      [x, 'own-phone-x-00000000'],
      [y, 'own-phone-y-00000000'],
    ] as const) {
      const at = new Date('2026-02-23T14:00:00Z');
      await buildAttendanceRecord(t.db, {
        studentId: s.id,
        scheduleId: cls.scheduleId,
        sessionDate: '2026-02-23',
        status: 'present',
        source: 'qr',
        deviceId: device,
        scanInTime: at,
        createdAt: at,
        updatedAt: at,
      });
    }
    await scanAndSubmit(x, { ip: '10.40.0.1', userAgent: IPHONE, device: 'own-phone-x-00000000' });
    await scanAndSubmit(y, { ip: '10.40.0.1', userAgent: IPHONE, device: 'own-phone-y-00000000' });
    expect(await flagsOf(x)).toEqual([]);
    expect(await flagsOf(y)).toEqual([]);
    // A new device with the same signature on that address, a minute later, is flagged with both.
    clock.advance(60_000);
    await scanAndSubmit(z, { ip: '10.40.0.1', userAgent: IPHONE, device: null });
    const zFlags = await flagsOf(z);
    expect(zFlags.map((f) => f.reason)).toEqual(['shared_browser']);
    expect(zFlags[0]!.otherStudents.map((o) => o.studentId).sort()).toEqual([x.id, y.id].sort());
    expect((await flagsOf(x)).map((f) => f.reason)).toEqual(['shared_browser']);
  });
});

describe('dropped_cookie', () => {
  it('flags a browser that comes back without the device cookie it was given, or with another one', async () => {
    clock.set('2026-03-02T14:20:00Z');
    const screen = await cls.screen(session.sessionId);
    // The page opened: the server gave this browser a device cookie and a pass bound to it.
    const opened = await cls.open(session.sessionId, { ip: '10.50.0.1', userAgent: PIXEL, device: null }, screen.token);
    const pass = opened.json().pass as string;
    expect(deviceCookieOf(opened)).toBeTruthy();
    // It submits without the cookie (cleared or blocked): the pass no longer fits, the code on the screen does.
    const missing = await cls.submit(session.sessionId, student(15), { ip: '10.50.0.1', userAgent: PIXEL, device: null }, { pass, token: screen.code });
    expect(missing.json()).toMatchObject({ action: 'checked_in' });
    const [flag] = await flagsOf(student(15));
    expect(flag).toMatchObject({
      reason: 'dropped_cookie',
      status: 'flagged',
      evidence: { deviceCookie: 'missing', passIssuedAt: '2026-03-02T14:20:00.000Z', ipAddress: '10.50.0.1' },
    });
    // Another browser's cookie with this pass: replaced.
    const opened2 = await cls.open(session.sessionId, { ip: '10.50.0.2', userAgent: IPHONE, device: 'first-cookie-0000000000' }, screen.token);
    const replaced = await cls.submit(
      session.sessionId,
      student(16),
      { ip: '10.50.0.2', userAgent: IPHONE, device: 'second-cookie-000000000' },
      {
        pass: opened2.json().pass,
        token: screen.code,
      },
    );
    expect(replaced.json()).toMatchObject({ action: 'checked_in' });
    expect(await flagsOf(student(16))).toMatchObject([{ reason: 'dropped_cookie', evidence: { deviceCookie: 'replaced' } }]);
  });

  it('is written to the audit log even with routine audit logging off', async () => {
    const sa = (await t.signedIn('super_admin')).cookie;
    await t.app.inject({ method: 'PUT', url: '/api/settings', headers: { cookie: sa }, payload: { security: { enableAuditLogging: false } } });
    const before = (await auditEntries(t.db, 'check_in_flags')).length;
    await cls.submit(
      session.sessionId,
      student(17),
      { ip: '10.50.0.3', userAgent: PIXEL, device: null },
      { token: (await cls.screen(session.sessionId)).code },
    );
    expect(await flagsOf(student(17))).toMatchObject([{ reason: 'dropped_cookie', evidence: { deviceCookie: 'missing', passIssuedAt: null } }]);
    expect((await auditEntries(t.db, 'check_in_flags')).length).toBe(before + 1);
    await t.app.inject({ method: 'PUT', url: '/api/settings', headers: { cookie: sa }, payload: { security: { enableAuditLogging: true } } });
  });

  it('does not flag a browser that kept its cookie', async () => {
    await scanAndSubmit(student(18), { ip: '10.50.0.4', userAgent: PIXEL, device: null });
    expect(await flagsOf(student(18))).toEqual([]);
  });
});

describe('POST /api/attendance/flags/:flagId/review', () => {
  const review = (flagId: number, decision: unknown, cookie: string) =>
    t.app.inject({ method: 'POST', url: `/api/attendance/flags/${flagId}/review`, headers: { cookie }, payload: { decision } });

  it('lets the class instructor confirm or clear a flag, audited; not another instructor, not support staff', async () => {
    const [flag] = await flagsOf(student(15));
    const otherInstructor = (await t.signedIn('instructor')).cookie;
    const support = (await t.signedIn('support_staff')).cookie;
    expect((await review(flag!.id, 'confirmed', otherInstructor)).statusCode).toBe(403);
    expect((await review(flag!.id, 'confirmed', support)).statusCode).toBe(403);
    expect((await review(flag!.id, 'maybe', cls.instructor.cookie)).statusCode).toBe(400);
    expect((await review(999_999, 'confirmed', cls.instructor.cookie)).statusCode).toBe(404);
    expect((await flagsOf(student(15)))[0]!.status).toBe('flagged');

    const confirmed = await review(flag!.id, 'confirmed', cls.instructor.cookie);
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.json()).toMatchObject({ id: flag!.id, status: 'confirmed', reviewedAt: clock.now().toISOString(), reviewedBy: 'Test instructor' });
    expect((await flagsOf(student(15)))[0]).toMatchObject({ status: 'confirmed' });
    const audit = (await auditEntries(t.db, 'check_in_flags')).at(-1);
    expect(audit).toMatchObject({
      action: 'Update',
      record_id: String(flag!.id),
      user_id: cls.instructor.userId,
      old_values: { status: 'flagged' },
      new_values: { status: 'confirmed' },
    });

    // An administrator may change the decision; the record itself is left to an override.
    expect((await review(flag!.id, 'cleared', cls.admin)).json()).toMatchObject({ status: 'cleared' });
    expect((await roster()).find((r) => r.studentId === student(15).id)).toMatchObject({ status: 'late', isManualOverride: false });
  });
});
