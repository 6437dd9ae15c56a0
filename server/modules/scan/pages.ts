import { ATTENDANCE_STATUSES, isAttendedStatus, type AttendanceStatus } from '../../../common/constants.ts';
import type { StudentLanguage } from '../../../common/student-texts.ts';
import { escapeHtml as e } from '../../lib/html.ts';
import { statusLabel, type StudentT } from '../../lib/student-i18n.ts';
import {
  DETAIL_FIELDS,
  CODE_ATTRS,
  field,
  icon,
  missedPunchLink,
  screenCodeField,
  tHtml,
  type DetailName,
  type FormErrors,
  type ScanView,
} from './page-shell.ts';
import { breakForm } from './second-scan-views.ts';

/**
 * The scan pages' HTML (docs/decisions/028): whole pages rendered on the server, a few kilobytes
 * with their CSS, that work with no script at all. The views that a submit can lead to are also
 * sent as <template>s, with empty slots (data-slot) and every variant (data-if), so the page's small
 * script (web/scan/enhance.ts) shows an answer of the JSON API without a reload and without
 * knowing a word of the page's language. This file holds the check-in's views and those templates;
 * the document and its parts are in page-shell.ts, a second scan's views in second-scan-views.ts.
 */

// ---- The views ----

type SessionFacts = {
  sessionId: string;
  courseName: string;
  courseCode: string;
  roomNumber: string | null;
  /** Already formatted in the page's language. */
  date: string;
  starts: string;
  endsInMs: number;
};

export type FormState = {
  values: Partial<Record<DetailName, string>>;
  errors: FormErrors;
  /** A refusal of the whole submit (SPEC §8's texts, translated), beside the button. */
  alert: string | null;
  /** No valid pass on this phone: the code on the screen is asked. */
  askCode: boolean;
  /** Milliseconds of the pass left, for the script to ask for the code when it runs out. */
  passEndsInMs: number | null;
};

/** Where the form posts and what the script needs to send it itself. */
type FormTarget = { action: string; locale: string; timeZone: string };

export function formView(t: StudentT, s: SessionFacts, form: FormState, target: FormTarget, timeLeft: string): ScanView {
  const facts = [s.roomNumber ? [t('room'), s.roomNumber] : null, [t('sessionDate'), s.date], [t('starts'), s.starts]].filter((f): f is string[] => f !== null);
  const summary = Object.keys(form.errors).length > 0 ? `<p class="alert" role="alert">${e(t('fixErrors'))}</p>` : '';
  const data = [
    `data-session="${e(s.sessionId)}"`,
    `data-busy="${e(t('submitting'))}"`,
    `data-failed="${e(t('submitFailed'))}"`,
    `data-offline="${e(t('savedOffline'))}"`,
    `data-locale="${e(target.locale)}"`,
    `data-tz="${e(target.timeZone)}"`,
    form.passEndsInMs != null && !form.askCode ? `data-pass-ends-in="${form.passEndsInMs}"` : '',
  ].join(' ');
  const body =
    `<div class="top"><p class="eyebrow">${e(t('markAttendanceFor'))}</p><p class="pill"><span id="time-left">${e(t('timeLeft'))}</span> ` +
    `<span role="timer" aria-labelledby="time-left" data-ends-in="${s.endsInMs}">${e(timeLeft)}</span></p></div>` +
    `<h1>${e(s.courseName)}</h1><p class="muted">${e(s.courseCode)}</p>` +
    `<dl>${facts.map(([k, v]) => `<div><dt>${e(k!)}:</dt><dd>${e(v!)}</dd></div>`).join('')}</dl>` +
    `<p class="small">${e(t('notYourClass'))}</p>` +
    `<form id="scan-form" method="post" action="${e(target.action)}" aria-label="${e(t('formName'))}" ${data}>${summary}` +
    (form.askCode ? screenCodeField(t, form.errors.code) : '') +
    DETAIL_FIELDS.map((f) => field({ name: f.name, label: t(f.key), value: form.values[f.name], error: form.errors[f.name], attrs: f.attrs })).join('') +
    // Remembering needs the script (the phone's storage): without it the box would promise nothing.
    `<label class="check" hidden><input type="checkbox" name="remember"> ${e(t('rememberMe'))}</label>` +
    `<p class="alert" role="alert" id="scan-error"${form.alert ? '' : ' hidden'}>${e(form.alert ?? '')}</p>` +
    `<button type="submit">${e(t('markMyAttendance'))}</button></form>`;
  return { title: t('markAttendance'), body };
}

export const notFoundView = (t: StudentT, detail?: string): ScanView => ({
  title: t('sessionNotFound'),
  body: `<div class="result">${icon('searchX', 'bad')}<h1 tabindex="-1">${e(t('sessionNotFound'))}</h1><p class="muted">${e(t('sessionNotFoundText'))}</p>${detail ? `<p class="small">${e(detail)}</p>` : ''}</div>`,
});

export const expiredView = (t: StudentT, courseName: string | null): ScanView => ({
  title: t('sessionExpired'),
  body: `<div class="result">${icon('timerOff', 'warn')}<h1 tabindex="-1">${e(t('sessionExpired'))}</h1>${courseName ? `<p class="lead">${e(courseName)}</p>` : ''}<p class="muted">${e(t('sessionExpiredText'))}</p></div>`,
});

/** A session the instructor ended (End Session) before its time: not "expired" (docs/decisions/042). */
export const endedView = (t: StudentT, courseName: string | null): ScanView => ({
  title: t('sessionEnded'),
  body: `<div class="result">${icon('timerOff', 'warn')}<h1 tabindex="-1">${e(t('sessionEnded'))}</h1>${courseName ? `<p class="lead">${e(courseName)}</p>` : ''}<p class="muted">${e(t('sessionEndedText'))}</p></div>`,
});

/** A check-in's answer, ready to show; null in the template, whose slots the script fills. */
export type Outcome = {
  /**
   * already_checked_in has a view of its own (checkedInView), and so have the break punches on a
   * page without script; break_ended (a check-in that ended a break) is the script's variant.
   */
  action: 'checked_in' | 'checked_out' | 'already_recorded' | 'break_ended';
  status: AttendanceStatus;
  courseName: string;
  /** The scan's time of day, formatted. */
  time: string;
  /** The API's message in the page's language. */
  message: string;
  minutesAttended: number | null;
  studentId: string;
  email: string;
};

/** A view's dynamic parts: the real values on a page, empty slots and every variant in a template. */
function filler(o: Outcome | null) {
  return {
    text: (name: string, value: () => string) => (o ? e(value()) : `<span data-slot="${name}"></span>`),
    input: (name: string, value: () => string) => `<input type="hidden" name="${name}" ${o ? `value="${e(value())}"` : `data-slot="${name}"`}>`,
    /** `html` with the attribute marking it as the `key` variant (keys: any of them), or nothing when it does not apply. */
    variant: (key: string, applies: () => boolean, html: (attr: string) => string) => (!o ? html(` data-if="${key}"`) : applies() ? html('') : ''),
  };
}

const WHEN_KEYS = { checked_in: 'checkedInAt', checked_out: 'checkedOutAt', already_recorded: 'alreadyRecordedAt', break_ended: 'backAt' } as const;
/** A check-out is not "Attendance Marked!": it says what it did (decision 039). */
const HEADING_KEYS = {
  checked_in: 'attendanceMarked',
  checked_out: 'checkedOutTitle',
  already_recorded: 'attendanceMarked',
  break_ended: 'welcomeBackTitle',
} as const;

/**
 * Attendance Marked! (or You are checked out, or Welcome back): the course, the punch and when, the
 * API's message, the break buttons after a check-in (`breaks`: where they post, and whether Lunch out
 * is offered), "E-mail me my hours", and the link to ask for a missed punch's correction.
 */
export function successView(
  t: StudentT,
  o: Outcome | null,
  language: StudentLanguage,
  hoursAction: string,
  breaks?: { action: string; lunch: boolean },
): ScanView {
  const f = filler(o);
  const time = f.text('time', () => o!.time);
  const actions = Object.keys(WHEN_KEYS) as Outcome['action'][];
  const heading = actions
    .map((action) =>
      f.variant(
        action,
        () => o!.action === action,
        (attr) => `<h1 tabindex="-1"${attr}>${e(t(HEADING_KEYS[action]))}</h1>`,
      ),
    )
    .join('');
  const when = actions
    .map((action) =>
      f.variant(
        action,
        () => o!.action === action,
        (attr) => `<p class="big"${attr}>${tHtml(t, WHEN_KEYS[action], { time })}</p>`,
      ),
    )
    .join('');
  const minutes = f.variant(
    'minutes',
    () => o!.action === 'checked_out' && o!.minutesAttended != null,
    (attr) => `<p${attr}>${tHtml(t, 'minutesAttended', { minutes: f.text('minutes', () => String(o!.minutesAttended)) })}</p>`,
  );
  const body =
    `<div class="result">${icon('check', 'ok')}${heading}<p class="lead">${f.text('course', () => o!.courseName)}</p>` +
    `<div class="box">${when}<p>${f.text('message', () => o!.message)}</p>${minutes}</div>` +
    f.variant(
      'checked_in',
      () => o!.action === 'checked_in',
      (attr) => `<p class="small"${attr}>${e(t('leavingEarly'))}</p>`,
    ) +
    (breaks
      ? f.variant(
          'checked_in break_ended',
          () => o!.action === 'checked_in' || o!.action === 'break_ended',
          (attr) => breakForm(t, { action: breaks.action, details: null, askCode: false, alert: null }, { breaks: [], lunch: breaks.lunch }, attr),
        )
      : '') +
    `<p class="small"><strong>${e(t('closePage'))}</strong></p>` +
    // A plain form to /my-hours: its answer is a page of its own, with or without script. Not when
    // nothing was typed (a check-out by the device's student: their details are not written into pages).
    (o && !o.studentId
      ? ''
      : `<form class="hours" method="post" action="${e(hoursAction)}">${f.input('studentId', () => o!.studentId)}${f.input('email', () => o!.email)}` +
        `<input type="hidden" name="language" value="${language}"><button type="submit" class="secondary">${e(t('requestTitle'))}</button>` +
        `<p class="small">${tHtml(t, 'hoursLinkTo', { email: f.text('email', () => o!.email) })}</p></form>`) +
    missedPunchLink(t, language) +
    '</div>';
  return { title: t(o ? HEADING_KEYS[o.action] : 'attendanceMarked'), body };
}
/** Statuses a scan cannot change: the record says the student was not there (absent, excused). */
const NOT_THERE = ATTENDANCE_STATUSES.filter((s) => !isAttendedStatus(s));

/** Not "Attendance Marked!": what the record says, and who can change it. Amber: nothing was marked. */
export function seeInstructorView(t: StudentT, o: Outcome | null): ScanView {
  const f = filler(o);
  const recorded = NOT_THERE.map((status) =>
    f.variant(
      status,
      () => o!.status === status,
      (attr) => `<p class="big"${attr}>${e(t('recordedAs', { status: statusLabel(t, status) }))}</p>`,
    ),
  ).join('');
  return {
    title: t('seeInstructor'),
    body:
      `<div class="result">${icon('user', 'warn')}<h1 tabindex="-1">${e(t('seeInstructor'))}</h1><p class="lead">${f.text('course', () => o!.courseName)}</p>` +
      `<div class="box warn">${recorded}<p>${f.text('message', () => o!.message)}</p></div><p class="small">${e(t('instructorSeesScan'))}</p></div>`,
  };
}

/** /attendance/scan: the six digits for a student who cannot scan the QR. */
export function codeEntryView(t: StudentT, action: string, state: { value?: string; error?: string; alert?: string | null }): ScanView {
  const body =
    `<div class="result">${icon('key', 'info')}<h1>${e(t('enterCodeTitle'))}</h1><p class="muted">${e(t('enterCodeIntro'))}</p></div>` +
    `<form id="code-form" method="post" action="${e(action)}" data-busy="${e(t('checking'))}">` +
    field({ name: 'code', label: t('classCodeLabel'), hint: t('classCodeHint'), value: state.value, error: state.error, attrs: CODE_ATTRS }) +
    `<p class="alert" role="alert"${state.alert ? '' : ' hidden'}>${e(state.alert ?? '')}</p><button type="submit">${e(t('continue'))}</button></form>`;
  return { title: t('enterCodeTitle'), body };
}

/** A refusal before any field was read (another site's form, too many requests, a body that is not a form). */
export const refusalView = (t: StudentT, title: string, text: string, detail?: string): ScanView => ({
  title,
  body: `<div class="result">${icon('searchX', 'bad')}<h1 tabindex="-1">${e(title)}</h1><p class="muted" role="alert">${e(text)}</p>${detail ? `<p class="small">${e(detail)}</p>` : ''}</div>`,
});

/** What the page's script needs besides the page: the views a submit can lead to, the code field, the API's answers in this language. */
export function scriptExtras(
  t: StudentT,
  language: StudentLanguage,
  courseName: string,
  hoursAction: string,
  answers: ReadonlyMap<string, string>,
  breaks: { action: string; lunch: boolean },
): string {
  const template = (id: string, view: ScanView, attrs = '') => `<template id="scan-${id}" data-title="${e(view.title)}"${attrs}>${view.body}</template>`;
  const translated =
    language === 'en'
      ? ''
      : `<script type="application/json" id="scan-answers">${JSON.stringify(Object.fromEntries(answers)).replace(/</g, '\\u003c')}</script>`;
  return (
    template('success', successView(t, null, language, hoursAction, breaks)) +
    template('see', seeInstructorView(t, null), ` data-statuses="${NOT_THERE.join(' ')}"`) +
    template('expired', expiredView(t, courseName)) +
    template('ended', endedView(t, courseName)) +
    template('not-found', notFoundView(t)) +
    `<template id="scan-code">${screenCodeField(t)}</template>` +
    translated
  );
}
