import type { LightMyRequestResponse } from 'fastify';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCAN_BREAK_ENDED, SCAN_BREAK_STARTED, SCAN_CHECK_OUT_ON_BREAK, SCAN_LUNCH_STARTED, SCAN_STALE_CODE } from '../../../common/attendance.ts';
import { STUDENT_TEXTS } from '../../../common/student-texts.ts';
import { courses } from '../../db/schema/index.ts';
import { escapeHtml } from '../../lib/html.ts';
import { checkInAnswers, studentT } from '../../lib/student-i18n.ts';
import { createTestApp, fixedClock, type TestApp } from '../../test/helpers.ts';
import { seedClass, type TestClass, type TestStudent } from '../attendance/test-support.ts';
import { MISSED_PUNCH_PATH } from './page-shell.ts';
import { scriptExtras, successView } from './pages.ts';
import { scanBrowser } from './test-support.ts';

// "Several punches per meeting" (docs/decisions/051): the scan page offers a checked-in
// student Start a break / Back from break (and Lunch out / Lunch in when the meeting is long enough
// for the program's meal rule), each a plain form that works without script, in English and Spanish;
// it shows the punches so far, and links to the missed-punch request page.

// Monday 2 March 2026 in Chicago (UTC-6): class 08:00–12:00 local = 14:00–18:00Z.
const DATE = '2026-03-02';
const clock = fixedClock('2026-03-02T14:00:00Z');
let t: TestApp;
let cls: TestClass;
let session: { sessionId: string; id: number };

beforeAll(async () => {
  t = await createTestApp({ clock });
  cls = await seedClass(t, 8, 'P');
  session = await cls.startSession();
});
afterAll(() => t?.close());

const en = STUDENT_TEXTS.en;
const es = STUDENT_TEXTS.es;
/** A time of day at school (Chicago, UTC−6 that day) as the server's clock. */
const at = (hhmm: string) => clock.set(`${DATE}T${String(Number(hhmm.slice(0, 2)) + 6).padStart(2, '0')}:${hhmm.slice(3)}:00Z`);
const url = () => `/attendance/scan/${session.sessionId}`;
const scanUrl = async () => `${url()}?t=${(await cls.screen(session.sessionId)).token}`;
const detailsOf = (s: TestStudent) => ({ studentId: s.sis, firstName: s.first, lastName: s.last, email: s.email });
const rowOf = async (s: TestStudent) => (await cls.roster(DATE)).find((r) => r.studentId === s.id)!;
const shows = (res: LightMyRequestResponse, text: string) => expect(res.body).toContain(escapeHtml(text));
const holds = (res: LightMyRequestResponse, ...pieces: string[]) => {
  for (const piece of pieces) expect(res.body).toContain(piece);
};
const lacks = (res: LightMyRequestResponse, ...pieces: string[]) => {
  for (const piece of pieces) expect(res.body).not.toContain(piece);
};
const BREAK_FORM = () => `<form id="break-form" method="post" action="${url()}"`;
const button = (intent: string, label: string, alt = true) =>
  `<button type="submit" name="intent" value="${intent}"${alt ? ' class="alt"' : ''}>${escapeHtml(label)}</button>`;
/** A phone that opened the QR and checked its student in at `time`. */
async function checkedIn(s: TestStudent, ip: string, time: string, headers: Record<string, string> = {}) {
  at(time);
  const p = scanBrowser(() => t, ip, headers);
  await p.get(await scanUrl());
  const res = await p.post(url(), detailsOf(s));
  expect(res.statusCode).toBe(200);
  return { p, res };
}

describe('without script, on the phone that checked in', () => {
  const s = () => cls.students[0]!;
  let p: ReturnType<typeof scanBrowser>;

  it('offers Start a break on Attendance Marked! (no Lunch out in a four-hour class without a meal rule), and the missed-punch link', async () => {
    const done = await checkedIn(s(), '10.5.0.1', '08:00');
    p = done.p;
    holds(
      done.res,
      en.attendanceMarked,
      BREAK_FORM(),
      button('break-start', en.startBreak),
      `<a href="${MISSED_PUNCH_PATH}">${escapeHtml(en.missedPunchLink)}</a>`,
    );
    shows(done.res, en.breaksHint);
    lacks(done.res, 'value="lunch-out"');
    // The break form is the device's student's: no details written into it.
    const form = done.res.body.slice(done.res.body.indexOf(BREAK_FORM()));
    expect(form.slice(0, form.indexOf('</form>'))).not.toContain('name="studentId"');
  });

  it('starts a break: the page says since when, the punches so far, and Back from break only', async () => {
    at('09:00');
    const opened = await p.get(await scanUrl());
    holds(opened, '<h1 tabindex="-1">You are checked in since 8:00 AM</h1>', BREAK_FORM(), button('break-start', en.startBreak), '<form id="checkout-form"');

    const res = await p.post(url(), { intent: 'break-start' });
    expect(res.statusCode).toBe(200);
    holds(
      res,
      `<title>You are on a break since 9:00 AM · Muster</title>`,
      '<h1 tabindex="-1">You are on a break since 9:00 AM</h1>',
      button('break-end', en.backFromBreak, false),
    );
    holds(
      res,
      `<p class="notice" role="status">${escapeHtml(SCAN_BREAK_STARTED)}</p>`,
      `<h2 id="punches-title">${en.punchesTitle}</h2>`,
      '<li>Checked in at 8:00 AM</li>',
      '<li>Break: from 9:00 AM, not back yet</li>',
    );
    shows(res, en.notComingBack);
    // No Check out during a break, nor another break.
    lacks(res, 'checkout-form', 'value="break-start"');
    expect(await rowOf(s())).toMatchObject({ scanOutTime: null, minutesAttended: 60, breaks: [{ kind: 'break', endedAt: null }] });

    // Opened again while on the break: the same, without the notice.
    at('09:10');
    const again = await p.get(await scanUrl());
    holds(again, '<h1 tabindex="-1">You are on a break since 9:00 AM</h1>', button('break-end', en.backFromBreak, false));
    lacks(again, 'class="notice"');
  });

  it('refuses Check out sent during the break (a page left open), saying to end the break first', async () => {
    const res = await p.post(url(), { intent: 'check-out', confirm: 'yes' });
    expect(res.statusCode).toBe(409);
    holds(res, '<h1 tabindex="-1">You are on a break since 9:00 AM</h1>', button('break-end', en.backFromBreak, false));
    shows(res, SCAN_CHECK_OUT_ON_BREAK);
    expect(await rowOf(s())).toMatchObject({ scanOutTime: null, breaks: [{ endedAt: null }] });
  });

  it('asks for the code on the screen when the pass has run out, beside the break buttons, then ends the break', async () => {
    at('09:15'); // the pass lasted 5 minutes
    const refused = await p.post(url(), { intent: 'break-end' });
    expect(refused.statusCode).toBe(403);
    holds(refused, '<label for="break-code">Code on the classroom screen</label>', 'id="break-code" name="code"', button('break-end', en.backFromBreak, false));
    shows(refused, SCAN_STALE_CODE);
    expect((await rowOf(s())).breaks).toMatchObject([{ endedAt: null }]);

    const back = await p.post(url(), { intent: 'break-end', code: (await cls.screen(session.sessionId)).code });
    expect(back.statusCode).toBe(200);
    holds(back, '<h1 tabindex="-1">You are checked in since 8:00 AM</h1>', `<p class="notice" role="status">${escapeHtml(SCAN_BREAK_ENDED)}</p>`);
    holds(back, '<li>Break: 9:00 AM – 9:15 AM</li>', button('break-start', en.startBreak), '<form id="checkout-form"');
    // Leaving now records the time without the break: 08:00–09:00 and 09:15–09:15.
    holds(back, 'Class ends at 12:00 PM; leaving now records 1 h.');
    expect(await rowOf(s())).toMatchObject({ minutesAttended: 225, breaks: [{ kind: 'break', endedAt: '2026-03-02T15:15:00.000Z' }] });
  });

  it('shows the punches and the missed-punch link once checked out', async () => {
    at('11:55');
    await p.get(await scanUrl());
    const out = await p.post(url(), { intent: 'check-out' });
    holds(out, en.checkedOutTitle, 'Minutes attended: 220');
    const later = await p.get(await scanUrl());
    holds(later, `<h1 tabindex="-1">${en.checkedOutTitle}</h1>`, '<li>Break: 9:00 AM – 9:15 AM</li>', `<a href="${MISSED_PUNCH_PATH}">`);
    lacks(later, 'break-form');
    // A break pressed on a page left open after the check-out: the page says checked out.
    const stale = await p.post(url(), { intent: 'break-start' });
    expect(stale.statusCode).toBe(409);
    holds(stale, `<h1 tabindex="-1">${en.checkedOutTitle}</h1>`);
  });
});

describe('lunch, by the program’s meal rule', () => {
  it('offers Lunch out / Lunch in once the meal rule’s minutes fit in the class', async () => {
    const [{ programId }] = (await t.db.select({ programId: courses.programId }).from(courses).where(eq(courses.courseCode, 'NUR-P'))) as [
      { programId: number },
    ];
    const put = await t.app.inject({
      method: 'PUT',
      url: `/api/programs/${programId}/time-clock`,
      headers: { cookie: cls.admin },
      payload: { missingCheckOut: 'no_credit', mealDeduction: { afterMinutes: 240, minutes: 30 }, effectiveFrom: DATE },
    });
    expect(put.statusCode).toBe(200);

    const s = cls.students[1]!;
    const { p, res } = await checkedIn(s, '10.5.0.2', '08:02');
    holds(res, button('break-start', en.startBreak), button('lunch-out', en.lunchOut));
    at('10:30');
    await p.get(await scanUrl());
    const out = await p.post(url(), { intent: 'lunch-out' });
    holds(
      out,
      '<h1 tabindex="-1">You are out for lunch since 10:30 AM</h1>',
      button('lunch-in', en.lunchIn, false),
      '<li>Lunch: from 10:30 AM, not back yet</li>',
    );
    shows(out, SCAN_LUNCH_STARTED);
    at('11:00');
    await p.get(await scanUrl());
    const back = await p.post(url(), { intent: 'lunch-in' });
    holds(back, '<li>Lunch: 10:30 AM – 11:00 AM</li>', button('lunch-out', en.lunchOut));
    expect(await rowOf(s)).toMatchObject({ breaks: [{ kind: 'lunch', endedAt: '2026-03-02T17:00:00.000Z' }] });
  });
});

describe('with typed details, on a phone the server does not recognise', () => {
  it('carries the details in the break form, and a check-in sent while on a break ends it', async () => {
    const s = cls.students[2]!;
    await checkedIn(s, '10.5.0.3', '08:00');
    at('09:30');
    const other = scanBrowser(() => t, '10.5.0.4');
    await other.get(await scanUrl());
    const already = await other.post(url(), detailsOf(s));
    holds(already, 'You are already checked in since 8:00 AM', BREAK_FORM(), `<input type="hidden" name="studentId" value="${s.sis}">`);
    const out = await other.post(url(), { ...detailsOf(s), intent: 'break-start' });
    expect(out.statusCode).toBe(200);
    holds(
      out,
      '<h1 tabindex="-1">You are on a break since 9:30 AM</h1>',
      `<input type="hidden" name="email" value="${s.email}">`,
      button('break-end', en.backFromBreak, false),
    );

    // Back, the student fills the usual form again (no intent): the break ends.
    at('09:40');
    const third = scanBrowser(() => t, '10.5.0.5');
    await third.get(await scanUrl());
    const back = await third.post(url(), detailsOf(s));
    expect(back.statusCode).toBe(200);
    holds(back, '<h1 tabindex="-1">You are checked in since 8:00 AM</h1>', '<li>Break: 9:30 AM – 9:40 AM</li>');
    shows(back, SCAN_BREAK_ENDED);
  });
});

describe('in Spanish', () => {
  it('says it all in Spanish, the API’s answers translated, the missed-punch link kept in Spanish', async () => {
    const s = cls.students[3]!;
    const { p, res } = await checkedIn(s, '10.5.0.6', '08:00', { 'accept-language': 'es' });
    holds(
      res,
      '<html lang="es">',
      button('break-start', es.startBreak),
      button('lunch-out', es.lunchOut),
      `<a href="${MISSED_PUNCH_PATH}?lang=es">${escapeHtml(es.missedPunchLink)}</a>`,
    );
    at('09:05');
    await p.get(await scanUrl());
    const out = await p.post(url(), { intent: 'break-start' });
    holds(
      out,
      '<h1 tabindex="-1">Estás en un descanso desde las 9:05 a.m.</h1>',
      button('break-end', es.backFromBreak, false),
      `<h2 id="punches-title">${es.punchesTitle}</h2>`,
    );
    holds(out, '<li>Entrada registrada a las 8:00 a.m.</li>', '<li>Descanso: desde las 9:05 a.m., todavía sin volver</li>');
    shows(out, es.scanBreakStarted);
    shows(out, es.notComingBack);
    const leave = await p.post(url(), { intent: 'check-out' });
    shows(leave, es.scanCheckOutOnBreak);
    const back = await p.post(url(), { intent: 'break-end' });
    holds(back, 'Tu entrada está registrada desde las 8:00 a.m.', '<li>Descanso: 9:05 a.m. – 9:05 a.m.</li>');
    shows(back, es.scanBreakEnded);
  });

  it('translates every break answer of the API, and each text of the page', () => {
    const answers = checkInAnswers('es');
    for (const key of [
      'scanBreakStarted',
      'scanLunchStarted',
      'scanBreakEnded',
      'scanLunchEnded',
      'scanBreakNotCheckedIn',
      'scanBreakAfterCheckOut',
      'scanAlreadyOnBreak',
      'scanCheckOutOnBreak',
      'scanNotOnBreak',
    ] as const) {
      expect(answers.get(en[key]), key).toBe(es[key]);
    }
    for (const key of [
      'startBreak',
      'backFromBreak',
      'lunchOut',
      'lunchIn',
      'onBreakSince',
      'outForLunchSince',
      'onClassBreakSince',
      'punchesTitle',
      'breakKindBreak',
      'breakKindLunch',
      'breakKindInstructor',
      'welcomeBackTitle',
      'missedPunchLink',
    ] as const) {
      expect(es[key], key).not.toBe(en[key]);
    }
  });
});

describe('the script’s templates', () => {
  it('hold the break buttons for a check-in and for a return from a break, Welcome back, and the missed-punch link', () => {
    const english = studentT('en');
    const extras = scriptExtras(english, 'en', 'Course', '/my-hours', checkInAnswers('en'), { action: url(), lunch: true });
    expect(extras).toContain(
      `<form id="break-form" method="post" action="${url()}" aria-label="Breaks" data-busy="Sending..." data-if="checked_in break_ended">`,
    );
    expect(extras).toContain(button('lunch-out', en.lunchOut));
    expect(extras).toContain(`<h1 tabindex="-1" data-if="break_ended">${en.welcomeBackTitle}</h1>`);
    expect(extras).toContain(`<a href="${MISSED_PUNCH_PATH}">`);
    // A page (not a template) after a check-out has no break buttons.
    const out = successView(
      english,
      { action: 'checked_out', status: 'present', courseName: 'Course', time: '11:55 AM', message: 'x', minutesAttended: 200, studentId: '', email: '' },
      'en',
      '/my-hours',
      {
        action: url(),
        lunch: false,
      },
    );
    expect(out.body).not.toContain('break-form');
    expect(out.body).toContain(MISSED_PUNCH_PATH);
  });

  it('the roster shows the breaks of every record', async () => {
    const rows = await cls.roster(DATE);
    const { rows: counted } = await t.db.execute<{ n: number }>(sql`select count(*)::int as n from attendance_breaks`);
    expect(rows.reduce((n, r) => n + r.breaks.length, 0)).toBe(counted[0]!.n);
  });
});
