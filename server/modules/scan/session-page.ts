// The page of one session (/attendance/scan/{sessionId}): the form, or where this phone's student stands, or why there is neither.
import type { BreakPunch } from '../../../common/attendance.ts';
import { formatCountdown } from '../../../common/countdown.ts';
import type { PublicSessionAnswer } from '../../../common/qr-sessions.ts';
import type { Settings } from '../../../common/settings.ts';
import { STUDENT_LOCALES } from '../../../common/student-texts.ts';
import { AppError } from '../../lib/errors.ts';
import { checkInAnswers, type StudentT } from '../../lib/student-i18n.ts';
import { checkOutPreview, deviceStanding, lunchPunchesOffered, type DeviceStanding } from '../attendance/service.ts';
import { checkInDevice, passFromCookie, publicSession, setPassCookie } from '../qr-sessions/service.ts';
import { getSettings } from '../settings/service.ts';
import type { DetailName } from './page-shell.ts';
import { endedView, expiredView, formView, notFoundView, scriptExtras, type FormState } from './pages.ts';
import { checkedInView, checkedOutView, confirmCheckOutView, type BreakLine, type CheckOutFacts } from './second-scan-views.ts';
import { address, longDate, page, secure, sessionPath, timeOfDay, wallClock, type ScanAnswer, type ScanDeps, type Visit } from './visit.ts';

type FormInput = Omit<FormState, 'askCode' | 'passEndsInMs'> & { askCode?: boolean };
export const EMPTY_FORM: FormInput = { values: {}, errors: {}, alert: null };
export type Details = Record<DetailName, string>;

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
export async function sessionPage(deps: ScanDeps, v: Visit, sessionId: string, token: string | undefined, ask: Ask, status = 200): Promise<ScanAnswer> {
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
  const breakLines = (breaks: readonly BreakPunch[]): BreakLine[] =>
    breaks.map((b) => ({ kind: b.kind, from: time(b.startedAt), to: b.endedAt ? time(b.endedAt) : null }));
  if (standing?.scanOutTime) {
    const out = {
      courseName: session.courseName,
      at: time(standing.scanOutTime),
      minutes: standing.minutesAttended,
      since: time(standing.scanInTime),
      breaks: breakLines(standing.breaks),
    };
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
export const openScanPage = (deps: ScanDeps, v: Visit, sessionId: string, token: string | undefined) =>
  sessionPage(deps, v, sessionId, token, { kind: 'open' });
