import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  breakPunchSchema,
  scanDevicePunchFormSchema,
  scanFormSchema,
  typedCodeSchema,
  type AttendanceSubmitResult,
  type BreakPunch,
  type ScanIntent,
} from '../../../common/attendance.ts';
import { isAttendedStatus } from '../../../common/constants.ts';
import { formatCountdown } from '../../../common/countdown.ts';
import type { PublicSessionAnswer } from '../../../common/qr-sessions.ts';
import type { Settings } from '../../../common/settings.ts';
import { STUDENT_LANGUAGES, STUDENT_LOCALES, type StudentLanguage } from '../../../common/student-texts.ts';
import type { Db } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import { AppError } from '../../lib/errors.ts';
import { checkInAnswers, pickStudentLanguage, studentT, translateAnswer, type StudentT } from '../../lib/student-i18n.ts';
import { validationFieldErrors } from '../../plugins/error-handler.ts';
import { checkInFromBrowser, checkOutPreview, deviceStanding, lunchPunchesOffered, type DeviceStanding } from '../attendance/service.ts';
import { SCAN_PAGES_PATH, checkInDevice, passFromCookie, publicSession, sessionForTypedCode, setPassCookie } from '../qr-sessions/service.ts';
import { getSettings } from '../settings/service.ts';
import {
  DETAIL_FIELDS,
  checkedInView,
  checkedOutView,
  codeEntryView,
  confirmCheckOutView,
  endedView,
  expiredView,
  formView,
  notFoundView,
  refusalView,
  scanDocument,
  scriptExtras,
  seeInstructorView,
  successView,
  type BreakLine,
  type CheckOutFacts,
  type DetailName,
  type FormErrors,
  type FormState,
  type Outcome,
  type ScanView,
} from './pages.ts';

export { PUBLIC_RATE_LIMIT, TYPED_CODE_RATE_LIMIT } from '../qr-sessions/service.ts';

/**
 * The public scan pages (issue 16, docs/decisions/028): /attendance/scan/{sessionId} and the
 * typed-code page /attendance/scan, rendered on the server, their forms answered with whole pages.
 * Every rule is the JSON routes' own: the session read and the typed code are qr-sessions', the
 * check-in is attendance's (the same function POST /api/attendance/submit calls).
 */

export type ScanDeps = {
  db: Db;
  clock: Clock;
  /** COOKIE_SECURE; unset: secure cookies when the request came over HTTPS. */
  cookieSecure: boolean | undefined;
  /** The built script that enhances the pages (web/scan/enhance.ts), null when there is no build. */
  script: string | null;
};

/** A browser's request to a scan page, and the language the page speaks to it. */
export type Visit = { req: FastifyRequest; reply: FastifyReply; language: StudentLanguage; t: StudentT; chosenLanguage: boolean };

export type ScanAnswer = { status: number; html: string } | { redirect: string };

/** The page's language: the switch (`?lang=`), else the browser's Accept-Language, else English. */
export function visitOf(req: FastifyRequest, reply: FastifyReply): Visit {
  const chosen = (req.query as { lang?: unknown } | undefined)?.lang;
  const language = pickStudentLanguage(chosen, req.headers['accept-language']);
  return { req, reply, language, t: studentT(language), chosenLanguage: (STUDENT_LANGUAGES as readonly unknown[]).includes(chosen) };
}

const secure = (deps: ScanDeps, req: FastifyRequest) => deps.cookieSecure ?? req.protocol === 'https';
/** A scan page's address, keeping a language the student chose. */
const address = (path: string, v: Visit) => (v.chosenLanguage ? `${path}?lang=${v.language}` : path);
const sessionPath = (sessionId: string) => `${SCAN_PAGES_PATH}/${encodeURIComponent(sessionId)}`;

function page(deps: ScanDeps, v: Visit, status: number, view: ScanView, path: string, extras?: string): ScanAnswer {
  return { status, html: scanDocument(view, { language: v.language, t: v.t, switchHref: (l) => `${path}?lang=${l}`, script: deps.script, extras }) };
}

// ---- Formatting in the page's language ----

const wallClock = (hhmm: string, locale: string) => {
  const [h = 0, m = 0] = hhmm.split(':').map(Number);
  return new Intl.DateTimeFormat(locale, { hour: 'numeric', minute: '2-digit', timeZone: 'UTC' }).format(Date.UTC(2000, 0, 1, h, m));
};
const longDate = (date: string, locale: string) =>
  new Intl.DateTimeFormat(locale, { weekday: 'long', month: 'long', day: 'numeric', timeZone: 'UTC' }).format(Date.parse(`${date}T00:00:00Z`));
const timeOfDay = (instant: Date, locale: string, timeZone: string) => new Intl.DateTimeFormat(locale, { hour: 'numeric', minute: '2-digit', timeZone }).format(instant);

// ---- /attendance/scan/{sessionId} ----

type FormInput = Omit<FormState, 'askCode' | 'passEndsInMs'> & { askCode?: boolean };
const EMPTY_FORM: FormInput = { values: {}, errors: {}, alert: null };
type Details = Record<DetailName, string>;

/**
 * What the page shows (docs/decisions/039, 051). `open`: a phone opening the link; the form, unless
 * this device checked a student in at this meeting (then what they can do: breaks, check out, or
 * that they did); `alert` goes on the form. `form`: the check-in form again, with what was typed.
 * `checked-in`: a check-in again (`already`), a break punch (`notice`: its answer), or a punch
 * refused (`refused`: which form); `confirm`: a check-out before the end of class, to confirm. The
 * details are what the student typed, or null for the device's student; `breaks` the record's.
 */
type Ask =
  | { kind: 'open'; alert?: string }
  | { kind: 'form'; form: FormInput }
  | {
      kind: 'checked-in';
      scanInTime: Date;
      breaks: readonly BreakPunch[];
      already: boolean;
      details: Details | null;
      notice?: string;
      alert?: string | null;
      refused?: 'check-out' | 'break';
      askCode?: boolean;
      codeError?: string;
    }
  | { kind: 'confirm'; scanInTime: Date; breaks: readonly BreakPunch[]; details: Details | null; askCode?: boolean };

/** Minutes as the roster writes them ("2 h 40 min"), in the page's language. */
function duration(t: StudentT, minutes: number): string {
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  if (hours === 0) return t('durationMinutes', { minutes: rest });
  return rest === 0 ? t('durationHours', { hours }) : t('durationHoursMinutes', { hours, minutes: rest });
}

/**
 * The form, or Session Not Found / Session Ended / Session Expired: what the scan page's script used to fetch
 * (GET /api/qr-sessions/public/{id}), read here with the same checks. A fresh QR token gives this
 * phone its pass, as a cookie; without one, a pass the phone holds still counts, else the code on
 * the screen is asked. A phone whose device checked its student in here is told so, with Check out.
 */
async function sessionPage(deps: ScanDeps, v: Visit, sessionId: string, token: string | undefined, ask: Ask, status = 200): Promise<ScanAnswer> {
  const path = sessionPath(sessionId);
  const now = deps.clock.now();
  const device = checkInDevice(v.req, v.reply, secure(deps, v.req));
  let session: PublicSessionAnswer;
  let attendance: Settings['attendance'];
  let standing: DeviceStanding | null;
  try {
    [session, { attendance }, standing] = await Promise.all([
      publicSession(deps.db, sessionId, token, device.id, now, passFromCookie(v.req, sessionId)),
      getSettings(deps.db),
      // A device the server gave just now has checked nobody in.
      ask.kind === 'open' && device.presented ? deviceStanding(deps.db, sessionId, device.id) : null,
    ]);
  } catch (err) {
    if (err instanceof AppError && err.statusCode === 404) return page(deps, v, 404, notFoundView(v.t), path);
    throw err;
  }
  const { timeZone } = attendance;
  const endsInMs = Date.parse(session.expiresAt) - now.getTime();
  if (session.closed === 'ended') return page(deps, v, 410, endedView(v.t, session.courseName), path);
  if (session.status === 'expired' || endsInMs <= 0) return page(deps, v, 410, expiredView(v.t, session.courseName), path);
  setPassCookie(v.reply, secure(deps, v.req), session.sessionId, session.pass, session.passExpiresAt);

  const locale = STUDENT_LOCALES[v.language];
  const time = (at: Date | string) => timeOfDay(new Date(at), locale, timeZone);
  const breakLines = (breaks: readonly BreakPunch[]): BreakLine[] => breaks.map((b) => ({ kind: b.kind, from: time(b.startedAt), to: b.endedAt ? time(b.endedAt) : null }));
  if (standing?.scanOutTime) {
    const out = { courseName: session.courseName, at: time(standing.scanOutTime), minutes: standing.minutesAttended, since: time(standing.scanInTime), breaks: breakLines(standing.breaks) };
    return page(deps, v, status, checkedOutView(v.t, out, v.language), path);
  }
  if (standing) ask = { kind: 'checked-in', scanInTime: standing.scanInTime, breaks: standing.breaks, already: false, details: null };
  // Lunch out / Lunch in: on a checked-in student's page, and on the success page a check-in leads to (the script's template).
  const lunch = ask.kind === 'checked-in' || (ask.kind !== 'confirm' && deps.script != null) ? await lunchPunchesOffered(deps.db, sessionId, timeZone) : false;
  if (ask.kind === 'checked-in' || ask.kind === 'confirm') {
    // What leaving now records: the check-out's own rules (attendance's checkOutPreview), on the server's clock.
    const preview = checkOutPreview(ask.scanInTime, session, attendance, now, ask.breaks);
    const facts: CheckOutFacts = {
      courseName: session.courseName,
      since: timeOfDay(ask.scanInTime, locale, timeZone),
      ends: timeOfDay(preview.classEndsAt, locale, timeZone),
      records: duration(v.t, preview.minutesIfNow),
      scheduled: duration(v.t, preview.scheduledMinutes),
      early: preview.early,
    };
    const form = {
      action: address(path, v),
      details: ask.details,
      askCode: ask.askCode === true || !session.pass,
      codeError: ask.kind === 'checked-in' ? ask.codeError : undefined,
      alert: ask.kind === 'checked-in' ? (ask.alert ?? null) : null,
      refused: ask.kind === 'checked-in' ? ask.refused : undefined,
    };
    const view =
      ask.kind === 'confirm'
        ? confirmCheckOutView(v.t, facts, form, address(path, v))
        : checkedInView(v.t, facts, ask.already, form, { breaks: breakLines(ask.breaks), lunch, notice: ask.notice ?? null });
    return page(deps, v, status, view, path);
  }
  const input = ask.kind === 'form' ? ask.form : ask.alert ? { ...EMPTY_FORM, alert: ask.alert } : EMPTY_FORM;
  const facts = {
    sessionId: session.sessionId,
    courseName: session.courseName,
    courseCode: session.courseCode,
    roomNumber: session.roomNumber,
    date: longDate(session.sessionDate, locale),
    starts: v.t('startsUntil', { start: wallClock(session.startTime, locale), end: wallClock(session.endTime, locale) }),
    endsInMs,
  };
  const state: FormState = {
    ...input,
    askCode: input.askCode === true || !session.pass,
    passEndsInMs: session.passExpiresAt ? Date.parse(session.passExpiresAt) - now.getTime() : null,
  };
  const target = { action: address(path, v), locale, timeZone };
  const hoursAction = '/my-hours';
  const extras = scriptExtras(v.t, v.language, session.courseName, hoursAction, checkInAnswers(v.language), { action: address(path, v), lunch });
  return page(deps, v, status, formView(v.t, facts, state, target, formatCountdown(endsInMs)), path, extras);
}

/** GET /attendance/scan/{sessionId}?t=…: the page a QR code opens. */
export const openScanPage = (deps: ScanDeps, v: Visit, sessionId: string, token: string | undefined) => sessionPage(deps, v, sessionId, token, { kind: 'open' });

/** The form fields the schema refused, each named by its label in the page's language. */
function fieldErrors(t: StudentT, issues: readonly { path: PropertyKey[]; code: string }[], body: Record<string, unknown>): FormErrors {
  const labels: Record<string, string> = { ...Object.fromEntries(DETAIL_FIELDS.map((f) => [f.name, t(f.key)])), code: t('screenCodeLabel') };
  const errors: FormErrors = {};
  for (const issue of issues) {
    const name = String(issue.path[0] ?? '') as DetailName | 'code';
    if (!(name in labels) || errors[name]) continue;
    const missing = issue.code === 'too_small' || body[name] === undefined;
    errors[name] = t(missing ? 'fieldRequired' : issue.code === 'too_big' ? 'fieldTooLong' : 'fieldInvalid', { field: labels[name]! });
  }
  return errors;
}

const formText = (body: Record<string, unknown>, name: string) => (typeof body[name] === 'string' ? (body[name] as string) : '');

/**
 * POST /attendance/scan/{sessionId}: the form without script. The fields are checked by the JSON
 * API's own schema, the check-in is the JSON route's (attendance's checkInFromBrowser: the device
 * cookie, the pass cookie), and its answer comes back as a page: Attendance Marked! (or See your
 * instructor), Session Not Found, Session Expired, or the form again with SPEC §8's message.
 */
export async function submitScanForm(deps: ScanDeps, v: Visit, sessionId: string, rawBody: unknown): Promise<ScanAnswer> {
  const body = (typeof rawBody === 'object' && rawBody !== null ? rawBody : {}) as Record<string, unknown>;
  const values = Object.fromEntries(DETAIL_FIELDS.map((f) => [f.name, formText(body, f.name)])) as Details;
  // The Check out and break buttons of a phone the server recognised carry no details: the student is the device's.
  const byDevice = scanDevicePunchFormSchema.shape.intent.safeParse(body.intent).success && DETAIL_FIELDS.every((f) => body[f.name] === undefined);
  if (byDevice) return punchByDevice(deps, v, sessionId, body);
  const parsed = scanFormSchema.safeParse(body);
  if (!parsed.success) {
    const errors = fieldErrors(v.t, parsed.error.issues, body);
    return sessionPage(deps, v, sessionId, undefined, { kind: 'form', form: { values, errors, alert: null, askCode: 'code' in errors } }, 400);
  }
  const { code, confirm, ...details } = parsed.data;
  return checkInOrOut(deps, v, sessionId, { ...details, code, confirm: confirm === 'yes' }, null);
}

const refusedForm = (intent: ScanIntent | undefined) => (intent === 'check-out' ? 'check-out' : 'break');

/**
 * Check out, or punch a break for, the student this device checked in at the session's meeting (the
 * forms of checkedInView and of the success page, opened on this phone).
 */
async function punchByDevice(deps: ScanDeps, v: Visit, sessionId: string, body: Record<string, unknown>): Promise<ScanAnswer> {
  const parsed = scanDevicePunchFormSchema.safeParse(body);
  const intent = scanDevicePunchFormSchema.shape.intent.parse(body.intent);
  const device = checkInDevice(v.req, v.reply, secure(deps, v.req));
  const standing = device.presented ? await deviceStanding(deps.db, sessionId, device.id) : null;
  if (!standing) {
    // The page was for another device (or the record changed since): the form, saying why.
    const alert = v.t(intent === 'check-out' ? 'scanNotCheckedIn' : 'scanBreakNotCheckedIn');
    return sessionPage(deps, v, sessionId, undefined, { kind: 'form', form: { ...EMPTY_FORM, alert } }, 409);
  }
  if (!parsed.success) {
    const askCode = { kind: 'checked-in', scanInTime: standing.scanInTime, breaks: standing.breaks, already: false, details: null, askCode: true, refused: refusedForm(intent) } as const;
    return sessionPage(deps, v, sessionId, undefined, { ...askCode, codeError: v.t('fieldInvalid', { field: v.t('screenCodeLabel') }) }, 400);
  }
  const { student } = standing;
  const details = { studentId: String(student.id), firstName: student.firstName, lastName: student.lastName, email: student.email ?? '' };
  return checkInOrOut(deps, v, sessionId, { ...details, intent, code: parsed.data.code, confirm: parsed.data.confirm === 'yes' }, standing);
}

type Submitted = Details & { intent?: ScanIntent; code?: string; confirm: boolean };

/** The breaks a refusal of a punch carries (the record as it stood under its lock), when it does. */
function refusedBreaks(details: Record<string, unknown> | undefined): BreakPunch[] | null {
  const parsed = breakPunchSchema.array().safeParse(details?.breaks);
  return parsed.success ? parsed.data : null;
}

/**
 * A check-in, check-out or break punch through attendance's checkInFromBrowser, its answer as a page.
 * `byDevice`: the punch is the device's student's (no details typed), standing so when the page read it.
 */
async function checkInOrOut(deps: ScanDeps, v: Visit, sessionId: string, sent: Submitted, byDevice: DeviceStanding | null): Promise<ScanAnswer> {
  const { code, confirm, intent, ...details } = sent;
  // Typed details go back in the punch forms; the device's student's are never written into the page.
  const typed = byDevice ? null : details;
  const values = byDevice ? {} : details;
  let result: AttendanceSubmitResult;
  try {
    result = await checkInFromBrowser({ db: deps.db, clock: deps.clock, secureCookies: secure(deps, v.req) }, v.req, v.reply, {
      sessionId,
      ...details,
      ...(intent ? { intent } : {}),
      ...(confirm ? { confirm: true } : {}),
      ...(code ? { token: code.replace(/\s+/g, '') } : {}),
    });
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    if (err.statusCode === 404) return page(deps, v, 404, notFoundView(v.t), sessionPath(sessionId));
    if (err.statusCode === 410) return sessionPage(deps, v, sessionId, undefined, { kind: 'form', form: EMPTY_FORM }, 410);
    retryAfter(v, err);
    const alert = translateAnswer(v.language, err.message);
    const scanIn = typeof err.details?.scanInTime === 'string' ? new Date(err.details.scanInTime) : (byDevice?.scanInTime ?? null);
    const breaks = refusedBreaks(err.details) ?? byDevice?.breaks ?? [];
    // Leaving early: asked once more, nothing written yet.
    if (err.code === 'CONFIRM_CHECK_OUT' && scanIn) return sessionPage(deps, v, sessionId, undefined, { kind: 'confirm', scanInTime: scanIn, breaks, details: typed }, 409);
    // A break punch after the check-out: the phone that checked out is told it is checked out.
    if (err.code === 'ALREADY_CHECKED_OUT') return sessionPage(deps, v, sessionId, undefined, { kind: 'open', alert }, 409);
    // A check-out or break refused (no pass, a wrong code, on a break or not): where the student stands, the code asked when it was that.
    if (intent && intent !== 'check-in' && scanIn && err.code !== 'NOT_CHECKED_IN') {
      const again = { kind: 'checked-in', scanInTime: scanIn, breaks, already: false, details: typed, alert, refused: refusedForm(intent), askCode: err.statusCode === 403 } as const;
      return sessionPage(deps, v, sessionId, undefined, again, err.statusCode);
    }
    // 403: no valid pass, or the code was wrong: the form asks for the code on the screen now.
    return sessionPage(deps, v, sessionId, undefined, { kind: 'form', form: { values, errors: {}, alert, askCode: err.statusCode === 403 } }, err.statusCode);
  }
  if (result.action === 'already_checked_in') {
    // A check-in again changes nothing and says so, with Check out for a student who meant to leave.
    return sessionPage(deps, v, sessionId, undefined, { kind: 'checked-in', scanInTime: new Date(result.scanInTime!), breaks: result.breaks, already: true, details: typed });
  }
  if (result.action === 'break_started' || result.action === 'break_ended') {
    // A break punch (or a check-in that ended a break): where the student stands now, the answer on top.
    const notice = translateAnswer(v.language, result.message);
    return sessionPage(deps, v, sessionId, undefined, { kind: 'checked-in', scanInTime: new Date(result.scanInTime!), breaks: result.breaks, already: false, details: typed, notice });
  }
  const timeZone = (await getSettings(deps.db)).attendance.timeZone;
  const at = result.action === 'checked_out' ? result.scanOutTime : result.scanInTime;
  const outcome: Outcome = {
    ...result,
    action: result.action,
    time: timeOfDay(at ? new Date(at) : deps.clock.now(), STUDENT_LOCALES[v.language], timeZone),
    message: translateAnswer(v.language, result.message),
    studentId: typed?.studentId ?? '',
    email: typed?.email ?? '',
  };
  // A record that says the student was not there stands: the page must not say Attendance Marked!
  const breaks = result.action === 'checked_in' ? { action: address(sessionPath(sessionId), v), lunch: await lunchPunchesOffered(deps.db, sessionId, timeZone) } : undefined;
  const view =
    result.action === 'already_recorded' && !isAttendedStatus(result.status) ? seeInstructorView(v.t, outcome) : successView(v.t, outcome, v.language, '/my-hours', breaks);
  return page(deps, v, 200, view, sessionPath(sessionId));
}

/** A refusal that says when to come back says it in the header too. */
function retryAfter(v: Visit, err: AppError): void {
  const seconds = err.details?.retryAfterSeconds;
  if (err.statusCode === 429 && typeof seconds === 'number') v.reply.header('retry-after', String(Math.ceil(seconds)));
}

// ---- /attendance/scan: the six digits typed ----

/** GET /attendance/scan: for a student who cannot scan the QR (back row, broken camera). */
export const codeEntryPage = (deps: ScanDeps, v: Visit): ScanAnswer => page(deps, v, 200, codeEntryView(v.t, address(SCAN_PAGES_PATH, v), {}), SCAN_PAGES_PATH);

/**
 * POST /attendance/scan: the typed code finds the running class (qr-sessions' sessionForTypedCode,
 * every attempt counted) and gives this phone the same pass as a fresh QR code, as a cookie; the
 * answer sends the browser to that class's form (303), where the pass spares it the code.
 */
export async function submitCodeForm(deps: ScanDeps, v: Visit, rawBody: unknown): Promise<ScanAnswer> {
  const body = (typeof rawBody === 'object' && rawBody !== null ? rawBody : {}) as Record<string, unknown>;
  const action = address(SCAN_PAGES_PATH, v);
  const value = formText(body, 'code');
  const parsed = typedCodeSchema.safeParse(body);
  if (!parsed.success) return page(deps, v, 400, codeEntryView(v.t, action, { value, error: v.t('scanTypeSixDigits') }), SCAN_PAGES_PATH);
  const device = checkInDevice(v.req, v.reply, secure(deps, v.req));
  try {
    const found = await sessionForTypedCode(deps.db, parsed.data.code, device.id, { ip: v.req.ip, now: deps.clock.now() });
    setPassCookie(v.reply, secure(deps, v.req), found.sessionId, found.pass, found.passExpiresAt);
    return { redirect: address(sessionPath(found.sessionId), v) };
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    retryAfter(v, err);
    return page(deps, v, err.statusCode, codeEntryView(v.t, action, { value, alert: translateAnswer(v.language, err.message) }), SCAN_PAGES_PATH);
  }
}

// ---- Refusals before the routes run ----

/**
 * The pages' answer to what stopped a request before its handler: another site's form (the
 * cross-site guard of plugins/authorization.ts), too many requests, a parameter the schema refused
 * (named), a body that is not a form. A failure of ours is logged and answered as SPEC's scan page
 * answers any error: Session Not Found for a page, Failed to submit attendance for a form.
 */
export function refusalPage(deps: ScanDeps, v: Visit, error: unknown, sessionId: string | undefined): ScanAnswer {
  const path = sessionId ? sessionPath(sessionId) : SCAN_PAGES_PATH;
  const { t } = v;
  const fields = validationFieldErrors(error);
  if (fields) {
    const detail = fields.map((f) => t('fieldInvalid', { field: f.field })).join(' ');
    return page(deps, v, 400, sessionId !== undefined ? notFoundView(t, detail) : refusalView(t, t('badRequestTitle'), t('badRequest'), detail), path);
  }
  const status = (error as { statusCode?: number }).statusCode ?? 500;
  if (status === 429) return page(deps, v, 429, refusalView(t, t('markAttendance'), t('tooManyRequests')), path);
  if (status === 403) return page(deps, v, 403, refusalView(t, t('crossSiteTitle'), t('crossSite')), path);
  if (status >= 400 && status < 500) return page(deps, v, status, refusalView(t, t('badRequestTitle'), t('badRequest')), path);
  v.req.log.error({ err: error }, 'scan page failed');
  const failed =
    v.req.method !== 'POST' ? notFoundView(t) : sessionId ? refusalView(t, t('markAttendance'), t('submitFailed')) : refusalView(t, t('enterCodeTitle'), t('codeCheckFailed'));
  return page(deps, v, 500, failed, path);
}
