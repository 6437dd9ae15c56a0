import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, type Config } from '../../config.ts';
import { attendanceRecords } from '../../db/schema/index.ts';
import { createFieldCipher } from '../../lib/field-cipher.ts';
import { buildCourse, buildProgram, buildProgramPolicy, buildRosterEntry, buildSchedule, buildStudent, paperSheet } from '../../test/factories.ts';
import { createTestApp, fixedClock, type TestApp } from '../../test/helpers.ts';
import { unsubscribeUrl } from '../outbox/service.ts';
import { STUDENT_TEXTS } from '../../../common/student-texts.ts';
import { sendLowAttendanceAlerts, toE164 } from './service.ts';
import type { AttendanceStatus } from '../../../common/constants.ts';

/*
 * A Monday class (weekly, 08:00–14:00, Chicago). Today is Tue 24 Nov 2026. The program alerts at 2
 * absences in a row and copies the student.
 *   Ana: absent 16 and 23 Nov (present before) → consecutive_absences fires, dates 16 and 23 Nov.
 *   Ben: present 23 Nov → nothing.
 */
const clock = fixedClock('2026-11-24T15:00:00Z');
const cipher = createFieldCipher(randomBytes(32));
let t: TestApp;
let config: Config;
let instructor: { userId: number; email: string };
let optedOutAdmin: { userId: number; email: string; cookie: string };
let optedInAdmin: { userId: number; email: string };
let ana: number;
let ben: number;
let scheduleId: number;
let programId: number;

/** The meeting's record from the paper sheet, or its status changed when it has one. */
const record = (studentId: number, sessionDate: string, status: AttendanceStatus) =>
  t.db
    .insert(attendanceRecords)
    .values({ studentId, scheduleId, sessionDate, status, ...paperSheet })
    .onConflictDoUpdate({ target: [attendanceRecords.scheduleId, attendanceRecords.studentId, attendanceRecords.sessionDate], set: { status } });
const outbox = async () =>
  (
    await t.db.execute<{
      channel: string;
      kind: string;
      recipient: string;
      subject: string | null;
      text_body: string;
      html_body: string | null;
      unsubscribe_url: string | null;
    }>(sql`select channel, kind, recipient, subject, text_body, html_body, unsubscribe_url from outbox_messages order by id`)
  ).rows;
const run = () => sendLowAttendanceAlerts({ db: t.db, config, cipher, clock });

beforeAll(async () => {
  config = {
    ...loadConfig({ NODE_ENV: 'test' }),
    smtp: { url: 'smtp://127.0.0.1:2525', from: 'Muster <muster@school.test>' },
    publicUrl: 'https://muster.school.test',
  };
  t = await createTestApp({ clock, config, cipher });
  const sa = await t.signedIn('super_admin');
  await t.app.inject({
    method: 'PUT',
    url: '/api/settings',
    headers: { cookie: sa.cookie },
    payload: { attendance: { timeZone: 'America/Chicago' }, system: { schoolName: 'Lakeside Career College' } },
  });
  // The super admin has turned alert e-mails off for themselves.
  await t.app.inject({ method: 'PUT', url: '/api/settings', headers: { cookie: sa.cookie }, payload: { notifications: { lowAttendanceAlerts: false } } });
  optedOutAdmin = sa;
  optedInAdmin = await t.signedIn('it_admin');
  instructor = await t.signedIn('instructor');
  const inactive = await t.signedIn('it_admin');
  await t.db.execute(sql`update users set is_active = false where id = ${inactive.userId}`);
  await t.signedIn('support_staff');
  programId = (await buildProgram(t.db, { programName: 'Practical Nursing' })).id;
  await buildProgramPolicy(t.db, { programId, consecutiveAbsenceAlert: 2, alertCopyToStudent: true });
  const courseId = (await buildCourse(t.db, { courseCode: 'PN-101', courseName: 'Foundations of Nursing', programId, clockHours: '60' })).id;
  scheduleId = (
    await buildSchedule(t.db, {
      courseId,
      instructorId: instructor.userId,
      dayOfWeek: 1,
      startTime: '08:00',
      endTime: '14:00',
      courseStartDate: '2026-09-07',
      courseEndDate: '2026-12-21',
    })
  ).id;
  ana = (
    await buildStudent(t.db, { firstName: 'Ana', lastName: 'Diaz', sisStudentId: 'S-1', programId, email: 'ana.diaz@student.test', phone: '(312) 555-0142' })
  ).id;
  ben = (await buildStudent(t.db, { firstName: 'Ben', lastName: 'Ode', sisStudentId: 'S-2', programId, email: 'ben@student.test' })).id;
  for (const studentId of [ana, ben]) await buildRosterEntry(t.db, { scheduleId, studentId });
  for (const d of ['2026-10-26', '2026-11-02', '2026-11-09']) {
    await record(ana, d, 'present');
    await record(ben, d, 'present');
  }
  await record(ana, '2026-11-16', 'absent');
  await record(ana, '2026-11-23', 'absent');
  await record(ben, '2026-11-16', 'absent');
  await record(ben, '2026-11-23', 'present');
});
afterAll(() => t.close());

describe('low-attendance alert e-mails', () => {
  it('does nothing while e-mail is not configured', async () => {
    expect(await sendLowAttendanceAlerts({ db: t.db, config: { ...config, smtp: null }, cipher, clock })).toEqual({ skipped: 'e-mail is not configured' });
    expect(await outbox()).toEqual([]);
  });

  it('e-mails the instructor and the administrators who want alerts, with the rule in words and the dates; a copy to the student', async () => {
    // Two rules fire for Ana: 2 absences in a row (the program's N), and 3 of her last 5 (60 %, under 80 %).
    const result = await run();
    expect(result).toMatchObject({ alerts: 2 });
    const sent = await outbox();
    const staff = sent.filter((m) => m.kind === 'low_attendance');
    expect(staff.map((m) => m.recipient).sort()).toEqual([instructor.email, instructor.email, optedInAdmin.email, optedInAdmin.email].sort());
    // The super admin turned alerts off for themselves; the inactive admin and support staff get none.
    expect(staff.map((m) => m.recipient)).not.toContain(optedOutAdmin.email);
    expect(staff.some((m) => m.text_body.includes('attended 3 of the last 5 classes of PN-101 (60%), below 80%'))).toBe(true);
    const mail = staff.find((m) => m.text_body.includes('in a row'))!;
    expect(mail.subject).toBe('Attendance alert: Ana Diaz, PN-101');
    expect(mail.text_body).toContain('2 absences in a row in PN-101 (this program alerts at 2)');
    expect(mail.text_body).toContain('Mon, Nov 16, 2026');
    expect(mail.text_body).toContain('Mon, Nov 23, 2026');
    expect(mail.text_body).toContain(`https://muster.school.test/students/${ana}`);
    expect(mail.unsubscribe_url).toMatch(/^https:\/\/muster\.school\.test\/unsubscribe\?token=/);
    expect(mail.html_body).toContain('Ana Diaz');
    // Ben was present at the last meeting: never named.
    expect(sent.some((m) => m.text_body.includes('Ben'))).toBe(false);
    const student = sent.find((m) => m.kind === 'student_absence' && m.channel === 'email')!;
    expect(student.recipient).toBe('ana.diaz@student.test');
    expect(student.text_body).toContain('make up missed time');
    // English, then Spanish, in one notice.
    expect(student.subject).toBe('Lakeside Career College: you missed Foundations of Nursing / Lakeside Career College: faltaste a Foundations of Nursing');
    expect(student.text_body).toContain('Our attendance records show you were absent from Foundations of Nursing (PN-101) on:\nMon, Nov 16, 2026');
    expect(student.text_body).toContain('Según nuestros registros de asistencia, faltaste a Foundations of Nursing (PN-101) el:\nlun, 16 de nov de 2026');
    expect(student.html_body).toContain('Dejar de recibir estos avisos');
    // SMS is off at this school: no text message.
    expect(sent.filter((m) => m.channel === 'sms')).toEqual([]);
  });

  it('does not send the same rule for the same student again within a week; does after', async () => {
    const before = (await outbox()).length;
    await record(ana, '2026-11-23', 'absent');
    expect(await run()).toMatchObject({ alerts: 0 });
    clock.advance(7 * 86_400_000 + 60_000);
    await record(ana, '2026-11-30', 'absent');
    // Three in a row now: the consecutive rule again (the rate rule yields to it, as on the dashboard).
    expect(await run()).toMatchObject({ alerts: 1 });
    expect((await outbox()).length).toBeGreaterThan(before);
    clock.set('2026-11-24T15:00:00Z');
  });

  it('never fires for a student now marked present in a meeting the rule would name', async () => {
    await t.db.execute(sql`delete from student_alerts; delete from outbox_messages`);
    await record(ana, '2026-11-23', 'present');
    await t.db.execute(sql`delete from attendance_records where session_date = '2026-11-30'`);
    expect(await run()).toMatchObject({ alerts: 0 });
    expect(await outbox()).toEqual([]);
  });

  it('sends the student an SMS for consecutive absences when the school switches SMS on and a provider is set', async () => {
    await t.db.execute(sql`delete from student_alerts; delete from outbox_messages; update school_settings set sms_notifications = true`);
    await record(ana, '2026-11-23', 'absent');
    const withSms = { ...config, sms: { apiUrl: 'http://127.0.0.1:9/Messages.json', username: 'AC1', password: 'x', from: '+15550001111' } };
    await sendLowAttendanceAlerts({ db: t.db, config: withSms, cipher, clock });
    const sms = (await outbox()).filter((m) => m.channel === 'sms');
    expect(sms).toHaveLength(1);
    expect(sms[0]).toMatchObject({ recipient: '+13125550142', kind: 'student_absence' });
    // English, then Spanish: the school does not record which one a student reads.
    expect(sms[0]!.text_body).toBe(
      'Lakeside Career College: you were absent from PN-101 on Mon, Nov 16, Mon, Nov 23. Please see your instructor about making up the time. Reply STOP to opt out. ' +
        'Lakeside Career College: faltaste a PN-101 el lun, 16 de nov, lun, 23 de nov. Habla con tu instructor para recuperar el tiempo. Responde STOP para no recibir más mensajes.',
    );
  });

  it('normalises phone numbers to E.164 and skips what cannot be one', () => {
    expect(toE164('(312) 555-0142')).toBe('+13125550142');
    expect(toE164('1-312-555-0142')).toBe('+13125550142');
    expect(toE164('+44 20 7946 0958')).toBe('+442079460958');
    expect(toE164('555-0142')).toBeNull();
    expect(toE164(null)).toBeNull();
  });
});

describe('unsubscribe links', () => {
  it('answer a token that does not open and one that opens but names no one with the same page', async () => {
    const tokenOf = (target: Parameters<typeof unsubscribeUrl>[2]) => new URL(unsubscribeUrl(config, cipher, target)).searchParams.get('token')!;
    const get = (token: string) => t.app.inject({ url: `/unsubscribe?token=${encodeURIComponent(token)}` });
    const post = (token: string) =>
      t.app.inject({
        method: 'POST',
        url: '/unsubscribe',
        payload: `token=${encodeURIComponent(token)}`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
    const answer = async (res: Promise<{ statusCode: number; body: string }>) => {
      const r = await res;
      return { status: r.statusCode, body: r.body };
    };
    const invalid = await answer(get('not-a-token'));
    expect(invalid.status).toBe(400);
    expect(invalid.body).toContain('This unsubscribe link is not valid');
    const invalidPost = await answer(post('not-a-token'));
    const others = {
      'a user that does not exist': tokenOf({ userId: 999_999, switch: 'weeklyReports' }),
      'a student that does not exist': tokenOf({ studentId: 999_999 }),
      // Sealed by this installation, for another purpose (the SSO state cookie's key).
      'another purpose': cipher.for('sso-state').encrypt(JSON.stringify({ userId: optedInAdmin.userId, switch: 'lowAttendanceAlerts' })),
      'a tampered tag': (() => {
        const [v, iv, tag, data] = tokenOf({ studentId: ana }).split('.');
        return [v, iv, tag!.slice(0, 16), data].join('.');
      })(),
    };
    for (const [what, token] of Object.entries(others)) {
      expect(await answer(get(token)), what).toEqual(invalid);
      expect(await answer(post(token)), what).toEqual(invalidPost);
    }
    expect((await t.db.execute<{ o: boolean }>(sql`select notices_opt_out_at is not null as o from students where id = ${ana}`)).rows[0]!.o).toBe(false);
  });

  it('work without signing in: a user’s switch goes off; a student stops getting notices; a tampered link is refused', async () => {
    // A link sealed with another installation's key is not one of ours.
    const foreign = new URL(unsubscribeUrl(config, createFieldCipher(randomBytes(32)), { userId: optedInAdmin.userId, switch: 'lowAttendanceAlerts' }));
    const refused = await t.app.inject({ url: `/unsubscribe${foreign.search}` });
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toContain('This unsubscribe link is not valid');

    // The links the alert job wrote.
    await t.db.execute(sql`delete from student_alerts; delete from outbox_messages; update school_settings set sms_notifications = false`);
    await record(ana, '2026-11-23', 'absent');
    await run();
    const sent = await outbox();
    const adminLink = new URL(sent.find((m) => m.recipient === optedInAdmin.email)!.unsubscribe_url!);
    const page = await t.app.inject({ url: `${adminLink.pathname}${adminLink.search}` });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Stop low-attendance alerts?');
    const original = adminLink.searchParams.get('token')!;
    const at = original.length - 10;
    const tampered = `${original.slice(0, at)}${original[at] === 'A' ? 'B' : 'A'}${original.slice(at + 1)}`;
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/unsubscribe',
          payload: `token=${tampered}`,
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        })
      ).statusCode,
    ).toBe(400);
    // One-click from a mail program: POST to the link itself (RFC 8058).
    const done = await t.app.inject({
      method: 'POST',
      url: `${adminLink.pathname}${adminLink.search}`,
      payload: 'List-Unsubscribe=One-Click',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(done.statusCode).toBe(200);
    expect(done.body).toContain('You will no longer receive low-attendance alerts');
    const admin = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: optedInAdmin.email, password: 'correct horse battery' } });
    const cookie = `muster_session=${admin.cookies.find((c) => c.name === 'muster_session')!.value}`;
    expect((await t.app.inject({ url: '/api/settings', headers: { cookie } })).json().notifications.lowAttendanceAlerts).toBe(false);

    const studentLink = new URL(sent.find((m) => m.recipient === 'ana.diaz@student.test')!.unsubscribe_url!);
    const token = studentLink.searchParams.get('token')!;
    // The student's page asks in English and Spanish, as the notice was written.
    const ask = await t.app.inject({ url: `${studentLink.pathname}${studentLink.search}` });
    expect(ask.body).toContain(STUDENT_TEXTS.en.unsubscribeAsk);
    expect(ask.body).toContain(`<p lang="es">${STUDENT_TEXTS.es.unsubscribeAsk}</p>`);
    const form = await t.app.inject({
      method: 'POST',
      url: '/unsubscribe',
      payload: `token=${encodeURIComponent(token)}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(form.statusCode).toBe(200);
    expect(form.body).toContain(STUDENT_TEXTS.en.unsubscribed);
    expect(form.body).toContain(STUDENT_TEXTS.es.unsubscribed);
    expect((await t.db.execute<{ o: boolean }>(sql`select notices_opt_out_at is not null as o from students where id = ${ana}`)).rows[0]!.o).toBe(true);
    // Opted out: the next alert goes to staff only.
    await t.db.execute(sql`delete from student_alerts; delete from outbox_messages`);
    await run();
    expect((await outbox()).some((m) => m.recipient === 'ana.diaz@student.test')).toBe(false);
  });
});
