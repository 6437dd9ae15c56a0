import type { BreakKind } from '../../../common/attendance.ts';
import { ATTENDANCE_STATUSES, isAttendedStatus, type AttendanceStatus } from '../../../common/constants.ts';
import { LANGUAGE_NAMES, STUDENT_LANGUAGES, type StudentLanguage, type StudentTextKey } from '../../../common/student-texts.ts';
import { escapeHtml as e } from '../../lib/html.ts';
import { statusLabel, type StudentT } from '../../lib/student-i18n.ts';

/**
 * The scan pages' HTML (docs/decisions/028): whole pages rendered on the server, a few kilobytes
 * with their CSS, that work with no script at all. The views that a submit can lead to are also
 * sent as <template>s, with empty slots (data-slot) and every variant (data-if), so the page's small
 * script (web/scan/enhance.ts) shows an answer of the JSON API without a reload and without
 * knowing a word of the page's language.
 */

const CSS = `*{box-sizing:border-box}[hidden]{display:none!important}
body{margin:0;background:#f8fafc;color:#0f172a;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;-webkit-text-size-adjust:100%}
main{max-width:28rem;margin:0 auto;padding:1rem 1rem 2.5rem}a{color:#1d4ed8}
header{display:flex;flex-wrap:wrap;align-items:center;justify-content:space-between;gap:.5rem;margin-bottom:1rem}
.brand{display:inline-flex;align-items:center;gap:.625rem;margin:0;font-size:1.125rem;font-weight:700}.brand svg{width:2rem;height:2rem}
nav{display:flex;font-size:.9375rem}nav a,nav span{display:inline-flex;align-items:center;min-height:44px;padding:0 .625rem}nav span{font-weight:600}
.card{background:#fff;border:1px solid #e2e8f0;border-radius:1rem;padding:1.25rem;box-shadow:0 1px 2px #0000000d}
h1{margin:.25rem 0 0;font-size:1.5rem;line-height:1.25;overflow-wrap:anywhere}h1:focus{outline:0}
.top{display:flex;flex-wrap:wrap;justify-content:space-between;gap:.5rem}
.eyebrow{margin:0;color:#1d4ed8;font-size:.875rem;font-weight:600}
.pill{margin:0;padding:.25rem .625rem;border-radius:1rem;background:#ecfdf5;color:#065f46;font-size:.8125rem;font-weight:600}
[role=timer]{font-family:ui-monospace,monospace;font-variant-numeric:tabular-nums}
.muted,.hint{margin:0;color:#475569;font-size:.875rem}.hint{margin-top:.375rem;font-size:.8125rem}
dl{display:grid;gap:.375rem;margin:1rem 0 0;padding:.875rem;border-radius:.75rem;background:#f1f5f9;font-size:.875rem}
dl div{display:flex;flex-wrap:wrap;gap:.375rem}dt{font-weight:600}dd{margin:0}
.small{margin:.75rem 0 0;color:#475569;font-size:.8125rem}
.field{margin-top:1rem}label{display:block;color:#1e293b;font-size:.875rem;font-weight:600}
input{display:block;width:100%;height:3rem;margin-top:.375rem;padding:0 .875rem;border:1px solid #64748b;border-radius:.75rem;background:#fff;color:inherit;font:inherit}
input:focus{border-color:#1d4ed8;outline:2px solid #1d4ed8;outline-offset:-1px}input[aria-invalid=true]{border-color:#b91c1c}
.check{display:flex;align-items:center;gap:.625rem;min-height:44px;margin-top:.75rem;font-weight:400}.check input{width:1.25rem;height:1.25rem;margin:0;accent-color:#1d4ed8}
.error{margin:.375rem 0 0;color:#b91c1c;font-size:.875rem}
.alert{margin:1rem 0 0;padding:.75rem .875rem;border:1px solid #fecaca;border-radius:.75rem;background:#fef2f2;color:#991b1b;font-size:.875rem}
button{display:flex;align-items:center;justify-content:center;gap:.5rem;width:100%;min-height:3rem;margin-top:1.25rem;padding:.5rem 1rem;border:0;border-radius:.75rem;background:#1d4ed8;color:#fff;font:inherit;font-weight:600}
button:disabled{opacity:.55}.secondary{width:auto;margin:0;border:1px solid #64748b;background:#fff;color:#1e293b}
:focus-visible{outline:3px solid #1d4ed8;outline-offset:2px}
.result{text-align:center}.lead{margin:.25rem 0 0;color:#1e293b;font-weight:500}
.icon{display:flex;align-items:center;justify-content:center;width:3.5rem;height:3.5rem;margin:.25rem auto 1rem;border-radius:50%}
.icon svg{width:1.75rem;height:1.75rem;fill:none;stroke:currentColor;stroke-width:2;stroke-linecap:round;stroke-linejoin:round}
.ok{background:#ecfdf5;color:#047857}.warn{background:#fffbeb;color:#b45309}.bad{background:#fef2f2;color:#b91c1c}.info{background:#eff6ff;color:#1d4ed8}
.box{margin-top:1.25rem;padding:1rem;border-radius:.75rem;background:#f1f5f9}.box.warn{color:#0f172a;outline:1px solid #fcd34d}
.big{margin:0;font-size:1.125rem;font-weight:600}.box p+p{margin:.25rem 0 0;color:#334155;font-size:.875rem}
.hours{margin-top:1.25rem;padding-top:1rem;border-top:1px solid #e2e8f0;text-align:left}
a.button{display:flex;align-items:center;justify-content:center;min-height:3rem;margin-top:.75rem;padding:.5rem 1rem;border:1px solid #64748b;border-radius:.75rem;color:#1e293b;font-weight:600;text-decoration:none}
h2{margin:1.25rem 0 .375rem;font-size:1rem}.punches ul{margin:0;padding-left:1.25rem;font-size:.9375rem;font-variant-numeric:tabular-nums}
.notice{margin:1rem 0 0;padding:.75rem .875rem;border:1px solid #a7f3d0;border-radius:.75rem;background:#ecfdf5;color:#065f46;font-size:.875rem}
.row{display:flex;flex-wrap:wrap;gap:.5rem;margin-top:1.25rem}.row button{flex:1 1 10rem;margin:0}button.alt{border:1px solid #64748b;background:#fff;color:#1e293b}`;

const LOGO = '<rect width="32" height="32" rx="8" fill="#1d4ed8"/><path d="M9 22V10l7 7 7-7v12" fill="none" stroke="#fff" stroke-width="3" stroke-linecap="round" stroke-linejoin="round"/>';
// The icon inline: a favicon file would be one more request on a slow network.
const FAVICON = `data:image/svg+xml,${encodeURIComponent(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">${LOGO}</svg>`)}`;

// Lucide's shapes (ISC), drawn by the CSS above.
const ICONS = {
  check: '<circle cx="12" cy="12" r="10"/><path d="m16 9-5.5 5.5L8 12"/>',
  timerOff: '<path d="M10 2h4M4.6 11a8 8 0 0 0 1.7 8.7 8 8 0 0 0 8.7 1.7M7.4 7.4a8 8 0 0 1 10.3 1 8 8 0 0 1 .9 10.2M2 2l20 20M12 12v-2"/>',
  searchX: '<path d="m13.5 8.5-5 5m0-5 5 5M21 21l-4.3-4.3"/><circle cx="11" cy="11" r="8"/>',
  user: '<circle cx="12" cy="8" r="5"/><path d="M20 21a8 8 0 0 0-16 0"/>',
  clock: '<circle cx="12" cy="12" r="10"/><path d="M12 6v6l4 2"/>',
  logOut: '<path d="m16 17 5-5-5-5M21 12H9M9 21H5a2 2 0 0 1-2-2V5a2 2 0 0 1 2-2h4"/>',
  key: '<path d="M2.586 17.414A2 2 0 0 0 2 18.828V21a1 1 0 0 0 1 1h3a1 1 0 0 0 1-1v-1a1 1 0 0 1 1-1h1a1 1 0 0 0 1-1v-1a1 1 0 0 1 1-1h.172a2 2 0 0 0 1.414-.586l.814-.814a6.5 6.5 0 1 0-4-4z"/><circle cx="16.5" cy="7.5" r=".5"/>',
};
const icon = (name: keyof typeof ICONS, tone: 'ok' | 'warn' | 'bad' | 'info') => `<span class="icon ${tone}" aria-hidden="true"><svg viewBox="0 0 24 24">${ICONS[name]}</svg></span>`;

/** One page: what the card shows and the tab's title. */
export type ScanView = { title: string; body: string };

/** A text of the catalogue with parts that are HTML already (slots): the rest is escaped. */
function tHtml(t: StudentT, key: StudentTextKey, parts: Record<string, string>): string {
  const names = Object.keys(parts);
  let out = e(t(key, Object.fromEntries(names.map((name, i) => [name, `\u0001${i}\u0001`]))));
  names.forEach((name, i) => (out = out.replace(`\u0001${i}\u0001`, parts[name]!)));
  return out;
}

// ---- Fields ----

export type FieldSpec = {
  name: string;
  /** The element's id when it is not the name (a second code field on the page). */
  id?: string;
  label: string;
  value?: string;
  error?: string;
  hint?: string;
  /** Further attributes, written as they are (constants of this file only). */
  attrs: string;
};

/** A labelled input 48 px tall, 16 px text (smaller makes iOS zoom in on focus), its hint and its error. */
export function field(f: FieldSpec): string {
  const id = f.id ?? f.name;
  const described = [f.hint ? `${id}-hint` : '', f.error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return (
    `<div class="field"><label for="${id}">${e(f.label)}</label><input id="${id}" name="${f.name}" ${f.attrs} required` +
    `${f.value ? ` value="${e(f.value)}"` : ''}${described ? ` aria-describedby="${described}"` : ''}${f.error ? ' aria-invalid="true"' : ''}>` +
    `${f.hint ? `<p class="hint" id="${id}-hint">${e(f.hint)}</p>` : ''}${f.error ? `<p class="error" id="${id}-error">${e(f.error)}</p>` : ''}</div>`
  );
}

const CODE_ATTRS = 'inputmode="numeric" autocomplete="one-time-code" pattern="[0-9 ]*" maxlength="7"';

/** The code on the classroom screen, asked when the phone holds no valid pass. */
export const screenCodeField = (t: StudentT, error?: string, id?: string) =>
  field({ name: 'code', id, label: t('screenCodeLabel'), hint: t('screenCodeHint'), error, attrs: CODE_ATTRS });

/** The four fields of the form, in SPEC's order, as the JSON API names them. */
export const DETAIL_FIELDS = [
  { name: 'studentId', key: 'studentIdLabel', attrs: 'autocomplete="off" autocapitalize="none" autocorrect="off" spellcheck="false" maxlength="100"' },
  { name: 'firstName', key: 'firstNameLabel', attrs: 'autocomplete="given-name" maxlength="100"' },
  { name: 'lastName', key: 'lastNameLabel', attrs: 'autocomplete="family-name" maxlength="100"' },
  { name: 'email', key: 'scanEmailLabel', attrs: 'type="email" inputmode="email" autocomplete="email" autocapitalize="none" maxlength="320"' },
] as const;
export type DetailName = (typeof DETAIL_FIELDS)[number]['name'];
export type FormErrors = Partial<Record<DetailName | 'code', string>>;

// ---- The views ----

export type SessionFacts = {
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
export type FormTarget = { action: string; locale: string; timeZone: string };

export function formView(t: StudentT, s: SessionFacts, form: FormState, target: FormTarget, timeLeft: string): ScanView {
  const facts = [
    s.roomNumber ? [t('room'), s.roomNumber] : null,
    [t('sessionDate'), s.date],
    [t('starts'), s.starts],
  ].filter((f): f is string[] => f !== null);
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
/** A check-out is not "Attendance Marked!": it says what it did (issue 28). */
const HEADING_KEYS = { checked_in: 'attendanceMarked', checked_out: 'checkedOutTitle', already_recorded: 'attendanceMarked', break_ended: 'welcomeBackTitle' } as const;

/** The link to ask for a correction of a punch missed at an earlier class (the missed-punch page, in the page's language). */
const missedPunchLink = (t: StudentT, language: StudentLanguage) =>
  `<p class="small"><a href="${e(language === 'en' ? MISSED_PUNCH_PATH : `${MISSED_PUNCH_PATH}?lang=${language}`)}">${e(t('missedPunchLink'))}</a></p>`;
export const MISSED_PUNCH_PATH = '/attendance/missed-punch';

/**
 * Attendance Marked! (or You are checked out, or Welcome back): the course, the punch and when, the
 * API's message, the break buttons after a check-in (`breaks`: where they post, and whether Lunch out
 * is offered), "E-mail me my hours", and the link to ask for a missed punch's correction.
 */
export function successView(t: StudentT, o: Outcome | null, language: StudentLanguage, hoursAction: string, breaks?: { action: string; lunch: boolean }): ScanView {
  const f = filler(o);
  const time = f.text('time', () => o!.time);
  const actions = Object.keys(WHEN_KEYS) as Outcome['action'][];
  const heading = actions.map((action) => f.variant(action, () => o!.action === action, (attr) => `<h1 tabindex="-1"${attr}>${e(t(HEADING_KEYS[action]))}</h1>`)).join('');
  const when = actions
    .map((action) => f.variant(action, () => o!.action === action, (attr) => `<p class="big"${attr}>${tHtml(t, WHEN_KEYS[action], { time })}</p>`))
    .join('');
  const minutes = f.variant(
    'minutes',
    () => o!.action === 'checked_out' && o!.minutesAttended != null,
    (attr) => `<p${attr}>${tHtml(t, 'minutesAttended', { minutes: f.text('minutes', () => String(o!.minutesAttended)) })}</p>`,
  );
  const body =
    `<div class="result">${icon('check', 'ok')}${heading}<p class="lead">${f.text('course', () => o!.courseName)}</p>` +
    `<div class="box">${when}<p>${f.text('message', () => o!.message)}</p>${minutes}</div>` +
    f.variant('checked_in', () => o!.action === 'checked_in', (attr) => `<p class="small"${attr}>${e(t('leavingEarly'))}</p>`) +
    (breaks
      ? f.variant('checked_in break_ended', () => o!.action === 'checked_in' || o!.action === 'break_ended', (attr) =>
          breakForm(t, { action: breaks.action, details: null, askCode: false, alert: null }, { breaks: [], lunch: breaks.lunch }, attr),
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

// ---- A second scan (docs/decisions/039) ----

/** The Check out form: the typed details when this phone is not the one that checked in, the code when it holds no pass. */
export type CheckOutForm = {
  action: string;
  /** What the student just typed; null: the student is this device's (the server recognised it). */
  details: Partial<Record<DetailName, string>> | null;
  askCode: boolean;
  codeError?: string;
  /** A refusal of the check-out (translated), beside the button. */
  alert: string | null;
  /** Which form was refused (the alert and the code's error go beside it): the check-out (default) or a break punch. */
  refused?: 'check-out' | 'break';
};

/** A student's breaks at the meeting, formatted in the page's language. */
export type BreakLine = { kind: BreakKind; from: string; to: string | null };
export type BreakState = {
  /** Every break so far, in order; one without `to` is open (the student is on it now). */
  breaks: BreakLine[];
  /** Lunch out / Lunch in are offered (the meeting is long enough for the meal rule). */
  lunch: boolean;
  /** The answer of a break punch just made (translated), said at the top. */
  notice?: string | null;
};

const KIND_KEYS = { break: 'breakKindBreak', lunch: 'breakKindLunch', instructor: 'breakKindInstructor' } as const;
/** On a break now: its heading and its button (an instructor's break ends with Back from break, as the student's do). */
const ON_BREAK = {
  break: { heading: 'onBreakSince', hint: 'breakHint', intent: 'break-end', button: 'backFromBreak' },
  lunch: { heading: 'outForLunchSince', hint: 'breakHint', intent: 'lunch-in', button: 'lunchIn' },
  instructor: { heading: 'onClassBreakSince', hint: 'classBreakHint', intent: 'break-end', button: 'backFromBreak' },
} as const;

/** The punches so far: the check-in, then each break from and to (or not back yet). */
function punchList(t: StudentT, since: string, breaks: readonly BreakLine[]): string {
  if (breaks.length === 0) return '';
  const lines = breaks.map((b) => {
    const kind = t(KIND_KEYS[b.kind]);
    return `<li>${e(b.to ? t('punchSpan', { kind, from: b.from, to: b.to }) : t('punchOpen', { kind, from: b.from }))}</li>`;
  });
  return `<section class="punches" aria-labelledby="punches-title"><h2 id="punches-title">${e(t('punchesTitle'))}</h2><ul><li>${e(t('checkedInAt', { time: since }))}</li>${lines.join('')}</ul></section>`;
}

/**
 * The break buttons, one plain form (no script needed): each button sends its intent. Off a break:
 * Start a break (and Lunch out when offered); on one: the button that ends it. `attr` marks it as a
 * template's variant.
 */
function breakForm(t: StudentT, f: CheckOutForm, b: BreakState, attr = ''): string {
  const open = b.breaks.find((x) => x.to == null);
  const button = (intent: string, key: 'startBreak' | 'lunchOut' | 'backFromBreak' | 'lunchIn', alt: boolean) =>
    `<button type="submit" name="intent" value="${intent}"${alt ? ' class="alt"' : ''}>${e(t(key))}</button>`;
  const buttons = open
    ? button(ON_BREAK[open.kind].intent, ON_BREAK[open.kind].button, false)
    : button('break-start', 'startBreak', true) + (b.lunch ? button('lunch-out', 'lunchOut', true) : '');
  const refused = f.refused === 'break';
  return (
    `<form id="break-form" method="post" action="${e(f.action)}" aria-label="${e(t('breakButtons'))}" data-busy="${e(t('punching'))}"${attr}>` +
    (open ? '' : `<p class="small">${e(t('breaksHint'))}</p>`) +
    (f.details ? DETAIL_FIELDS.map((d) => hidden(d.name, f.details![d.name] ?? '')).join('') : '') +
    (f.askCode ? screenCodeField(t, refused ? f.codeError : undefined, 'break-code') : '') +
    (refused && f.alert ? `<p class="alert" role="alert">${e(f.alert)}</p>` : '') +
    `<div class="row">${buttons}</div></form>`
  );
}

/** What the phone's student has done and what leaving now would record, formatted in the page's language. */
export type CheckOutFacts = {
  courseName: string;
  /** The check-in's time of day. */
  since: string;
  /** The end of class, a time of day. */
  ends: string;
  /** What a check-out now records ("2 h 40 min"), by the server's own minutes rule. */
  records: string;
  scheduled: string;
  /** Before end − earlyLeaveThreshold: incomplete, and a confirmation is asked. */
  early: boolean;
};

const hidden = (name: string, value: string) => `<input type="hidden" name="${name}" value="${e(value)}">`;

/** A plain form (no script needed): intent=check-out, and confirm=yes on the confirmation. */
function checkOutForm(t: StudentT, f: CheckOutForm, confirm: boolean): string {
  const refused = f.refused !== 'break';
  return (
    `<form id="checkout-form" method="post" action="${e(f.action)}" aria-label="${e(t('checkOut'))}" data-busy="${e(t('checkingOut'))}">` +
    hidden('intent', 'check-out') +
    (confirm ? hidden('confirm', 'yes') : '') +
    (f.details ? DETAIL_FIELDS.map((d) => hidden(d.name, f.details![d.name] ?? '')).join('') : '') +
    (f.askCode ? screenCodeField(t, refused ? f.codeError : undefined) : '') +
    (refused && f.alert ? `<p class="alert" role="alert">${e(f.alert)}</p>` : '') +
    `<button type="submit">${e(t(confirm ? 'confirmCheckOut' : 'checkOut'))}</button></form>`
  );
}

const noticeOf = (b: BreakState) => (b.notice ? `<p class="notice" role="status">${e(b.notice)}</p>` : '');

/**
 * A checked-in student opening the class's QR again (this phone checked them in), or submitting the
 * form again, or after a break punch: "You are (already) checked in since 8:02", what leaving now
 * records, the punches so far, the break buttons and Check out. Nothing here punches by itself. On a
 * break: since when, and the one button that ends it (no Check out: docs/decisions/051).
 */
export function checkedInView(t: StudentT, c: CheckOutFacts, already: boolean, form: CheckOutForm, breaks: BreakState = { breaks: [], lunch: false }): ScanView {
  const open = breaks.breaks.find((b) => b.to == null);
  if (open) {
    const on = ON_BREAK[open.kind];
    const body =
      `<div class="result">${icon('clock', 'info')}<h1 tabindex="-1">${e(t(on.heading, { time: open.from }))}</h1><p class="lead">${e(c.courseName)}</p>` +
      `${noticeOf(breaks)}<div class="box"><p class="big">${e(t(on.hint))}</p><p>${e(t('notComingBack'))}</p></div></div>` +
      punchList(t, c.since, breaks.breaks) +
      breakForm(t, { ...form, refused: 'break' }, breaks);
    return { title: t(on.heading, { time: open.from }), body };
  }
  const body =
    `<div class="result">${icon('check', 'ok')}<h1 tabindex="-1">${e(t(already ? 'alreadyCheckedInSince' : 'checkedInSince', { time: c.since }))}</h1>` +
    `<p class="lead">${e(c.courseName)}</p>${noticeOf(breaks)}<div class="box"><p class="big">${e(t('classEndsRecords', { end: c.ends, duration: c.records }))}</p>` +
    `${already ? `<p>${e(t('scanAlreadyCheckedIn'))}</p>` : ''}</div><p class="small">${e(t('stayHint'))}</p></div>` +
    punchList(t, c.since, breaks.breaks) +
    breakForm(t, form, breaks) +
    (c.early ? `<p class="small">${e(t('leavingNowIncomplete'))}</p>` : '') +
    checkOutForm(t, form, false);
  return { title: t('checkedInTitle'), body };
}

/** Check out before the end of class? The second submit, with confirm, checks out; "Stay checked in" goes back. */
export function confirmCheckOutView(t: StudentT, c: CheckOutFacts, form: CheckOutForm, stayHref: string): ScanView {
  const body =
    `<div class="result">${icon('clock', 'warn')}<h1 tabindex="-1">${e(t('confirmCheckOutTitle'))}</h1><p class="lead">${e(c.courseName)}</p>` +
    `<div class="box warn"><p class="big">${e(t('confirmCheckOutText', { end: c.ends, duration: c.records, scheduled: c.scheduled }))}</p></div></div>` +
    checkOutForm(t, form, true) +
    `<a class="button" href="${e(stayHref)}">${e(t('stayCheckedIn'))}</a>`;
  return { title: t('confirmCheckOutTitle'), body };
}

/** This phone's student has checked out: when, the minutes and the punches; a mistake is the instructor's to undo. */
export function checkedOutView(
  t: StudentT,
  c: { courseName: string; at: string; minutes: number | null; since: string; breaks: readonly BreakLine[] },
  language: StudentLanguage,
): ScanView {
  const body =
    `<div class="result">${icon('logOut', 'info')}<h1 tabindex="-1">${e(t('checkedOutTitle'))}</h1><p class="lead">${e(c.courseName)}</p>` +
    `<div class="box"><p class="big">${e(t('checkedOutAt', { time: c.at }))}</p>` +
    `${c.minutes != null ? `<p>${e(t('minutesAttended', { minutes: String(c.minutes) }))}</p>` : ''}</div>` +
    `<p class="small">${e(t('checkedOutWrong'))}</p><p class="small"><strong>${e(t('closePage'))}</strong></p></div>` +
    punchList(t, c.since, c.breaks) +
    missedPunchLink(t, language);
  return { title: t('checkedOutTitle'), body };
}

/** Statuses a scan cannot change: the record says the student was not there (absent, excused). */
export const NOT_THERE = ATTENDANCE_STATUSES.filter((s) => !isAttendedStatus(s));

/** Not "Attendance Marked!": what the record says, and who can change it. Amber: nothing was marked. */
export function seeInstructorView(t: StudentT, o: Outcome | null): ScanView {
  const f = filler(o);
  const recorded = NOT_THERE.map((status) =>
    f.variant(status, () => o!.status === status, (attr) => `<p class="big"${attr}>${e(t('recordedAs', { status: statusLabel(t, status) }))}</p>`),
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
  const translated = language === 'en' ? '' : `<script type="application/json" id="scan-answers">${JSON.stringify(Object.fromEntries(answers)).replace(/</g, '\\u003c')}</script>`;
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

export type PageShell = { language: StudentLanguage; t: StudentT; switchHref: (language: StudentLanguage) => string; script: string | null; extras?: string };

/** The whole document: inline CSS, the language switch (a link: it works without script), the card, and the script last. */
export function scanDocument(view: ScanView, shell: PageShell): string {
  const { language, t } = shell;
  const languages = STUDENT_LANGUAGES.map((l) =>
    l === language
      ? `<span aria-current="true" lang="${l}">${e(LANGUAGE_NAMES[l])}</span>`
      : `<a href="${e(shell.switchHref(l))}" lang="${l}" hreflang="${l}">${e(LANGUAGE_NAMES[l])}</a>`,
  ).join('');
  return (
    `<!doctype html><html lang="${language}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<meta name="theme-color" content="#0f172a"><meta name="robots" content="noindex"><link rel="icon" href="${FAVICON}"><title>${e(view.title)} · Muster</title>` +
    `<style>${CSS}</style>${shell.script ? `<script type="module" src="${e(shell.script)}"></script>` : ''}</head>` +
    `<body><main><header><p class="brand"><svg aria-hidden="true" viewBox="0 0 32 32">${LOGO}</svg>Muster</p><nav aria-label="${e(t('language'))}">${languages}</nav></header>` +
    `<div class="card" id="scan-card">${view.body}</div></main>${shell.script ? (shell.extras ?? '') : ''}</body></html>`
  );
}
