import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { HOURS_LINK_REQUESTED } from '../../../common/my-hours.ts';
import { loadConfig, type Config } from '../../config.ts';
import { createFieldCipher } from '../../lib/field-cipher.ts';
import { pickStudentLanguage } from '../../lib/student-i18n.ts';
import {
  buildAttendanceRecord,
  buildCourse,
  buildProgram,
  buildProgramPolicy,
  buildRosterEntry,
  buildSchedule,
  buildStudent,
  paperSheet,
} from '../../test/factories.ts';
import { createTestApp, fixedClock, sessionsRanFor, type TestApp } from '../../test/helpers.ts';
import { hoursLinkRequestsSettled, purgeExpiredHoursLinks } from './service.ts';

/*
 * Ana (S-100, ana.diaz@student.test) has a Monday class 08:00–14:00 (Chicago) since 5 Oct 2026 in
 * a 600-hour, 30-week program. Today is Tue 24 Nov 2026: eight Mondays scheduled; present on five,
 * excused on 19 Oct, no record on 16 and 23 Nov (absent).
 */
const clock = fixedClock('2026-11-24T15:00:00Z');
const cipher = createFieldCipher(randomBytes(32));
let t: TestApp;
let config: Config;
let ana: number;
let admin: { cookie: string };

const outbox = async () =>
  (
    await t.db.execute<{ kind: string; recipient: string; subject: string; text_body: string; html_body: string; student_id: number | null }>(
      sql`select kind, recipient, subject, text_body, html_body, student_id from outbox_messages order by id`,
    )
  ).rows;
const send = (payload: Record<string, unknown>, ip = '203.0.113.7') =>
  t.app.inject({ method: 'POST', url: '/api/my-hours/request', payload, remoteAddress: ip });
/** Ask, then wait for the lookup and queueing that run after the answer. */
const ask = async (payload: Record<string, unknown>, ip?: string) => {
  const res = await send(payload, ip);
  await hoursLinkRequestsSettled();
  return res;
};
const tokenIn = (text: string) => /\/my-hours\/([A-Za-z0-9_-]{43})/.exec(text)?.[1];

beforeAll(async () => {
  config = {
    ...loadConfig({ NODE_ENV: 'test' }),
    smtp: { url: 'smtp://127.0.0.1:2525', from: 'Muster <muster@school.test>' },
    publicUrl: 'https://muster.school.test',
  };
  t = await createTestApp({ clock, config, cipher });
  admin = await t.signedIn('super_admin');
  await t.app.inject({
    method: 'PUT',
    url: '/api/settings',
    headers: { cookie: admin.cookie },
    payload: { attendance: { timeZone: 'America/Chicago' }, system: { schoolName: 'Lakeside Career College' } },
  });
  const instructor = await t.signedIn('instructor');
  const programId = (await buildProgram(t.db, { programName: 'Cosmetology' })).id;
  await buildProgramPolicy(t.db, { programId, programHours: '600', programWeeks: '30' });
  const courseId = (await buildCourse(t.db, { courseCode: 'COS-101', courseName: 'Hair Design', programId, clockHours: '60' })).id;
  const scheduleId = (
    await buildSchedule(t.db, {
      courseId,
      instructorId: instructor.userId,
      dayOfWeek: 1,
      startTime: '08:00',
      endTime: '14:00',
      courseStartDate: '2026-10-05',
      courseEndDate: '2026-12-21',
    })
  ).id;
  ana = (
    await buildStudent(t.db, {
      firstName: 'Ana',
      lastName: 'Diaz',
      sisStudentId: 'S-100',
      programId,
      email: 'Ana.Diaz@student.test',
      enrollmentDate: '2026-10-05',
    })
  ).id;
  await buildStudent(t.db, { firstName: 'Ben', lastName: 'Ode', sisStudentId: 'S-200', programId });
  await buildRosterEntry(t.db, { scheduleId, studentId: ana });
  await sessionsRanFor(t.db, [scheduleId], '2026-10-05', '2026-11-30');
  for (const [sessionDate, status] of [
    ['2026-10-05', 'present'],
    ['2026-10-12', 'present'],
    ['2026-10-19', 'excused'],
    ['2026-10-26', 'present'],
    ['2026-11-02', 'present'],
    ['2026-11-09', 'present'],
  ] as const) {
    await buildAttendanceRecord(t.db, { studentId: ana, scheduleId, sessionDate, status, ...paperSheet });
  }
});
afterAll(() => t.close());
beforeEach(async () => {
  clock.set('2026-11-24T15:00:00Z');
  await t.db.execute(sql`delete from outbox_messages`);
  await t.db.execute(sql`delete from student_hours_links`);
  await t.db.execute(sql`delete from rate_limit_counters`);
});

describe('E-mail me my hours', () => {
  it('answers the same whether or not the ID and e-mail match, and e-mails a link only to the matching student', async () => {
    const answers = await Promise.all([
      ask({ studentId: 's-100', email: 'ana.diaz@STUDENT.test' }),
      ask({ studentId: 'S-100', email: 'someone.else@student.test' }),
      ask({ studentId: 'S-999', email: 'ana.diaz@student.test' }),
      ask({ studentId: 'S-200', email: 'ben@student.test' }), // Ben has no e-mail on file
    ]);
    for (const res of answers) expect({ status: res.statusCode, body: res.json() }).toEqual({ status: 202, body: { message: HOURS_LINK_REQUESTED } });
    const sent = await outbox();
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({
      kind: 'student_hours_link',
      recipient: 'Ana.Diaz@student.test',
      student_id: ana,
      subject: 'Your hours at Lakeside Career College',
    });
    const token = tokenIn(sent[0]!.text_body)!;
    expect(sent[0]!.text_body).toContain(`https://muster.school.test/my-hours/${token}`);
    expect(sent[0]!.html_body).toContain('See my hours');
    // Only the token's hash is kept.
    const stored = (await t.db.execute<{ token_hash: string; expires_at: Date }>(sql`select token_hash, expires_at from student_hours_links`)).rows;
    expect(stored).toHaveLength(1);
    expect(stored[0]!.token_hash).not.toContain(token);
    expect(new Date(stored[0]!.expires_at).toISOString()).toBe('2026-12-01T15:00:00.000Z');
  });

  it('answers before looking anything up, so a match and a mismatch cannot be told apart by time', async () => {
    // The students table locked by another transaction: any lookup waits for it. Both requests are
    // answered anyway (the answer does not wait for the lookup); the link is sent once it is free.
    const stillWaiting = Symbol('still waiting');
    const within = <T>(p: Promise<T>) => Promise.race([p, new Promise<typeof stillWaiting>((r) => setTimeout(() => r(stillWaiting), 3000))]);
    await t.db.transaction(async (tx) => {
      await tx.execute(sql`lock table students in access exclusive mode`);
      for (const payload of [
        { studentId: 'S-100', email: 'ana.diaz@student.test' },
        { studentId: 'S-999', email: 'nobody@student.test' },
      ]) {
        const res = await within(send(payload));
        expect(res, payload.studentId).not.toBe(stillWaiting);
        if (res === stillWaiting) return;
        expect({ status: res.statusCode, body: res.json() }).toEqual({ status: 202, body: { message: HOURS_LINK_REQUESTED } });
      }
      const page = await within(
        t.app.inject({
          method: 'POST',
          url: '/my-hours',
          headers: { 'content-type': 'application/x-www-form-urlencoded', host: 'muster.school.test', origin: 'https://muster.school.test' },
          payload: 'studentId=S-100&email=ana.diaz%40student.test',
        }),
      );
      expect(page).not.toBe(stillWaiting);
      expect(await outbox()).toHaveLength(0);
    });
    await hoursLinkRequestsSettled();
    expect((await outbox()).map((m) => m.recipient)).toEqual(['Ana.Diaz@student.test', 'Ana.Diaz@student.test']);
  });

  it('writes the e-mail in Spanish when asked in Spanish, with a link that opens the page in Spanish', async () => {
    await ask({ studentId: 'S-100', email: 'ana.diaz@student.test', language: 'es' });
    const [mail] = await outbox();
    expect(mail!.subject).toBe('Tus horas en Lakeside Career College');
    expect(mail!.text_body).toContain('Hola, Ana:');
    expect(mail!.text_body).toMatch(/\/my-hours\/[A-Za-z0-9_-]{43}\?lang=es/);
  });

  it('sends at most three links a day to one student, answering the same', async () => {
    for (let i = 0; i < 5; i++) expect((await ask({ studentId: 'S-100', email: 'ana.diaz@student.test' })).statusCode).toBe(202);
    expect(await outbox()).toHaveLength(3);
    clock.advance(25 * 3600_000);
    await ask({ studentId: 'S-100', email: 'ana.diaz@student.test' });
    expect(await outbox()).toHaveLength(4);
  });

  it('names the field that is wrong', async () => {
    const res = await ask({ studentId: 'S-100', email: 'not-an-address' });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual([expect.objectContaining({ field: 'email' })]);
    const missing = await ask({ email: 'ana.diaz@student.test' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().errors).toEqual([expect.objectContaining({ field: 'studentId' })]);
    expect((await ask({ studentId: 'S-100', email: 'ana.diaz@student.test', language: 'fr' })).json().errors).toEqual([
      expect.objectContaining({ field: 'language' }),
    ]);
  });

  it('is rate-limited per device', async () => {
    const statuses = [];
    for (let i = 0; i < 31; i++) statuses.push((await ask({ studentId: `X-${i}`, email: 'x@student.test' }, '198.51.100.9')).statusCode);
    expect(statuses.slice(0, 30).every((s) => s === 202)).toBe(true);
    expect(statuses[30]).toBe(429);
    // The form page says so in words, not JSON.
    const page = await t.app.inject({
      method: 'POST',
      url: '/my-hours',
      remoteAddress: '198.51.100.9',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'studentId=S-1&email=x%40student.test',
    });
    expect(page.statusCode).toBe(200); // the page route has its own budget
  });

  it('says e-mail is not set up instead of pretending to send', async () => {
    const bare = await createTestApp({ clock, config: { ...config, smtp: null }, cipher });
    try {
      const res = await bare.app.inject({ method: 'POST', url: '/api/my-hours/request', payload: { studentId: 'S-100', email: 'ana.diaz@student.test' } });
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe('EMAIL_NOT_CONFIGURED');
      const page = await bare.app.inject({ method: 'GET', url: '/my-hours' });
      expect(page.body).toContain('This school has not set up e-mail yet');
      expect(page.body).not.toContain('<form');
    } finally {
      await bare.close();
    }
  });
});

describe('the /my-hours page', () => {
  it('is a form without script, in the browser’s language, with a switch', async () => {
    const en = await t.app.inject({ method: 'GET', url: '/my-hours' });
    expect(en.statusCode).toBe(200);
    expect(en.headers['content-type']).toContain('text/html');
    expect(en.body).toContain('<html lang="en">');
    expect(en.body).toContain('<form method="post" action="/my-hours">');
    expect(en.body).not.toContain('<script');
    expect(en.body).toContain('href="/my-hours?lang=es"');
    const es = await t.app.inject({ method: 'GET', url: '/my-hours', headers: { 'accept-language': 'es-MX,es;q=0.9,en;q=0.5' } });
    expect(es.body).toContain('<html lang="es">');
    expect(es.body).toContain('Enviarme mis horas por correo');
    const chosen = await t.app.inject({ method: 'GET', url: '/my-hours?lang=en', headers: { 'accept-language': 'es' } });
    expect(chosen.body).toContain('<html lang="en">');
  });

  it('posts as a plain form: errors marked on the fields, then the same answer as the API', async () => {
    // As a browser posts it: same origin, form-encoded.
    const form = async (body: string) => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/my-hours',
        headers: { 'content-type': 'application/x-www-form-urlencoded', host: 'muster.school.test', origin: 'https://muster.school.test' },
        payload: body,
      });
      await hoursLinkRequestsSettled();
      return res;
    };
    const bad = await form('studentId=&email=nope&language=es');
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('aria-invalid="true" aria-describedby="studentId-error"');
    expect(bad.body).toContain('Escribe un correo electrónico válido');
    expect(bad.body).toContain('value="nope"');
    const good = await form('studentId=S-100&email=ana.diaz%40student.test&language=en');
    expect(good.statusCode).toBe(200);
    expect(good.body).toContain('Check your e-mail');
    const unknown = await form('studentId=S-404&email=ana.diaz%40student.test&language=en');
    expect(unknown.body).toBe(good.body);
    expect(await outbox()).toHaveLength(1);
  });
});

describe('the link', () => {
  const linkFor = async (language?: 'es') => {
    await ask({ studentId: 'S-100', email: 'ana.diaz@student.test', ...(language ? { language } : {}) });
    return tokenIn((await outbox()).at(-1)!.text_body)!;
  };

  it('shows the student’s own ledger, the same figures staff see', async () => {
    const token = await linkFor();
    const res = await t.app.inject({ method: 'GET', url: `/api/my-hours/${token}` });
    expect(res.statusCode).toBe(200);
    const view = res.json();
    const staff = (await t.app.inject({ method: 'GET', url: `/api/students/${ana}/hours`, headers: { cookie: admin.cookie } })).json();
    expect(view).toMatchObject({
      firstName: 'Ana',
      lastName: 'Diaz',
      programName: 'Cosmetology',
      asOf: '2026-11-24',
      totals: staff.totals,
      attendancePercent: staff.attendancePercent,
    });
    expect(view.totals.scheduledMinutes).toBe(8 * 360);
    expect(view.makeUpOwedMinutes).toBe(2 * 360);
    expect(view.currentPaymentPeriod).toMatchObject({ number: 1, status: 'in_progress' });
    expect(view.days.map((d: { date: string }) => d.date)).toEqual(['2026-11-23', '2026-11-16', '2026-11-09', '2026-11-02', '2026-10-26']);
    expect(res.headers['referrer-policy']).toBe('same-origin');
  });

  it('opens a read-only page in English or Spanish', async () => {
    const token = await linkFor('es');
    const es = await t.app.inject({ method: 'GET', url: `/my-hours/${token}?lang=es` });
    expect(es.statusCode).toBe(200);
    expect(es.body).toContain('Horas de Ana Diaz');
    expect(es.body).toContain('Horas por recuperar: 12.0');
    expect(es.body).toContain('Los últimos 30 días');
    expect(es.body).toContain('Ausente');
    expect(es.body).not.toContain('<form');
    expect(es.body).not.toContain('<script');
    const en = await t.app.inject({ method: 'GET', url: `/my-hours/${token}` });
    expect(en.body).toContain('Hours of Ana Diaz');
    expect(en.body).toContain('Make-up owed: 12.0 hours');
    expect(en.body).toContain('Current payment period');
    expect(en.body).toContain(`href="/my-hours/${token}?lang=es"`);
  });

  it('stops working after 7 days, and unknown links say the same', async () => {
    const token = await linkFor();
    clock.advance(7 * 86_400_000 + 1000);
    expect((await t.app.inject({ method: 'GET', url: `/api/my-hours/${token}` })).statusCode).toBe(404);
    const page = await t.app.inject({ method: 'GET', url: `/my-hours/${token}` });
    expect(page.statusCode).toBe(404);
    expect(page.body).toContain('This link has expired or is not complete');
    expect(page.body).toContain('<form method="post" action="/my-hours">');
    const made = await t.app.inject({ method: 'GET', url: `/my-hours/${'A'.repeat(43)}` });
    expect(made.statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: "/my-hours/'%3Cscript%3E" })).body).not.toContain('<script>');
    expect(await purgeExpiredHoursLinks(t.db, clock)).toBe(1);
  });
});

describe('the language of a student page', () => {
  it('follows an explicit choice, then the browser’s order of preference, then English', () => {
    expect(pickStudentLanguage('es', 'en')).toBe('es');
    expect(pickStudentLanguage('de', 'fr-FR, es;q=0.8, en;q=0.5')).toBe('es');
    expect(pickStudentLanguage(undefined, 'en;q=0.2, es;q=0.9')).toBe('es');
    expect(pickStudentLanguage(undefined, 'es;q=0, en')).toBe('en');
    expect(pickStudentLanguage(undefined, undefined)).toBe('en');
  });
});

describe('the hours e-mail of a school with no name yet', () => {
  it('names no school rather than printing a hint meant for staff', async () => {
    const setName = (schoolName: string) =>
      t.app.inject({ method: 'PUT', url: '/api/settings', headers: { cookie: admin.cookie }, payload: { system: { schoolName } } });
    expect((await setName('')).statusCode).toBe(200);
    try {
      await ask({ studentId: 'S-100', email: 'ana.diaz@student.test' });
      const [sent] = await outbox();
      expect(sent!.subject).toBe('Your attendance hours');
      expect(sent!.text_body).toMatch(/^Hello Ana,\n\nYou asked to see your attendance hours\. Open this link/);
      expect(`${sent!.subject}\n${sent!.text_body}\n${sent!.html_body}`).not.toMatch(/not set|Settings/);
    } finally {
      await setName('Lakeside Career College');
    }
  });
});
