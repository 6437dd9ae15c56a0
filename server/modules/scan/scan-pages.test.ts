import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  SCAN_CODE_NO_MATCH,
  SCAN_CODE_OR_DETAILS,
  SCAN_DEVICE_USED,
  SCAN_NO_MATCH,
  SCAN_OPEN_LINK,
  SCAN_STALE_CODE,
  SCAN_TOO_MANY_CODES,
  SCAN_TYPE_SIX_DIGITS,
} from '../../../common/attendance.ts';
import { SESSION_EXPIRED, SESSION_EXPIRED_TEXT, SESSION_NOT_FOUND, SESSION_NOT_FOUND_TEXT } from '../../../common/messages.ts';
import { SCAN_SESSION_ENDED, SCAN_SESSION_ENDED_TEXT } from '../../../common/qr-sessions.ts';
import { STUDENT_TEXTS } from '../../../common/student-texts.ts';
import { escapeHtml } from '../../lib/html.ts';
import { countHit } from '../../lib/shared-counters.ts';
import { checkInAnswers } from '../../lib/student-i18n.ts';
import { createTestApp, fixedClock, type TestApp } from '../../test/helpers.ts';
import { seedClass, wrongCode, type TestClass, type TestStudent } from '../attendance/test-support.ts';
import { WRONG_CODE_WINDOW_MS, networkOf } from '../qr-sessions/code-attempts.ts';
import { SAME_ORIGIN, scanBrowser } from './test-support.ts';

// Decision 028: the scan page and the typed-code page rendered on the server, their forms answered with
// pages (JavaScript off), in English and Spanish, with the JSON routes' own checks and messages.

// Monday 2 March 2026, 07:55 in Chicago: class 08:00–12:00, so a check-in now is on time.
const clock = fixedClock('2026-03-02T13:55:00Z');
let t: TestApp;
let cls: TestClass;
let session: { sessionId: string; id: number };

beforeAll(async () => {
  t = await createTestApp({ clock });
  cls = await seedClass(t, 12, 'S');
  session = await cls.startSession();
});
afterAll(() => t?.close());

/** The page shows `text` as it must be written in HTML. */
const shows = (res: LightMyRequestResponse, text: string) => expect(res.body).toContain(escapeHtml(text));
/** The page's HTML holds every one of these pieces. */
const holds = (res: LightMyRequestResponse, ...pieces: string[]) => {
  for (const piece of pieces) expect(res.body).toContain(piece);
};

/** A phone's browser (test-support.ts). */
const phone = (ip: string, headers: Record<string, string> = {}) => scanBrowser(() => t, ip, headers);
const scanUrl = async (token = true) => `/attendance/scan/${session.sessionId}${token ? `?t=${(await cls.screen(session.sessionId)).token}` : ''}`;
/** End Session on the class's current session, as its instructor. */
const endSession = async () => {
  const res = await t.app.inject({ method: 'PUT', url: `/api/qr-sessions/${session.id}/deactivate`, headers: { cookie: cls.instructor.cookie } });
  expect(res.statusCode).toBe(200);
};
const detailsOf = (s: TestStudent) => ({ studentId: s.sis, firstName: s.first, lastName: s.last, email: s.email });

describe('GET /attendance/scan/{sessionId}', () => {
  it('is the whole page in the first answer: course, room, date, start, time left, the form, and the pass cookie', async () => {
    const p = phone('10.1.0.1');
    const res = await p.get(await scanUrl());
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['cache-control']).toBe('no-store');
    holds(
      res,
      '<html lang="en">',
      '<title>Mark Attendance · Muster</title>',
      '<h1>Fundamentals of Nursing S</h1>',
      'NUR-S',
      '<dt>Room:</dt><dd>B-204</dd>',
      '<dd>Monday, March 2</dd>',
      '<dd>8:00 AM (until 12:00 PM)</dd>',
    );
    // Opened at 07:55, the session runs until the end of class + 15 minutes (12:15, docs/decisions/042).
    expect(res.body).toMatch(/<span role="timer" aria-labelledby="time-left" data-ends-in="15600000">260:00<\/span>/);
    expect(res.body).toContain(`<form id="scan-form" method="post" action="/attendance/scan/${session.sessionId}"`);
    for (const name of ['studentId', 'firstName', 'lastName', 'email']) expect(res.body).toContain(`name="${name}"`);
    expect(res.body).toContain('<label for="studentId">Student ID</label>');
    expect(res.body).toContain('Mark My Attendance');
    // The fresh QR token gave this phone its pass: no code is asked.
    expect(res.body).not.toContain('name="code"');

    const cookies = res.cookies as { name: string; value: string; path: string; httpOnly: boolean; sameSite: string }[];
    const pass = cookies.filter((c) => c.name.startsWith('muster_pass_'));
    expect(pass.map((c) => c.path)).toEqual(['/api/attendance/submit', '/attendance/scan']);
    const device = cookies.filter((c) => c.name === 'muster_device');
    expect(device.map((c) => c.path)).toEqual(['/api', '/attendance/scan']);
    expect(new Set(device.map((c) => c.value)).size).toBe(1);
    for (const c of [...pass, ...device]) expect(c).toMatchObject({ httpOnly: true, sameSite: 'Lax' });

    // The same pass as the JSON route gives: it checks in through POST /api/attendance/submit.
    const s = cls.students[0]!;
    const viaApi = await t.app.inject({
      method: 'POST',
      url: '/api/attendance/submit',
      remoteAddress: '10.1.0.1',
      cookies: p.jar,
      payload: { sessionId: session.sessionId, ...detailsOf(s) },
    });
    expect(viaApi.statusCode).toBe(200);
    expect(viaApi.json()).toMatchObject({ action: 'checked_in', status: 'present' });
  });

  it('asks for the code on the screen when opened without a fresh token, and keeps a pass the phone holds', async () => {
    const bare = await phone('10.1.0.2').get(await scanUrl(false));
    expect(bare.statusCode).toBe(200);
    expect(bare.body).toContain('<label for="code">Code on the classroom screen</label>');
    expect(bare.cookies.some((c) => c.name.startsWith('muster_pass_'))).toBe(false);

    const p = phone('10.1.0.3');
    await p.get(await scanUrl());
    clock.advance(60_000);
    const reload = await p.get(await scanUrl(false));
    expect(reload.body).not.toContain('name="code"');
    expect(reload.body).toMatch(/data-pass-ends-in="240000"/);
    clock.advance(-60_000);
  });

  it('answers Session Not Found (404) for an unknown, a numeric or a malformed id', async () => {
    for (const id of ['00000000-0000-4000-8000-000000000000', String(session.id), 'does-not-exist']) {
      const res = await phone('10.1.0.4').get(`/attendance/scan/${id}`);
      expect(res.statusCode, id).toBe(404);
      expect(res.body).toContain(`<title>${SESSION_NOT_FOUND} · Muster</title>`);
      shows(res, SESSION_NOT_FOUND_TEXT);
      expect(res.body).not.toContain('<form');
    }
    // A token or id no server could have made: refused by the schema, named, shown as not found (never a 500).
    const badToken = await phone('10.1.0.4').get(`/attendance/scan/${session.sessionId}?t=%24%24%24`);
    expect(badToken.statusCode).toBe(400);
    shows(badToken, SESSION_NOT_FOUND_TEXT);
    expect(badToken.body).toContain('t is not valid');
    const longId = await phone('10.1.0.4').get(`/attendance/scan/${'a'.repeat(80)}`);
    expect(longId.statusCode).toBe(400);
    expect(longId.body).toContain('sessionId is not valid');
    // Longer than the router reads (Fastify's maxParamLength): refused before any route.
    expect((await phone('10.1.0.4').get(`/attendance/scan/${'a'.repeat(150)}`)).statusCode).toBe(414);
  });

  it('answers Session Ended (410) with the course once the instructor ends the session, also to the form', async () => {
    const other = await seedClass(t, 1, 'X');
    const s = await other.startSession();
    const url = `/attendance/scan/${s.sessionId}?t=${(await other.screen(s.sessionId)).token}`;
    const p = phone('10.1.0.5');
    await p.get(url); // the form, opened before End Session
    await t.app.inject({ method: 'PUT', url: `/api/qr-sessions/${s.id}/deactivate`, headers: { cookie: other.instructor.cookie } });
    const res = await phone('10.1.0.5').get(url);
    expect(res.statusCode).toBe(410);
    // Ended by the instructor, not expired (docs/decisions/042).
    expect(res.body).toContain(`<title>${SCAN_SESSION_ENDED} · Muster</title>`);
    expect(res.body).toContain(`<h1 tabindex="-1">${SCAN_SESSION_ENDED}</h1>`);
    expect(res.body).toContain('Fundamentals of Nursing X');
    shows(res, SCAN_SESSION_ENDED_TEXT);
    expect(res.body).not.toContain(SESSION_EXPIRED);
    expect(res.cookies.some((c) => c.name.startsWith('muster_pass_'))).toBe(false);
    // The form sent after End Session: the same page.
    const posted = await p.post(`/attendance/scan/${s.sessionId}`, detailsOf(other.students[0]!));
    expect(posted.statusCode).toBe(410);
    expect(posted.body).toContain(`<h1 tabindex="-1">${SCAN_SESSION_ENDED}</h1>`);
    shows(posted, SCAN_SESSION_ENDED_TEXT);
    // In Spanish.
    const es = await phone('10.1.0.5', { 'accept-language': 'es' }).get(url);
    expect(es.body).toContain(`<h1 tabindex="-1">${STUDENT_TEXTS.es.sessionEnded}</h1>`);
    shows(es, STUDENT_TEXTS.es.sessionEndedText);
  });

  it('speaks Spanish to a browser that prefers it, with a switch back that works without script', async () => {
    const es = await phone('10.1.0.6', { 'accept-language': 'es-MX,es;q=0.9,en;q=0.5' }).get(await scanUrl());
    expect(es.statusCode).toBe(200);
    holds(
      es,
      '<html lang="es">',
      '<title>Registrar asistencia · Muster</title>',
      'Tiempo restante',
      '<label for="firstName">Nombre</label>',
      '<dt>Aula:</dt><dd>B-204</dd>',
      'lunes, 2 de marzo',
      'Registrar mi asistencia</button>',
      `<a href="/attendance/scan/${session.sessionId}?lang=en" lang="en" hreflang="en">English</a>`,
    );
    // The switch wins over the browser, and the form keeps the choice.
    const chosen = await phone('10.1.0.6', { 'accept-language': 'es' }).get(`${await scanUrl()}&lang=en`);
    expect(chosen.body).toContain('<html lang="en">');
    expect(chosen.body).toContain(`action="/attendance/scan/${session.sessionId}?lang=en"`);
    const notFound = await phone('10.1.0.6', { 'accept-language': 'es' }).get('/attendance/scan/nope');
    expect(notFound.body).toContain('Sesión no encontrada');
  });
});

describe('POST /attendance/scan/{sessionId} (the form without script)', () => {
  it('checks in and answers Attendance Marked! with the course and the time', async () => {
    const s = cls.students[1]!;
    const p = phone('10.2.0.1');
    await p.get(await scanUrl());
    const res = await p.post(`/attendance/scan/${session.sessionId}`, detailsOf(s));
    expect(res.statusCode).toBe(200);
    holds(
      res,
      '<title>Attendance Marked! · Muster</title>',
      '<h1 tabindex="-1">Attendance Marked!</h1>',
      'Fundamentals of Nursing S',
      'Checked in at 7:55 AM',
      'You are checked in.',
      'You can close this page now.',
    );
    // "E-mail me my hours" is a plain form to /my-hours with what was just typed.
    expect(res.body).toContain(`<input type="hidden" name="studentId" value="${s.sis}">`);
    expect((await cls.roster('2026-03-02')).find((r) => r.studentId === s.id)).toMatchObject({ status: 'present' });
  });

  it('answers the refusals of SPEC §8 as the JSON API words them, on the form again', async () => {
    const [amy, bea, cat] = [cls.students[2]!, cls.students[3]!, cls.students[4]!];
    const url = `/attendance/scan/${session.sessionId}`;

    const p = phone('10.2.0.2');
    await p.get(await scanUrl());
    const wrongName = await p.post(url, { ...detailsOf(amy), lastName: 'Nobody', email: 'nobody@else.example' });
    expect(wrongName.statusCode).toBe(400);
    shows(wrongName, SCAN_NO_MATCH);
    expect(wrongName.body).toContain('<p class="alert" role="alert" id="scan-error">');
    // What was typed is still there.
    expect(wrongName.body).toContain('value="Nobody"');
    expect((await p.post(url, detailsOf(amy))).statusCode).toBe(200);
    const used = await p.post(url, detailsOf(bea));
    expect(used.statusCode).toBe(409);
    shows(used, SCAN_DEVICE_USED);

    // A form posted without opening the link: no pass, no code.
    const noLink = await phone('10.2.0.3').post(url, detailsOf(bea));
    expect(noLink.statusCode).toBe(403);
    shows(noLink, SCAN_OPEN_LINK);
    expect(noLink.body).toContain('name="code"');

    // A wrong typed code, then the right one.
    const q = phone('10.2.0.4');
    const screen = await cls.screen(session.sessionId);
    const wrong = await q.post(url, { ...detailsOf(bea), code: wrongCode(screen) });
    expect(wrong.statusCode).toBe(403);
    shows(wrong, SCAN_CODE_OR_DETAILS);
    const right = await q.post(url, { ...detailsOf(bea), code: `${screen.code.slice(0, 3)} ${screen.code.slice(3)}` });
    expect(right.statusCode).toBe(200);
    expect(right.body).toContain('Attendance Marked!');

    // A pass that ran out while the student typed.
    const slow = phone('10.2.0.5');
    await slow.get(await scanUrl());
    clock.advance(5 * 60_000 + 1000);
    const stale = await slow.post(url, detailsOf(cat));
    clock.advance(-(5 * 60_000 + 1000));
    expect(stale.statusCode).toBe(403);
    shows(stale, SCAN_STALE_CODE);
    expect(stale.body).toContain('name="code"');
  });

  it('answers Session Expired and Session Not Found as pages', async () => {
    const s = cls.students[5]!;
    const p = phone('10.2.0.6');
    await p.get(await scanUrl());
    // The session lasts until the end of class + 15 minutes (12:15, docs/decisions/042).
    const now = clock.now();
    clock.set('2026-03-02T18:16:00Z');
    const late = await p.post(`/attendance/scan/${session.sessionId}`, detailsOf(s));
    clock.set(now);
    expect(late.statusCode).toBe(410);
    expect(late.body).toContain(`<h1 tabindex="-1">${SESSION_EXPIRED}</h1>`);
    shows(late, SESSION_EXPIRED_TEXT);
    const missing = await p.post('/attendance/scan/00000000-0000-4000-8000-000000000000', detailsOf(s));
    expect(missing.statusCode).toBe(404);
    shows(missing, SESSION_NOT_FOUND_TEXT);
  });

  it('refuses a form posted from another site, and records nothing', async () => {
    const s = cls.students[6]!;
    const p = phone('10.2.0.7');
    await p.get(await scanUrl());
    for (const forged of [{ origin: 'https://evil.example' }, { origin: 'null' }, { origin: undefined, referer: 'https://evil.example/page' }]) {
      const res = await p.post(`/attendance/scan/${session.sessionId}`, detailsOf(s), forged);
      expect(res.statusCode).toBe(403);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.body).toContain('This form was sent from another website, so nothing was recorded.');
    }
    expect((await cls.roster('2026-03-02')).find((r) => r.studentId === s.id)?.status ?? 'absent').toBe('absent');
    expect((await cls.roster('2026-03-02')).find((r) => r.studentId === s.id)?.scanInTime ?? null).toBeNull();
  });

  it('answers a bad field with a 400 page that names it, never a 500', async () => {
    const s = cls.students[7]!;
    const p = phone('10.2.0.8');
    await p.get(await scanUrl());
    const url = `/attendance/scan/${session.sessionId}`;
    const long = await p.post(url, { ...detailsOf(s), studentId: 'x'.repeat(101) });
    expect(long.statusCode).toBe(400);
    expect(long.body).toContain('Student ID is too long');
    expect(long.body).toContain('aria-invalid="true"');
    const missing = await p.post(url, { studentId: s.sis, lastName: s.last, email: s.email });
    expect(missing.statusCode).toBe(400);
    expect(missing.body).toContain('First Name is required');
    expect(missing.body).toContain(`value="${s.last}"`);
    const code = await p.post(url, { ...detailsOf(s), code: 'abc$' });
    expect(code.statusCode).toBe(400);
    expect(code.body).toContain('Code on the classroom screen is not valid');
    const spanish = await p.post(`${url}?lang=es`, { ...detailsOf(s), email: '' });
    expect(spanish.body).toContain('El campo Correo electrónico es obligatorio');
    // Not a form at all.
    const text = await t.app.inject({ method: 'POST', url, headers: { ...SAME_ORIGIN, 'content-type': 'text/plain' }, payload: 'hello' });
    expect(text.statusCode).toBe(400);
    expect(text.body).toContain('Student ID is required');
    const xml = await t.app.inject({ method: 'POST', url, headers: { ...SAME_ORIGIN, 'content-type': 'application/xml' }, payload: '<a/>' });
    expect(xml.statusCode).toBe(415);
    expect(xml.body).toContain('Something is wrong with this request');
    const huge = await p.post(url, { ...detailsOf(s), firstName: 'y'.repeat(5000) });
    expect(huge.statusCode).toBe(413);
    expect(huge.headers['content-type']).toMatch(/^text\/html/);
    // Nothing of it was recorded.
    expect((await cls.roster('2026-03-02')).find((r) => r.studentId === s.id)?.scanInTime ?? null).toBeNull();
  });

  it('gives the JSON API’s answers in Spanish on a Spanish page', async () => {
    const s = cls.students[8]!;
    const p = phone('10.2.0.9', { 'accept-language': 'es' });
    await p.get(await scanUrl());
    const wrong = await p.post(`/attendance/scan/${session.sessionId}`, { ...detailsOf(s), firstName: 'Otro', email: 'otro@x.example' });
    expect(wrong.statusCode).toBe(400);
    shows(wrong, STUDENT_TEXTS.es.scanNoMatch);
    const ok = await p.post(`/attendance/scan/${session.sessionId}`, detailsOf(s));
    holds(
      ok,
      '<html lang="es">',
      '¡Asistencia registrada!',
      'Entrada registrada a las 7:55',
      'Tu entrada quedó registrada.',
      '<input type="hidden" name="language" value="es">',
    );
  });
});

describe('/attendance/scan (the typed code)', () => {
  it('asks for the six digits; the right ones lead to the class’s form with a pass, the wrong ones say so', async () => {
    const p = phone('10.3.0.1');
    const page = await p.get('/attendance/scan');
    expect(page.statusCode).toBe(200);
    holds(page, '<h1>Enter the class code</h1>', '<label for="code">Class code</label>', '<form id="code-form" method="post" action="/attendance/scan"');

    const screen = await cls.screen(session.sessionId);
    const wrong = await p.post('/attendance/scan', { code: wrongCode(screen) });
    expect(wrong.statusCode).toBe(404);
    shows(wrong, SCAN_CODE_NO_MATCH);
    const notDigits = await p.post('/attendance/scan', { code: '12ab56' });
    expect(notDigits.statusCode).toBe(400);
    shows(notDigits, SCAN_TYPE_SIX_DIGITS);

    const right = await p.post('/attendance/scan', { code: screen.code });
    expect(right.statusCode).toBe(303);
    expect(right.headers.location).toBe(`/attendance/scan/${session.sessionId}`);
    expect(right.cookies.filter((c) => c.name.startsWith('muster_pass_')).map((c) => c.path)).toEqual(['/api/attendance/submit', '/attendance/scan']);
    const form = await p.get(right.headers.location as string);
    expect(form.statusCode).toBe(200);
    expect(form.body).not.toContain('name="code"');
    const done = await p.post(`/attendance/scan/${session.sessionId}`, detailsOf(cls.students[9]!));
    expect(done.body).toContain('Attendance Marked!');
  });

  it('keeps a chosen language through the redirect, and says when too many codes were typed from the network', async () => {
    const p = phone('10.3.0.2');
    const es = await p.get('/attendance/scan?lang=es');
    expect(es.body).toContain('<h1>Escribe el código de la clase</h1>');
    expect(es.body).toContain('action="/attendance/scan?lang=es"');
    const screen = await cls.screen(session.sessionId);
    const right = await p.post('/attendance/scan?lang=es', { code: screen.code });
    expect(right.headers.location).toBe(`/attendance/scan/${session.sessionId}?lang=es`);

    await countHit(t.db, `wrong-code:addr:${networkOf('10.3.0.3')}`, WRONG_CODE_WINDOW_MS, clock.now(), 10_000);
    const spent = await phone('10.3.0.3').post('/attendance/scan', { code: screen.code });
    expect(spent.statusCode).toBe(429);
    expect(Number(spent.headers['retry-after'])).toBeGreaterThan(0);
    shows(spent, SCAN_TOO_MANY_CODES);
  });
});

describe('the answers a page translates', () => {
  it('are the API’s own texts in English, and each has its Spanish', () => {
    for (const [english, shown] of checkInAnswers('en')) expect(shown).toBe(english);
    const es = checkInAnswers('es');
    expect([...es.keys()]).toEqual([...checkInAnswers('en').keys()]);
    for (const [english, shown] of es) expect(shown, english).not.toBe(english);
  });
});

describe('a second scan (docs/decisions/039)', () => {
  const en = STUDENT_TEXTS.en;
  const es = STUDENT_TEXTS.es;
  const url = () => `/attendance/scan/${session.sessionId}`;
  const rowOf = async (s: TestStudent) => (await cls.roster('2026-03-02')).find((r) => r.studentId === s.id)!;
  // The phone that checks students[10] in at 09:00, kept across the tests below.
  const first = phone('10.4.0.1');

  it('shows the phone that checked a student in "checked in since" and Check out, and any other phone the usual form', async () => {
    // 09:00: the instructor ends the first session (it would last the class) and opens another.
    clock.set('2026-03-02T15:00:00Z');
    await endSession();
    session = await cls.startSession();
    const s = cls.students[10]!;
    await first.get(await scanUrl());
    expect((await first.post(url(), detailsOf(s))).body).toContain('Checked in at 9:00 AM');

    clock.set('2026-03-02T15:11:00Z'); // 09:11: the student opens the QR again, to make sure it worked
    const again = await first.get(await scanUrl());
    expect(again.statusCode).toBe(200);
    holds(
      again,
      `<title>${en.checkedInTitle} · Muster</title>`,
      '<h1 tabindex="-1">You are checked in since 9:00 AM</h1>',
      'Class ends at 12:00 PM; leaving now records 11 min.',
      `<form id="checkout-form" method="post" action="${url()}"`,
      '<input type="hidden" name="intent" value="check-out">',
      '<button type="submit">Check out</button>',
    );
    shows(again, en.leavingNowIncomplete);
    // Nothing to type and nothing that checks in: no form fields, no Mark My Attendance, no details written into the page.
    expect(again.body).not.toContain('Mark My Attendance');
    expect(again.body).not.toContain('name="studentId"');
    expect(again.body).not.toContain(s.email);
    expect(again.body).not.toContain('name="code"');

    // Another phone (no cookie, or another student's): the usual form.
    for (const other of [phone('10.4.0.2'), phone('10.2.0.2')]) {
      const form = await other.get(await scanUrl());
      holds(form, '<form id="scan-form"', 'Mark My Attendance</button>');
      expect(form.body).not.toContain('checked in since');
      expect(form.body).not.toContain('checkout-form');
    }
  });

  it('checks out from that phone in two steps before the end of class, without script, then says so when opened again', async () => {
    const s = cls.students[10]!;
    const ask = await first.post(url(), { intent: 'check-out' });
    expect(ask.statusCode).toBe(409);
    holds(
      ask,
      `<h1 tabindex="-1">${en.confirmCheckOutTitle}</h1>`,
      'Class ends at 12:00 PM. Leaving now records 11 min of 4 h, and this class counts as incomplete.',
      '<input type="hidden" name="confirm" value="yes">',
      '<button type="submit">Yes, check out now</button>',
      `<a class="button" href="${url()}">Stay checked in</a>`,
    );
    expect(ask.body).not.toContain('name="studentId"');
    // Nothing was written: still checked in (late: 09:00 is after 08:10).
    expect(await rowOf(s)).toMatchObject({ status: 'late', scanOutTime: null });

    const out = await first.post(url(), { intent: 'check-out', confirm: 'yes' });
    expect(out.statusCode).toBe(200);
    holds(
      out,
      `<title>${en.checkedOutTitle} · Muster</title>`,
      `<h1 tabindex="-1">${en.checkedOutTitle}</h1>`,
      'Checked out at 9:11 AM',
      'Minutes attended: 11',
    );
    shows(out, en.scanCheckedOutEarly);
    expect(out.body).not.toContain('Attendance Marked!');
    // No details were typed: no "E-mail me my hours" with somebody's ID.
    expect(out.body).not.toContain('action="/my-hours"');
    expect(await rowOf(s)).toMatchObject({ status: 'incomplete', scanOutTime: '2026-03-02T15:11:00.000Z', minutesAttended: 11 });

    clock.set('2026-03-02T15:20:00Z');
    const later = await first.get(await scanUrl());
    holds(later, `<h1 tabindex="-1">${en.checkedOutTitle}</h1>`, 'Checked out at 9:11 AM', 'Minutes attended: 11');
    shows(later, en.checkedOutWrong);
    expect(later.body).not.toContain('checkout-form');
    expect(later.body).not.toContain('scan-form');
  });

  it('answers a phone it does not recognise "already checked in", changes nothing, and offers Check out with what was typed', async () => {
    const s = cls.students[1]!; // checked in at 07:55 by another phone (10.2.0.1)
    const p = phone('10.4.0.3');
    await p.get(await scanUrl());
    const res = await p.post(url(), detailsOf(s));
    expect(res.statusCode).toBe(200);
    holds(
      res,
      '<h1 tabindex="-1">You are already checked in since 7:55 AM</h1>',
      'Class ends at 12:00 PM; leaving now records 1 h 20 min.',
      `<input type="hidden" name="studentId" value="${s.sis}">`,
      '<input type="hidden" name="intent" value="check-out">',
    );
    shows(res, en.scanAlreadyCheckedIn);
    expect(res.body).not.toContain('Attendance Marked!');
    expect(await rowOf(s)).toMatchObject({ status: 'present', scanInTime: '2026-03-02T13:55:00.000Z', scanOutTime: null });

    const ask = await p.post(url(), { ...detailsOf(s), intent: 'check-out' });
    expect(ask.statusCode).toBe(409);
    holds(ask, en.confirmCheckOutTitle, `<input type="hidden" name="studentId" value="${s.sis}">`, '<input type="hidden" name="confirm" value="yes">');
    expect(await rowOf(s)).toMatchObject({ scanOutTime: null });
    const out = await p.post(url(), { ...detailsOf(s), intent: 'check-out', confirm: 'yes' });
    holds(out, en.checkedOutTitle, 'Checked out at 9:20 AM', 'Minutes attended: 80'); // from the 08:00 start
    expect(await rowOf(s)).toMatchObject({ status: 'incomplete', minutesAttended: 80 });
  });

  it('says it in Spanish', async () => {
    const s = cls.students[11]!;
    const p = phone('10.4.0.4', { 'accept-language': 'es' });
    await p.get(await scanUrl());
    await p.post(url(), detailsOf(s));
    clock.set('2026-03-02T15:25:00Z');
    const again = await p.get(await scanUrl());
    holds(
      again,
      '<html lang="es">',
      `<title>${es.checkedInTitle} · Muster</title>`,
      'Tu entrada está registrada desde las 9:20',
      'se registran 5 min.',
      `${es.checkOut}</button>`,
    );
    const ask = await p.post(url(), { intent: 'check-out' });
    holds(ask, es.confirmCheckOutTitle, `${es.confirmCheckOut}</button>`, es.stayCheckedIn, 'se registran 5 min de 4 h');
    const typed = await phone('10.4.0.5', { 'accept-language': 'es' });
    await typed.get(await scanUrl());
    const already = await typed.post(url(), detailsOf(s));
    holds(already, 'Ya tenías la entrada registrada desde las 9:20');
    shows(already, es.scanAlreadyCheckedIn);
  });

  it('asks for the code on the screen when the phone’s pass has run out, and refuses Check out from a phone that checked nobody in', async () => {
    const s = cls.students[6]!;
    clock.set('2026-03-02T15:34:00Z'); // 09:34: the 09:00 session is ended; another opens
    await endSession();
    session = await cls.startSession();
    const p = phone('10.4.0.6');
    await p.get(await scanUrl());
    await p.post(url(), detailsOf(s)); // checked in at 09:34
    clock.set('2026-03-02T15:40:00Z'); // the pass lasted 5 minutes
    const bare = await p.get(url());
    holds(bare, 'You are checked in since 9:34 AM', '<label for="code">Code on the classroom screen</label>', 'Check out</button>');
    // Without the code: refused as the API refuses it, Check out again with the code asked.
    const refused = await p.post(url(), { intent: 'check-out' });
    expect(refused.statusCode).toBe(403);
    holds(refused, 'You are checked in since 9:34 AM', '<label for="code">');
    shows(refused, SCAN_STALE_CODE);
    const { code } = await cls.screen(session.sessionId);
    const ask = await p.post(url(), { intent: 'check-out', code });
    expect(ask.statusCode).toBe(409);
    holds(ask, en.confirmCheckOutTitle, '<label for="code">');
    const out = await p.post(url(), { intent: 'check-out', confirm: 'yes', code: (await cls.screen(session.sessionId)).code });
    holds(out, en.checkedOutTitle, 'Checked out at 9:40 AM', 'Minutes attended: 6');

    // A phone whose device checked nobody in here: the form, saying there is nothing to check out.
    const stranger = phone('10.4.0.7');
    await stranger.get(await scanUrl());
    const nothing = await stranger.post(url(), { intent: 'check-out', confirm: 'yes' });
    expect(nothing.statusCode).toBe(409);
    holds(nothing, '<form id="scan-form"');
    shows(nothing, en.scanNotCheckedIn);
  });
});
