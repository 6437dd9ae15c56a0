// A second scan (docs/decisions/039, 051): checked in, on a break, leaving early, checked out, with the break and check-out forms.
import type { BreakKind } from '../../../common/attendance.ts';
import type { StudentLanguage } from '../../../common/student-texts.ts';
import { escapeHtml as e } from '../../lib/html.ts';
import type { StudentT } from '../../lib/student-i18n.ts';
import { DETAIL_FIELDS, hidden, icon, missedPunchLink, screenCodeField, type DetailName, type ScanView } from './page-shell.ts';

/** The Check out form: the typed details when this phone is not the one that checked in, the code when it holds no pass. */
type CheckOutForm = {
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
type BreakState = {
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
export function breakForm(t: StudentT, f: CheckOutForm, b: BreakState, attr = ''): string {
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
export function checkedInView(
  t: StudentT,
  c: CheckOutFacts,
  already: boolean,
  form: CheckOutForm,
  breaks: BreakState = { breaks: [], lunch: false },
): ScanView {
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
