import type { MissedPunchT, MissedPunchTextKey } from '../../../common/missed-punch-texts.ts';
import { MISSED_PUNCH_REASON_MAX } from '../../../common/missed-punches.ts';
import type { StudentHoursView } from '../../../common/my-hours.ts';
import { LANGUAGE_NAMES, STUDENT_LANGUAGES, STUDENT_LOCALES, type StudentLanguage } from '../../../common/student-texts.ts';
import { escapeHtml as e } from '../../lib/html.ts';
import type { StudentT } from '../../lib/student-i18n.ts';
import type { FilingProblem, MissedMeeting } from '../missed-punches/service.ts';

/**
 * The student's hours pages, rendered on the server: plain HTML and a little CSS, no script, so
 * they open fast on a cheap phone and work in any browser a mail program hands the link to.
 */

const CSS = `
*{box-sizing:border-box}body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#0f172a;background:#f8fafc}
main{max-width:34rem;margin:0 auto;padding:1.25rem 1rem 3rem}h1{font-size:1.5rem;margin:.5rem 0 1rem}h2{font-size:1.125rem;margin:0 0 .5rem}
.card{background:#fff;border:1px solid #e2e8f0;border-radius:12px;padding:1rem 1.125rem;margin:0 0 1rem}
.brand{font-weight:700;color:#1d4ed8;margin:0}.muted{color:#475569;font-size:.9375rem}
nav{display:flex;gap:.75rem;justify-content:flex-end;font-size:.9375rem}nav a,nav span{padding:.5rem .25rem;min-height:44px;display:inline-flex;align-items:center}
a{color:#1d4ed8}label{display:block;font-weight:600;margin:.75rem 0 .25rem}
input,textarea{width:100%;font:inherit;padding:.625rem .75rem;min-height:44px;border:1px solid #64748b;border-radius:8px}
input[aria-invalid=true],textarea[aria-invalid=true]{border-color:#b91c1c}.error{color:#b91c1c;font-size:.9375rem;margin:.25rem 0 0}
button,.button{display:inline-flex;align-items:center;justify-content:center;min-height:44px;margin-top:1rem;padding:.625rem 1rem;border:0;border-radius:8px;background:#1d4ed8;color:#fff;font:inherit;font-weight:600;text-decoration:none}
.figures{display:grid;grid-template-columns:repeat(3,1fr);gap:.5rem;margin:0}.figures div{background:#f1f5f9;border-radius:8px;padding:.5rem}
.figures dt{font-size:.8125rem;color:#475569}.figures dd{margin:0;font-size:1.25rem;font-weight:700}
progress{width:100%;height:.75rem}table{width:100%;border-collapse:collapse;font-size:.9375rem}
th,td{text-align:left;padding:.375rem .25rem;border-bottom:1px solid #e2e8f0}td.n,th.n{text-align:right}
:focus-visible{outline:3px solid #1d4ed8;outline-offset:2px}
`;

type PageOptions = { language: StudentLanguage; t: StudentT; title: string; body: string; switchHref: (lang: StudentLanguage) => string };

export function studentPage({ language, t, title, body, switchHref }: PageOptions): string {
  const others = STUDENT_LANGUAGES.map((l) =>
    l === language
      ? `<span aria-current="true" lang="${l}">${e(LANGUAGE_NAMES[l])}</span>`
      : `<a href="${e(switchHref(l))}" lang="${l}" hreflang="${l}">${e(LANGUAGE_NAMES[l])}</a>`,
  ).join('');
  return `<!doctype html><html lang="${language}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${e(title)} · Muster</title><style>${CSS}</style></head><body><main><nav aria-label="${e(t('language'))}">${others}</nav><p class="brand">Muster</p><h1>${e(title)}</h1>${body}</main></body></html>`;
}

type FormValues = { studentId?: string; email?: string };
export type FormErrors = Partial<Record<'studentId' | 'email', string>>;

/** The "E-mail me my hours" form, posting to /my-hours. */
export function requestForm(t: StudentT, language: StudentLanguage, values: FormValues = {}, errors: FormErrors = {}): string {
  const field = (name: 'studentId' | 'email', label: string, type: string, autocomplete: string) => {
    const err = errors[name];
    return `<label for="${name}">${e(label)}</label><input id="${name}" name="${name}" type="${type}" autocomplete="${autocomplete}" required maxlength="${name === 'email' ? 254 : 100}" value="${e(values[name] ?? '')}"${err ? ` aria-invalid="true" aria-describedby="${name}-error"` : ''}>${err ? `<p class="error" id="${name}-error">${e(err)}</p>` : ''}`;
  };
  const summary = Object.keys(errors).length > 0 ? `<p class="error" role="alert">${e(t('fixErrors'))}</p>` : '';
  return `<div class="card"><p class="muted">${e(t('requestIntro'))}</p>${summary}<form method="post" action="/my-hours"><input type="hidden" name="language" value="${language}">${field('studentId', t('studentIdLabel'), 'text', 'off')}${field('email', t('emailLabel'), 'email', 'email')}<button type="submit">${e(t('send'))}</button></form></div>`;
}

const hours = (minutes: number, language: StudentLanguage) =>
  new Intl.NumberFormat(language === 'es' ? 'es-US' : 'en-US', { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(minutes / 60);
const date = (d: string, language: StudentLanguage, long = false) =>
  new Intl.DateTimeFormat(language === 'es' ? 'es-US' : 'en-US', {
    timeZone: 'UTC',
    weekday: long ? 'long' : 'short',
    month: long ? 'long' : 'short',
    day: 'numeric',
    ...(long ? { year: 'numeric' } : {}),
  }).format(new Date(`${d}T00:00:00Z`));

function dayNote(d: StudentHoursView['days'][number], t: StudentT): string {
  const notes: string[] = [];
  if (d.excusedMinutes > 0) notes.push(t('noteExcused'));
  if (d.makeUpMinutes > 0) notes.push(t('noteMakeUp'));
  if (d.scheduledMinutes > 0 && d.attendedMinutes === 0 && d.excusedMinutes === 0) notes.push(t('noteAbsent'));
  else if (d.attendedMinutes > 0 && d.attendedMinutes + d.excusedMinutes < d.scheduledMinutes) notes.push(t('notePartly'));
  return notes.join(' · ');
}

/**
 * The read-only hours page: totals, the current payment period, excused time, make-up, the last 30
 * days, and the way to the missed-punch page (`missedPunch`: its address and the link's words).
 */
export function hoursBody(v: StudentHoursView, t: StudentT, language: StudentLanguage, missedPunch?: { href: string; text: string }): string {
  const h = (m: number) => hours(m, language);
  const { totals } = v;
  const p = v.currentPaymentPeriod;
  const size = p ? Math.round((p.endHours - p.startHours) * 60) : 0;
  const progress = p ? t('periodProgress', { number: p.number, done: h(Math.min(p.creditedMinutes, size)), end: h(size) }) : '';
  const period = p
    ? `<p>${e(progress)}</p><progress max="${size}" value="${Math.min(p.creditedMinutes, size)}" aria-label="${e(progress)}"></progress><p class="muted">${e(t('periodRemaining', { hours: h(p.hoursRemaining * 60) }))}${p.weeksEndOn ? ` · ${e(t('periodWeeksEnd', { date: date(p.weeksEndOn, language, true) }))}` : ''}</p>`
    : `<p class="muted">${e(t('periodNone'))}</p>`;
  const excused = [
    p ? `<p>${e(t('excusedUsed', { used: h(p.excusedCreditedMinutes), cap: h(p.excusedCapMinutes) }))}</p>` : '',
    `<p class="muted">${e(t('excusedTotal', { hours: h(totals.excusedMinutes) }))}</p>`,
    totals.excusedUncreditedMinutes > 0 ? `<p>${e(t('excusedOver', { hours: h(totals.excusedUncreditedMinutes) }))}</p>` : '',
  ].join('');
  const makeUp = [
    `<p><strong>${e(v.makeUpOwedMinutes > 0 ? t('makeUpOwed', { hours: h(v.makeUpOwedMinutes) }) : t('makeUpNone'))}</strong></p>`,
    totals.makeUpMinutes > 0 ? `<p class="muted">${e(t('makeUpDone', { hours: h(totals.makeUpMinutes) }))}</p>` : '',
    v.makeUpOwedMinutes > 0 ? `<p class="muted">${e(t('makeUpHow'))}</p>` : '',
  ].join('');
  const days =
    v.days.length === 0
      ? `<p class="muted">${e(t('lastDaysNone'))}</p>`
      : `<table><thead><tr><th scope="col">${e(t('colDate'))}</th><th scope="col" class="n">${e(t('colScheduled'))}</th><th scope="col" class="n">${e(t('colEarned'))}</th><th scope="col">${e(t('colNote'))}</th></tr></thead><tbody>${v.days
          .map(
            (d) =>
              `<tr><td>${e(date(d.date, language))}</td><td class="n">${h(d.scheduledMinutes)}</td><td class="n">${h(d.creditedMinutes)}</td><td>${e(dayNote(d, t))}</td></tr>`,
          )
          .join('')}</tbody></table>`;
  const name = `${v.firstName} ${v.lastName}`;
  return [
    `<p><strong>${e(t('hoursOf', { name }))}</strong><br><span class="muted">${e(v.programName ? t('program', { program: v.programName }) : t('noProgram'))}</span></p>`,
    `<div class="card"><dl class="figures"><div><dt>${e(t('earned'))}</dt><dd>${h(totals.creditedMinutes)}</dd></div><div><dt>${e(t('scheduled'))}</dt><dd>${h(totals.scheduledMinutes)}</dd></div><div><dt>${e(t('attendanceRate'))}</dt><dd>${v.attendancePercent == null ? '—' : `${v.attendancePercent}%`}</dd></div></dl><p class="muted">${e(t('earnedHelp'))}</p></div>`,
    `<section class="card" aria-labelledby="period"><h2 id="period">${e(t('periodTitle'))}</h2>${period}</section>`,
    `<section class="card" aria-labelledby="excused"><h2 id="excused">${e(t('excusedTitle'))}</h2>${excused}</section>`,
    `<section class="card" aria-labelledby="makeup"><h2 id="makeup">${e(t('makeUpTitle'))}</h2>${makeUp}</section>`,
    `<section class="card" aria-labelledby="days"><h2 id="days">${e(t('lastDaysTitle'))}</h2>${days}</section>`,
    missedPunch ? `<p><a href="${e(missedPunch.href)}">${e(missedPunch.text)}</a></p>` : '',
    `<p class="muted">${e(t('asOf', { date: date(v.asOf, language, true) }))}</p>`,
  ].join('');
}

// ---- "Forgot to check in or out?" (decision 053): the meetings with a punch missing, a form each ----

const wallClock = (hhmm: string, language: StudentLanguage) => {
  const [h = 0, m = 0] = hhmm.split(':').map(Number);
  return new Intl.DateTimeFormat(STUDENT_LOCALES[language], { hour: 'numeric', minute: '2-digit', timeZone: 'UTC' }).format(Date.UTC(2000, 0, 1, h, m));
};
const timeOfDay = (instant: Date, language: StudentLanguage, timeZone: string) =>
  new Intl.DateTimeFormat(STUDENT_LOCALES[language], { hour: 'numeric', minute: '2-digit', timeZone }).format(instant);

/** What the page says above the meetings, after a post. */
export type MissedPunchNotice = 'sent' | 'alreadyAsked' | 'notAvailable';

/** The form that was posted and refused, to show again with what was typed. */
export type MissedPunchRefusal = {
  scheduleId: number;
  sessionDate: string;
  problems: FilingProblem[];
  values: { checkIn: string; checkOut: string; reason: string };
};

type MissedPunchPageOptions = {
  language: StudentLanguage;
  timeZone: string;
  /** Where the forms post. */
  action: string;
  intro: 'introLink' | 'introDevice';
  /** The device page names whose check-in each meeting is (a phone may have checked in more than one student). */
  showStudent: boolean;
  notice?: MissedPunchNotice | null;
  refusal?: MissedPunchRefusal | null;
  /** Below the meetings: a way back, or a word on what the page covers. */
  footer: string;
};

function problemText(mt: MissedPunchT, p: FilingProblem, language: StudentLanguage, timeZone: string): string {
  switch (p.code) {
    case 'required':
      return mt(p.field === 'checkIn' ? 'checkInRequired' : p.field === 'checkOut' ? 'checkOutRequired' : 'reasonRequired');
    case 'invalid':
      return mt('timeInvalid');
    case 'too_long':
      return mt('reasonTooLong');
    case 'outside_class':
      return mt('outsideClass', { start: wallClock(p.start, language), end: wallClock(p.end, language) });
    case 'before_check_in':
      return mt('beforeCheckIn', { time: timeOfDay(p.after, language, timeZone) });
  }
}

const NOTICE_KEYS: Record<MissedPunchNotice, MissedPunchTextKey> = { sent: 'sent', alreadyAsked: 'alreadyAsked', notAvailable: 'notAvailable' };

/** The meetings with a punch missing, each with its form (or the note that a request waits), plain HTML posting `action`. */
export function missedPunchBody(mt: MissedPunchT, meetings: readonly MissedMeeting[], o: MissedPunchPageOptions): string {
  const { language, timeZone } = o;
  const notice = o.notice ? `<div class="card"><p role="${o.notice === 'sent' ? 'status' : 'alert'}">${e(mt(NOTICE_KEYS[o.notice]))}</p></div>` : '';
  const list =
    meetings.length === 0
      ? `<div class="card"><p>${e(mt('none'))}</p></div>`
      : meetings
          .map((m, i) => {
            const refusal = o.refusal && o.refusal.scheduleId === m.scheduleId && o.refusal.sessionDate === m.sessionDate ? o.refusal : null;
            const errors = new Map((refusal?.problems ?? []).map((p) => [p.field, problemText(mt, p, language, timeZone)] as const));
            const id = (name: string) => `m${i}-${name}`;
            const describedBy = (name: string, hint: boolean) => {
              const ids = [hint ? id(`${name}-hint`) : '', errors.has(name as FilingProblem['field']) ? id(`${name}-error`) : ''].filter(Boolean).join(' ');
              return `${ids ? ` aria-describedby="${ids}"` : ''}${errors.has(name as FilingProblem['field']) ? ' aria-invalid="true"' : ''}`;
            };
            const error = (name: FilingProblem['field']) =>
              errors.has(name) ? `<p class="error" id="${id(`${name}-error`)}">${e(errors.get(name)!)}</p>` : '';
            const time = (name: 'checkIn' | 'checkOut') =>
              `<label for="${id(name)}">${e(mt(name === 'checkIn' ? 'checkInLabel' : 'checkOutLabel'))}</label><p class="muted" id="${id(`${name}-hint`)}">${e(mt('timeHint'))}</p>` +
              `<input id="${id(name)}" name="${name}" type="time" required value="${e(refusal?.values[name] ?? '')}"${describedBy(name, true)}>${error(name)}`;
            const form =
              (m.declinedReason ? `<p class="muted">${e(mt('declinedBefore', { reason: m.declinedReason }))}</p>` : '') +
              (refusal ? `<p class="error" role="alert">${e(mt('fixErrors'))}</p>` : '') +
              `<form method="post" action="${e(o.action)}"><input type="hidden" name="scheduleId" value="${m.scheduleId}"><input type="hidden" name="sessionDate" value="${e(m.sessionDate)}"><input type="hidden" name="language" value="${language}">` +
              (m.missing === 'check_in' ? time('checkIn') : '') +
              time('checkOut') +
              `<label for="${id('reason')}">${e(mt('reasonLabel'))}</label><textarea id="${id('reason')}" name="reason" rows="3" required maxlength="${MISSED_PUNCH_REASON_MAX}"${describedBy('reason', false)}>${e(refusal?.values.reason ?? '')}</textarea>${error('reason')}` +
              `<button type="submit">${e(mt('send'))}</button></form>`;
            const date = new Intl.DateTimeFormat(STUDENT_LOCALES[language], { timeZone: 'UTC', weekday: 'long', month: 'long', day: 'numeric' }).format(
              new Date(`${m.sessionDate}T00:00:00Z`),
            );
            const missing = `${e(mt(m.missing === 'check_out' ? 'missingCheckOut' : 'missingCheckIn'))}${m.checkedInAt ? ` · ${e(mt('checkedInAt', { time: timeOfDay(m.checkedInAt, language, timeZone) }))}` : ''}`;
            return (
              `<section class="card" aria-labelledby="${id('title')}"><h2 id="${id('title')}">${e(mt('meetingOf', { course: m.courseName, date }))}</h2>` +
              `<p class="muted">${e(mt('classTimes', { start: wallClock(m.startTime, language), end: wallClock(m.endTime, language) }))}${o.showStudent ? `<br>${e(mt('forStudent', { name: m.firstName }))}` : ''}</p>` +
              `<p><strong>${missing}</strong></p>` +
              (m.pending ? `<p role="status">${e(mt('alreadyAsked'))}</p>` : form) +
              `</section>`
            );
          })
          .join('');
  return `${notice}<p class="muted">${e(mt(o.intro))}</p>${list}${o.footer}`;
}
