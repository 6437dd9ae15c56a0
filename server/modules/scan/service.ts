import {
  breakPunchSchema,
  scanDevicePunchFormSchema,
  scanFormSchema,
  type AttendanceSubmitResult,
  type BreakPunch,
  type ScanIntent,
} from '../../../common/attendance.ts';
import { isAttendedStatus } from '../../../common/constants.ts';
import { STUDENT_LOCALES } from '../../../common/student-texts.ts';
import { AppError } from '../../lib/errors.ts';
import { translateAnswer, type StudentT } from '../../lib/student-i18n.ts';
import { validationFieldErrors } from '../../plugins/error-handler.ts';
import { checkInFromBrowser, deviceStanding, lunchPunchesOffered, type DeviceStanding } from '../attendance/service.ts';
import { SCAN_PAGES_PATH, checkInDevice } from '../qr-sessions/service.ts';
import { getSettings } from '../settings/service.ts';
import { DETAIL_FIELDS, type DetailName, type FormErrors } from './page-shell.ts';
import { notFoundView, refusalView, seeInstructorView, successView, type Outcome } from './pages.ts';
import { EMPTY_FORM, sessionPage, type Details } from './session-page.ts';
import { address, formText, page, retryAfter, secure, sessionPath, timeOfDay, type ScanAnswer, type ScanDeps, type Visit } from './visit.ts';

export { PUBLIC_RATE_LIMIT, TYPED_CODE_RATE_LIMIT } from '../qr-sessions/service.ts';

/**
 * The public scan pages (docs/decisions/028): /attendance/scan/{sessionId} and the
 * typed-code page /attendance/scan, rendered on the server, their forms answered with whole pages.
 * Every rule is the JSON routes' own: the session read and the typed code are qr-sessions', the
 * check-in is attendance's (the same function POST /api/attendance/submit calls).
 */

// The module's door for its routes: a visit and its language (visit.ts), a session's page
// (session-page.ts) and the typed-code page (code-entry.ts) live in their own files.
export { visitOf, type ScanAnswer, type ScanDeps } from './visit.ts';
export { openScanPage } from './session-page.ts';
export { codeEntryPage, submitCodeForm } from './code-entry.ts';

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
    const askCode = {
      kind: 'checked-in',
      scanInTime: standing.scanInTime,
      breaks: standing.breaks,
      already: false,
      details: null,
      askCode: true,
      refused: refusedForm(intent),
    } as const;
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
    if (err.code === 'CONFIRM_CHECK_OUT' && scanIn)
      return sessionPage(deps, v, sessionId, undefined, { kind: 'confirm', scanInTime: scanIn, breaks, details: typed }, 409);
    // A break punch after the check-out: the phone that checked out is told it is checked out.
    if (err.code === 'ALREADY_CHECKED_OUT') return sessionPage(deps, v, sessionId, undefined, { kind: 'open', alert }, 409);
    // A check-out or break refused (no pass, a wrong code, on a break or not): where the student stands, the code asked when it was that.
    if (intent && intent !== 'check-in' && scanIn && err.code !== 'NOT_CHECKED_IN') {
      const again = {
        kind: 'checked-in',
        scanInTime: scanIn,
        breaks,
        already: false,
        details: typed,
        alert,
        refused: refusedForm(intent),
        askCode: err.statusCode === 403,
      } as const;
      return sessionPage(deps, v, sessionId, undefined, again, err.statusCode);
    }
    // 403: no valid pass, or the code was wrong: the form asks for the code on the screen now.
    return sessionPage(deps, v, sessionId, undefined, { kind: 'form', form: { values, errors: {}, alert, askCode: err.statusCode === 403 } }, err.statusCode);
  }
  if (result.action === 'already_checked_in') {
    // A check-in again changes nothing and says so, with Check out for a student who meant to leave.
    return sessionPage(deps, v, sessionId, undefined, {
      kind: 'checked-in',
      scanInTime: new Date(result.scanInTime!),
      breaks: result.breaks,
      already: true,
      details: typed,
    });
  }
  if (result.action === 'break_started' || result.action === 'break_ended') {
    // A break punch (or a check-in that ended a break): where the student stands now, the answer on top.
    const notice = translateAnswer(v.language, result.message);
    return sessionPage(deps, v, sessionId, undefined, {
      kind: 'checked-in',
      scanInTime: new Date(result.scanInTime!),
      breaks: result.breaks,
      already: false,
      details: typed,
      notice,
    });
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
  const breaks =
    result.action === 'checked_in' ? { action: address(sessionPath(sessionId), v), lunch: await lunchPunchesOffered(deps.db, sessionId, timeZone) } : undefined;
  const view =
    result.action === 'already_recorded' && !isAttendedStatus(result.status)
      ? seeInstructorView(v.t, outcome)
      : successView(v.t, outcome, v.language, '/my-hours', breaks);
  return page(deps, v, 200, view, sessionPath(sessionId));
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
    v.req.method !== 'POST'
      ? notFoundView(t)
      : sessionId
        ? refusalView(t, t('markAttendance'), t('submitFailed'))
        : refusalView(t, t('enterCodeTitle'), t('codeCheckFailed'));
  return page(deps, v, 500, failed, path);
}
