import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  OVERRIDE_VALIDATION,
  SCAN_CODE_OR_DETAILS,
  SCAN_DEVICE_USED,
  SCAN_EXPIRED,
  SCAN_NO_MATCH,
  SCAN_NOT_FOUND,
  SCAN_OPEN_LINK,
  SESSION_ALREADY_OPEN,
} from '../../../common/attendance.ts';
import { SCAN_SESSION_ENDED_TEXT } from '../../../common/qr-sessions.ts';
import { markAbsentees } from '../../jobs/auto-absent.ts';
import { fixedClock } from '../../lib/clock.ts';
import { buildCourse, buildProgram, buildStudent } from '../../test/factories.ts';
import { auditEntries, createTestApp, type TestApp } from '../../test/helpers.ts';

// Monday 2 March 2026 in Chicago (UTC-6): class 08:00–12:00 local = 14:00–18:00Z.
const clock = fixedClock('2026-03-02T13:55:00Z');
let t: TestApp;
let admin: string;
let instr: { cookie: string; userId: number };
let other: { cookie: string; userId: number };
let scheduleId: number;
const students: { id: number; sis: string; first: string; last: string; email: string }[] = [];

beforeAll(async () => {
  t = await createTestApp({ clock });
  admin = (await t.signedIn('it_admin')).cookie;
  instr = await t.signedIn('instructor');
  other = await t.signedIn('instructor');
  // The test's clock jumps hours ahead; keep the staff signed in meanwhile.
  const sa = (await t.signedIn('super_admin')).cookie;
  await t.app.inject({
    method: 'PUT',
    url: '/api/settings',
    headers: { cookie: sa },
    payload: { attendance: { timeZone: 'America/Chicago' }, security: { sessionTimeoutMinutes: 1440 } },
  });
  const programId = (await buildProgram(t.db, { programName: 'PN' })).id;
  const courseId = (await buildCourse(t.db, { courseCode: 'NUR-101', courseName: 'Fundamentals of Nursing', programId })).id;
  const names = [['José', 'Peña'], ['Amy', 'Lee'], ['Bea', 'Kim'], ...Array.from({ length: 60 }, (_, i) => [`S${i}`, `Bulk${i}`])];
  for (const [i, [first, last]] of names.entries()) {
    const sis = `STU-${1000 + i}`;
    const email = `${first!.toLowerCase()}.${i}@student.edu`;
    const { id } = await buildStudent(t.db, { firstName: first!, lastName: last!, email, sisStudentId: sis, programId });
    students.push({ id, sis, first: first!, last: last!, email });
  }
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/schedules',
    headers: { cookie: admin },
    payload: {
      courseId,
      instructorId: instr.userId,
      cohortNumber: 1,
      termNumber: 1,
      dayOfWeek: 1,
      startTime: '08:00',
      endTime: '12:00',
      roomNumber: 'B-204',
      courseStartDate: '2026-01-05',
      courseEndDate: '2026-06-01',
    },
  });
  scheduleId = res.json().id;
});
afterAll(() => t.close());

let sessionId: string;
let numericId: number;
const start = (cookie: string) => t.app.inject({ method: 'POST', url: '/api/qr-sessions', headers: { cookie }, payload: { scheduleId } });
const image = async () => (await t.app.inject({ url: `/api/qr-sessions/${sessionId}/qr-image`, headers: { cookie: instr.cookie } })).json();
const endSession = () => t.app.inject({ method: 'PUT', url: `/api/qr-sessions/${sessionId}/deactivate`, headers: { cookie: instr.cookie } });
const tokenNow = async () => new URL((await image()).attendanceUrl).searchParams.get('t')!;
const submit = (s: (typeof students)[number], extra: object, device = `dev-${s.id}-xxxxxxxxxxxx`) =>
  t.app.inject({
    method: 'POST',
    url: '/api/attendance/submit',
    cookies: { muster_device: device },
    payload: { sessionId, studentId: s.sis, firstName: s.first, lastName: s.last, email: s.email, scanInTime: '1999-01-01T00:00:00Z', ...extra },
  });

describe('QR sessions', () => {
  it('lets the schedule instructor start one session, not a second, not someone else', async () => {
    expect((await start(other.cookie)).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'POST', url: '/api/qr-sessions', headers: { cookie: instr.cookie }, payload: {} })).json().message).toContain(
      'No Schedule Selected',
    );
    const res = await start(instr.cookie);
    expect(res.statusCode).toBe(201);
    const s = res.json();
    expect(s).toMatchObject({ scheduleId, courseName: 'Fundamentals of Nursing', roomNumber: 'B-204', sessionDate: '2026-03-02', status: 'active' });
    // Started for its class: open until the end of class (12:00 local) + 15 minutes (docs/decisions/042).
    expect(s.expiresAt).toBe('2026-03-02T18:15:00.000Z');
    sessionId = s.sessionId;
    numericId = s.id;
    const again = await start(instr.cookie);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(SESSION_ALREADY_OPEN);
    expect(
      (await t.app.inject({ url: '/api/qr-sessions/active', headers: { cookie: instr.cookie } })).json().map((x: { sessionId: string }) => x.sessionId),
    ).toEqual([sessionId]);
    expect((await t.app.inject({ url: '/api/qr-sessions/active', headers: { cookie: other.cookie } })).json()).toEqual([]);
  });

  it('serves a rotating QR image with the scan URL', async () => {
    const img = await image();
    expect(img.qrCode).toMatch(/^data:image\/png;base64,/);
    expect(img.attendanceUrl).toMatch(new RegExp(`/attendance/scan/${sessionId}\\?t=`));
    expect(img.shortCode).toMatch(/^\d{6}$/);
    clock.advance(15_000);
    expect((await image()).attendanceUrl).not.toBe(img.attendanceUrl);
    expect((await t.app.inject({ url: `/api/qr-sessions/${numericId}/qr-image`, headers: { cookie: other.cookie } })).statusCode).toBe(403);
  });

  it('tells the public page about the session and gives a fresh code a pass', async () => {
    const fresh = await t.app.inject({ url: `/api/qr-sessions/public/${sessionId}?t=${await tokenNow()}` });
    expect(fresh.json()).toMatchObject({
      courseName: 'Fundamentals of Nursing',
      roomNumber: 'B-204',
      sessionDate: '2026-03-02',
      startTime: '08:00',
      status: 'active',
    });
    expect(fresh.json().pass).toBeTruthy();
    expect(fresh.cookies.find((c) => c.name === 'muster_device')?.httpOnly).toBe(true);
    const stale = await t.app.inject({ url: `/api/qr-sessions/public/${sessionId}?t=forged123456` });
    expect(stale.json().pass).toBeNull();
    expect((await t.app.inject({ url: '/api/qr-sessions/public/00000000-0000-0000-0000-000000000000' })).statusCode).toBe(404);
    expect((await t.app.inject({ url: '/api/qr-sessions/public/not-a-session' })).statusCode).toBe(404);
  });
});

describe('POST /api/attendance/submit', () => {
  it('checks in a rostered student as present, by SIS id, ignoring case and accents', async () => {
    const jose = students[0]!;
    const res = await submit(jose, { token: await tokenNow(), firstName: 'JOSE', lastName: 'pena' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ action: 'checked_in', status: 'present', courseName: 'Fundamentals of Nursing' });
    // The server's clock decides; the phone's time is only a hint.
    expect(res.json().scanInTime).toBe(clock.now().toISOString());
    const { rows } = await t.db.execute<{ client_scan_in_time: Date; source: string }>(
      sql`select client_scan_in_time, source from attendance_records where student_id = ${jose.id}`,
    );
    expect(rows[0]).toMatchObject({ source: 'qr' });
    expect(new Date(rows[0]!.client_scan_in_time).toISOString()).toBe('1999-01-01T00:00:00.000Z');
    const created = (await auditEntries(t.db, 'attendance')).filter((a) => a.action === 'Create');
    expect(created).toHaveLength(1);
    expect(created[0]).toMatchObject({ user_id: null, new_values: { studentId: jose.id, status: 'present', source: 'qr' } });
  });

  it('treats a repeat within two minutes as a retry: same answer, nothing changes', async () => {
    const jose = students[0]!;
    clock.advance(30_000);
    const res = await submit(jose, { token: await tokenNow() });
    expect(res.json()).toMatchObject({ action: 'checked_in', status: 'present' });
    const { rows } = await t.db.execute<{ n: number }>(sql`select count(*)::int as n from attendance_records where student_id = ${jose.id}`);
    expect(rows[0]!.n).toBe(1);
  });

  it('matches by internal id and e-mail too, and answers an unknown id exactly like a wrong name', async () => {
    const amy = students[1]!;
    const token = await tokenNow();
    // With the pass from opening a fresh QR code, only the details are in question.
    const opened = await t.app.inject({ url: `/api/qr-sessions/public/${sessionId}?t=${token}`, cookies: { muster_device: `dev-${amy.id}-xxxxxxxxxxxx` } });
    const pass = opened.json().pass;
    const wrongName = await submit(amy, { pass, firstName: 'Someone', lastName: 'Else', email: 'nope@x.edu' });
    const unknownId = await submit(amy, { pass, studentId: 'STU-99999' });
    expect(wrongName.statusCode).toBe(400);
    expect(unknownId.statusCode).toBe(400);
    expect(wrongName.json().message).toBe(SCAN_NO_MATCH);
    expect(unknownId.json()).toEqual(wrongName.json());
    const byEmail = await submit(amy, { token, studentId: String(amy.id), firstName: 'Wrong', lastName: 'Name' });
    expect(byEmail.json().action).toBe('checked_in');
  });

  it('refuses a stale or forged code, and a URL replayed an hour later', async () => {
    const bea = students[2]!;
    const old = await tokenNow();
    clock.advance(31_000);
    expect((await submit(bea, { token: old })).json().message).toBe(SCAN_CODE_OR_DETAILS);
    expect((await submit(bea, { token: 'AAAAAAAAAAAA' })).statusCode).toBe(403);
    // No code and no pass: the form was not reached through the QR link.
    expect((await submit(bea, {})).json()).toMatchObject({ code: 'OPEN_LINK', message: SCAN_OPEN_LINK });
    expect(SCAN_OPEN_LINK).toContain('Open the link from the QR code in your classroom');
    const url = (await image()).attendanceUrl;
    clock.advance(60 * 60_000);
    // The session lasts the class (docs/decisions/042): an hour later it is open, the code is not.
    const later = await submit(bea, { token: new URL(url).searchParams.get('t') });
    expect(later.statusCode).toBe(403);
    expect(later.json().message).toBe(SCAN_CODE_OR_DETAILS);
    clock.advance(4 * 60 * 60_000); // after class + 15 minutes: the session itself has expired
    const afterClass = await submit(bea, { token: new URL(url).searchParams.get('t') });
    expect(afterClass.statusCode).toBe(410);
    expect(afterClass.json()).toMatchObject({ code: 'SESSION_EXPIRED', message: SCAN_EXPIRED });
    clock.advance(-5 * 60 * 60_000 + 45_000); // back in the session, 45 s after the URL was copied
    expect((await submit(bea, { token: new URL(url).searchParams.get('t') })).statusCode).toBe(403);
  });

  it('lets a slow typist finish with the pass from opening a fresh code, on that device only', async () => {
    const bea = students[2]!;
    const device = 'bea-phone-123456789';
    const opened = await t.app.inject({ url: `/api/qr-sessions/public/${sessionId}?t=${await tokenNow()}`, cookies: { muster_device: device } });
    const pass = opened.json().pass;
    clock.advance(4 * 60_000);
    expect((await submit(bea, { pass }, 'another-device-0000')).statusCode).toBe(403);
    const res = await submit(bea, { pass }, device);
    expect(res.json()).toMatchObject({ action: 'checked_in', status: 'present' }); // 08:01 local, within the late threshold
  });

  it('checks in a SPEC client that posts only the six fields, from the phone that opened the link', async () => {
    const jose = students[40]!; // one of the bulk students, so later counts stay as they were
    const device = 'spec-phone-123456789';
    const opened = await t.app.inject({ url: `/api/qr-sessions/public/${sessionId}?t=${await tokenNow()}`, cookies: { muster_device: device } });
    const passCookie = opened.cookies.find((c) => c.name.startsWith('muster_pass_'))!;
    expect(passCookie).toMatchObject({ httpOnly: true, path: '/api/attendance/submit', value: opened.json().pass });
    const six = { sessionId, studentId: jose.sis, firstName: jose.first, lastName: jose.last, email: jose.email, scanInTime: '2026-03-02T14:01:00Z' };
    // Another phone, without the cookie: sent back to the QR link.
    const elsewhere = await t.app.inject({ method: 'POST', url: '/api/attendance/submit', cookies: { muster_device: 'other-phone-0000000' }, payload: six });
    expect(elsewhere.json()).toMatchObject({ code: 'OPEN_LINK', message: SCAN_OPEN_LINK });
    // The cookie is the pass of this session only: for another session's id it is not read.
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/attendance/submit',
      cookies: { muster_device: device, [passCookie.name]: passCookie.value },
      payload: six,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ action: expect.stringMatching(/checked_(in|out)/) });
  });

  it('lets a student who cannot scan type the six-digit code at /attendance/scan', async () => {
    const last = students[62]!;
    const { shortCode } = await image();
    const wrong = await t.app.inject({ method: 'POST', url: '/api/qr-sessions/code', payload: { code: shortCode === '000000' ? '000001' : '000000' } });
    expect(wrong.statusCode).toBe(404);
    const device = 'typed-code-phone-0001';
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/qr-sessions/code',
      cookies: { muster_device: device },
      payload: { code: `${shortCode.slice(0, 3)} ${shortCode.slice(3)}` },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ sessionId, courseName: 'Fundamentals of Nursing' });
    const checkIn = await submit(last, { pass: res.json().pass }, device);
    expect(checkIn.json()).toMatchObject({ action: 'checked_in' });
    expect((await t.app.inject({ method: 'POST', url: '/api/qr-sessions/code', payload: { code: '12ab56' } })).statusCode).toBe(400);
  });

  it('does not let one device check in a second student', async () => {
    const bulk = students[3]!;
    const res = await submit(bulk, { token: await tokenNow() }, 'bea-phone-123456789');
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(SCAN_DEVICE_USED);
  });

  it('keeps one student per device and one record per student when phones race', async () => {
    const token = await tokenNow();
    const [a, b, c] = [students[60]!, students[61]!, students[62]!];
    // One phone naming two students at the same instant (they go through together): one gets in.
    const race = await Promise.all([submit(a, { token }, 'racing-phone-00000001'), submit(b, { token }, 'racing-phone-00000001')]);
    expect(race.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    expect(race.find((r) => r.statusCode === 409)!.json().message).toBe(SCAN_DEVICE_USED);
    // One student's double tap: both answered as checked in, one record, one audit entry, one origin.
    const twice = await Promise.all([submit(c, { token }), submit(c, { token })]);
    expect(twice.map((r) => r.json().action)).toEqual(['checked_in', 'checked_in']);
    const { rows } = await t.db.execute<{ id: number; student_id: number; device_id: string; origins: number }>(sql`
      select a.id, a.student_id, a.device_id, (select count(*)::int from check_in_origins o where o.attendance_record_id = a.id) as origins
        from attendance_records a where a.schedule_id = ${scheduleId} and a.student_id in (${a.id}, ${b.id}, ${c.id}) order by a.student_id`);
    expect(rows.map((r) => r.device_id).filter((d) => d === 'racing-phone-00000001')).toHaveLength(1);
    const cRecord = rows.find((r) => r.student_id === c.id)!;
    expect(cRecord.origins).toBe(1);
    expect((await auditEntries(t.db, 'attendance')).filter((e) => e.action === 'Create' && e.record_id === String(cRecord.id))).toHaveLength(1);
  });

  it('lets 60 students on one school Wi-Fi address check in within a minute', async () => {
    const token = await tokenNow();
    const results = await Promise.all(students.slice(3).map((s) => submit(s, { token })));
    expect(results.map((r) => r.statusCode)).toEqual(Array(60).fill(200));
    // Each has exactly one record of the meeting, with its audit entry and its origin.
    const { rows } = await t.db.execute<{ n: number; audited: number; origins: number }>(sql`
      select count(*)::int as n,
             count(*) filter (where exists (select 1 from audit_logs l where l.table_name = 'attendance' and l.action = 'Create' and l.record_id = a.id::text))::int as audited,
             count(*) filter (where exists (select 1 from check_in_origins o where o.attendance_record_id = a.id))::int as origins
        from attendance_records a where a.schedule_id = ${scheduleId} and a.session_date = '2026-03-02' and a.student_id = any(${sql.param(students.slice(3).map((s) => s.id))}::int[])`);
    expect(rows[0]).toEqual({ n: 60, audited: 60, origins: 60 });
  });

  it('checks a student out on a later check-out: minutes = overlap with class, incomplete when leaving early', async () => {
    const jose = students[0]!;
    clock.set('2026-03-02T17:00:00Z'); // 11:00 local, an hour before the end
    // The session would last until 12:15; the instructor ends it and opens a new one for the end of class.
    expect((await endSession()).statusCode).toBe(200);
    expect((await submit(jose, { token: 'x' })).json()).toMatchObject({ code: 'SESSION_ENDED', message: SCAN_SESSION_ENDED_TEXT });
    const s2 = await start(instr.cookie);
    expect(s2.statusCode).toBe(201);
    sessionId = s2.json().sessionId;
    // A check-out is asked for (intent), and before the end of class confirmed (docs/decisions/039).
    const res = await submit(jose, { token: await tokenNow(), intent: 'check-out', confirm: true });
    expect(res.json()).toMatchObject({ action: 'checked_out', status: 'incomplete', minutesAttended: 180 });
    const amy = students[1]!;
    clock.set('2026-03-02T17:52:00Z'); // 11:52 local: the second session is ended, a third one opens
    expect((await endSession()).statusCode).toBe(200);
    sessionId = (await start(instr.cookie)).json().sessionId;
    // Within the early-leave threshold of the end: no confirmation needed.
    const ok = await submit(amy, { token: await tokenNow(), intent: 'check-out' });
    expect(ok.json()).toMatchObject({ action: 'checked_out', status: 'present', minutesAttended: 232 }); // from the 08:00 start (she came early) to 11:52
    expect((await auditEntries(t.db, 'attendance')).filter((a) => a.action === 'Update').length).toBe(2);
  });

  it('answers Session Not Found and Session Expired, and refuses ended sessions', async () => {
    expect((await submit(students[4]!, { sessionId: '00000000-0000-0000-0000-000000000000' })).json().message).toBe(SCAN_NOT_FOUND);
    const end = await endSession();
    expect(end.json()).toMatchObject({ status: 'expired', closed: 'ended' });
    // Ended by the instructor: the student is told so, not "expired" (docs/decisions/042).
    const res = await submit(students[4]!, { token: 'whatever' });
    expect(res.statusCode).toBe(410);
    expect(res.json()).toMatchObject({ code: 'SESSION_ENDED', message: SCAN_SESSION_ENDED_TEXT });
    expect((await t.app.inject({ url: `/api/qr-sessions/public/${sessionId}` })).json()).toMatchObject({ status: 'expired', closed: 'ended' });
  });
});

describe('roster, overrides and clock hours', () => {
  it('merges the whole roster with the day, no placeholders', async () => {
    const rows = (await t.app.inject({ url: `/api/attendance/schedule/${scheduleId}`, headers: { cookie: instr.cookie } })).json();
    expect(rows).toHaveLength(63);
    expect(rows.find((r: { studentId: number }) => r.studentId === students[0]!.id)).toMatchObject({
      status: 'incomplete',
      minutesAttended: 180,
      scheduledMinutes: 240,
    });
    expect((await t.app.inject({ url: `/api/attendance/schedule/${scheduleId}`, headers: { cookie: other.cookie } })).statusCode).toBe(403);
  });

  it('requires a status and a reason, lets only the schedule instructor or an admin override, and audits', async () => {
    const rec = (await t.app.inject({ url: `/api/attendance/schedule/${scheduleId}`, headers: { cookie: instr.cookie } }))
      .json()
      .find((r: { studentId: number }) => r.studentId === students[0]!.id);
    const blank = await t.app.inject({
      method: 'PUT',
      url: `/api/attendance/${rec.id}`,
      headers: { cookie: instr.cookie },
      payload: { status: 'present', isManualOverride: true, overrideReason: '  ' },
    });
    expect(blank.statusCode).toBe(400);
    expect(blank.json().errors[0].message).toBe(OVERRIDE_VALIDATION);
    expect(
      (
        await t.app.inject({
          method: 'PUT',
          url: `/api/attendance/${rec.id}`,
          headers: { cookie: instr.cookie },
          payload: { status: 'incomplete', overrideReason: 'x' },
        })
      ).statusCode,
    ).toBe(400);
    const body = { status: 'excused', isManualOverride: true, overrideReason: 'Clinical rotation at the hospital' };
    expect((await t.app.inject({ method: 'PUT', url: `/api/attendance/${rec.id}`, headers: { cookie: other.cookie }, payload: body })).statusCode).toBe(403);
    const ok = await t.app.inject({ method: 'PUT', url: `/api/attendance/${rec.id}`, headers: { cookie: instr.cookie }, payload: body });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ status: 'excused', isManualOverride: true, overrideReason: 'Clinical rotation at the hospital', minutesAttended: 0 });
    expect((await auditEntries(t.db, 'attendance')).at(-1)).toMatchObject({
      action: 'Update',
      user_id: instr.userId,
      old_values: { status: 'incomplete' },
      new_values: { status: 'excused' },
    });
    await t.app.inject({ method: 'PUT', url: '/api/settings', headers: { cookie: admin }, payload: { attendance: { allowInstructorOverride: false } } });
    expect((await t.app.inject({ method: 'PUT', url: `/api/attendance/${rec.id}`, headers: { cookie: instr.cookie }, payload: body })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'PUT', url: `/api/attendance/${rec.id}`, headers: { cookie: admin }, payload: body })).statusCode).toBe(200);
    await t.app.inject({ method: 'PUT', url: '/api/settings', headers: { cookie: admin }, payload: { attendance: { allowInstructorOverride: true } } });
  });

  it('creates a record for a rostered student who has none', async () => {
    const target = students[62]!;
    await t.db.execute(sql`delete from attendance_records where student_id = ${target.id}`);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/attendance',
      headers: { cookie: instr.cookie },
      payload: { scheduleId, studentId: target.id, status: 'present', overrideReason: 'Scanned on paper sign-in sheet' },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ status: 'present', isManualOverride: true, source: 'manual', minutesAttended: 240 });
    const dup = await t.app.inject({
      method: 'POST',
      url: '/api/attendance',
      headers: { cookie: instr.cookie },
      payload: { scheduleId, studentId: target.id, status: 'late', overrideReason: 'x' },
    });
    expect(dup.statusCode).toBe(409);
  });

  it('reports clock hours per student and schedule', async () => {
    const res = await t.app.inject({ url: `/api/attendance/clock-hours?scheduleId=${scheduleId}`, headers: { cookie: instr.cookie } });
    const amy = res.json().find((r: { studentId: number }) => r.studentId === students[1]!.id);
    expect(amy).toMatchObject({ meetings: 1, scheduledMinutes: 240, attendedMinutes: 232, attendanceRate: 96.7 });
  });

  it('marks absentees autoMarkAbsentHours after class, once, never over an override', async () => {
    const absentee = students[10]!;
    await t.db.execute(sql`delete from attendance_records where student_id = ${absentee.id}`);
    clock.set('2026-03-02T19:59:00Z'); // 1 h 59 min after the end
    expect(await markAbsentees(t.db, clock)).toBe(0);
    clock.set('2026-03-02T20:00:00Z');
    expect(await markAbsentees(t.db, clock)).toBe(1);
    expect(await markAbsentees(t.db, clock)).toBe(0);
    const row = (await t.app.inject({ url: `/api/attendance/schedule/${scheduleId}?date=2026-03-02`, headers: { cookie: admin } }))
      .json()
      .find((r: { studentId: number }) => r.studentId === absentee.id);
    expect(row).toMatchObject({ status: 'absent', source: 'auto', isManualOverride: false });
    const excused = (await t.db.execute<{ status: string }>(sql`select status from attendance_records where student_id = ${students[0]!.id}`)).rows[0];
    expect(excused!.status).toBe('excused');
    const results = await Promise.all([markAbsentees(t.db, clock), markAbsentees(t.db, clock)]);
    expect(results).toEqual([0, 0]);
  });

  it('uses the QR expiry setting for new sessions', async () => {
    await t.app.inject({ method: 'PUT', url: '/api/settings', headers: { cookie: admin }, payload: { attendance: { qrCodeExpirationMinutes: 45 } } });
    // 14:00 local, after class: a session started off schedule lasts the setting (docs/decisions/042).
    const s = (await start(admin)).json();
    expect(new Date(s.expiresAt).getTime() - clock.now().getTime()).toBe(45 * 60_000);
  });
});
