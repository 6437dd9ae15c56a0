import { createHash, randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { missedPunchT } from '../../../common/missed-punch-texts.ts';
import type { MissedPunchSource } from '../../../common/missed-punches.ts';
import { HOURS_LINK_DAYS, HOURS_LINKS_PER_DAY, hoursLinkRequestSchema, type HoursLinkRequest, type StudentHoursView } from '../../../common/my-hours.ts';
import { EMAIL_NOT_CONFIGURED } from '../../../common/notifications.ts';
import type { StudentLanguage, StudentTextKey } from '../../../common/student-texts.ts';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import { AppError } from '../../lib/errors.ts';
import { escapeHtml } from '../../lib/html.ts';
import { publicBaseUrl } from '../../lib/public-url.ts';
import { studentT } from '../../lib/student-i18n.ts';
import { hoursBody, missedPunchBody, requestForm, studentPage, type FormErrors, type MissedPunchNotice, type MissedPunchRefusal } from './pages.ts';
import { hoursOfStudentUnchecked, ledgerStudentUnchecked } from '../hours/service.ts';
import { fileMissedPunch, missedMeetingsOfDevice, missedMeetingsOfStudent, type Filer, type MissedMeeting } from '../missed-punches/service.ts';
import { emailConfigured, queueEmails } from '../outbox/service.ts';
import { SCAN_PAGES_PATH, checkInDevice, type CheckInDevice } from '../qr-sessions/service.ts';
import { getSettings, schoolName } from '../settings/service.ts';
import { countLinksSince, deleteExpiredLinks, insertLink, lockStudentLinks, openLink, selectStudentByIdAndEmail } from './queries.ts';

type StudentHoursDeps = { db: Db; config: Config; clock: Clock };

const DAY_MS = 86_400_000;
/** Tokens are 256 random bits; only their hash is stored, so the table cannot be replayed. */
const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

const hoursLinkUrl = (config: Config, token: string, language: StudentLanguage) =>
  `${publicBaseUrl(config)}/my-hours/${token}${language === 'en' ? '' : `?lang=${language}`}`;

/** Where a request's deferred work reports a failure (the request's logger). */
type WorkLog = { error: (obj: object, msg: string) => void };

// Requests answered whose lookup has not finished yet: the routes' onClose waits for them.
const pendingRequests = new Set<Promise<void>>();

/**
 * "E-mail me my hours". The caller answers the same whether or not the student ID and e-mail
 * match, and so that the answer's timing does not tell either, nothing is looked up before it is
 * sent: this checks only what is the same for every request (e-mail is set up), then runs the
 * lookup and the queueing (sendHoursLink) once `answered` settles, which the routes make the moment
 * their answer has gone out. A failure there is logged; the answer was already the same for all.
 */
export function requestHoursLink(deps: StudentHoursDeps, input: HoursLinkRequest, after: { answered: Promise<unknown>; log: WorkLog }): void {
  if (!emailConfigured(deps.config)) throw new AppError(400, 'EMAIL_NOT_CONFIGURED', EMAIL_NOT_CONFIGURED);
  const work = after.answered
    .then(() => sendHoursLink(deps, input))
    .catch((err: unknown) => after.log.error({ err }, 'a student hours link request failed after it was answered'))
    .finally(() => pendingRequests.delete(work));
  pendingRequests.add(work);
}

/** Resolves once every hours-link request answered so far has been looked up and queued (shutdown, tests). */
export async function hoursLinkRequestsSettled(): Promise<void> {
  while (pendingRequests.size > 0) await Promise.all(pendingRequests);
}

/**
 * The work after the answer: when the student ID and e-mail match a student, and fewer than
 * HOURS_LINKS_PER_DAY links went to them in the last day, a link valid for HOURS_LINK_DAYS is
 * stored (its hash) and e-mailed in one transaction.
 */
async function sendHoursLink(deps: StudentHoursDeps, input: HoursLinkRequest): Promise<void> {
  const language = input.language ?? 'en';
  const now = deps.clock.now();
  await deps.db.transaction(async (tx) => {
    const student = await selectStudentByIdAndEmail(tx, input.studentId, input.email);
    if (!student) return;
    await lockStudentLinks(tx, student.id);
    if ((await countLinksSince(tx, student.id, new Date(now.getTime() - DAY_MS))) >= HOURS_LINKS_PER_DAY) return;
    const token = randomBytes(32).toString('base64url');
    await insertLink(tx, { tokenHash: hashToken(token), studentId: student.id, createdAt: now, expiresAt: new Date(now.getTime() + HOURS_LINK_DAYS * DAY_MS) });
    const t = studentT(language);
    const school = await schoolName(tx);
    const link = hoursLinkUrl(deps.config, token, language);
    const text = school ? t('emailBody', { firstName: student.firstName, school, link }) : t('emailBodyNoSchool', { firstName: student.firstName, link });
    const html = text
      .split('\n\n')
      .map((para) =>
        para === link ? `<p><a href="${escapeHtml(link)}">${escapeHtml(t('emailLinkText'))}</a></p>` : `<p>${escapeHtml(para).replaceAll('\n', '<br>')}</p>`,
      )
      .join('\n');
    await queueEmails(tx, [
      {
        kind: 'student_hours_link',
        to: student.email,
        studentId: student.id,
        subject: school ? t('emailSubject', { school }) : t('emailSubjectNoSchool'),
        text,
        html,
      },
    ]);
  });
}

/** The student an e-mailed link names (the link marked as opened now), or null when it is unknown or expired. */
async function linkedStudent(deps: StudentHoursDeps, token: string): Promise<{ studentId: number; expiresAt: Date } | null> {
  if (!TOKEN_SHAPE.test(token)) return null;
  return (await openLink(deps.db, hashToken(token), deps.clock.now())) ?? null;
}

/** The read-only view an e-mailed link opens; null when the link is unknown or expired. */
export async function hoursByLink(deps: StudentHoursDeps, token: string): Promise<StudentHoursView | null> {
  const link = await linkedStudent(deps, token);
  if (!link) return null;
  // The link is the reader's right to these hours (no staff role to check).
  const student = await ledgerStudentUnchecked(deps.db, link.studentId);
  if (!student) return null;
  const hours = await hoursOfStudentUnchecked(deps.db, student, {}, deps.clock);
  const { totals } = hours;
  return {
    firstName: student.firstName,
    lastName: student.lastName,
    programName: student.programName,
    asOf: hours.asOf,
    totals,
    attendancePercent: hours.attendancePercent,
    makeUpOwedMinutes: Math.max(0, totals.scheduledMinutes - totals.creditedMinutes),
    currentPaymentPeriod: hours.paymentPeriods.find((p) => p.status !== 'completed') ?? null,
    days: hours.days.filter((d) => d.scheduledMinutes > 0 || d.attendedMinutes > 0 || d.makeUpMinutes > 0).reverse(),
    linkExpiresAt: link.expiresAt.toISOString(),
  };
}

/** The cleanup job: expired links are of no use to anyone. */
export function purgeExpiredHoursLinks(db: Db, clock: Clock): Promise<number> {
  return deleteExpiredLinks(db, clock.now());
}

// ---- The pages (server-rendered, no script; see pages.ts) ----

export type StudentPage = { status: number; html: string };

function page(language: StudentLanguage, status: number, titleKey: StudentTextKey, body: string, path: string): StudentPage {
  const t = studentT(language);
  return { status, html: studentPage({ language, t, title: t(titleKey), body, switchHref: (l) => `${path}?lang=${l}` }) };
}
const notice = (language: StudentLanguage, key: StudentTextKey, role = '') =>
  `<div class="card"><p${role ? ` role="${role}"` : ''}>${escapeHtml(studentT(language)(key))}</p></div>`;

/** GET /my-hours: the form, or why it cannot be used here. */
export function requestPage(
  config: Config,
  language: StudentLanguage,
  status = 200,
  values: { studentId?: string; email?: string } = {},
  errors: FormErrors = {},
): StudentPage {
  const body = emailConfigured(config) ? requestForm(studentT(language), language, values, errors) : notice(language, 'requestUnavailable');
  return page(language, status, 'requestTitle', body, '/my-hours');
}

/** POST /my-hours: the form's fields checked by the API's schema; then the API's one answer (the lookup after it, as requestHoursLink). */
export function submitRequestForm(
  deps: StudentHoursDeps,
  body: Record<string, unknown>,
  language: StudentLanguage,
  after: { answered: Promise<unknown>; log: WorkLog },
): StudentPage {
  const t = studentT(language);
  const values = { studentId: typeof body.studentId === 'string' ? body.studentId : '', email: typeof body.email === 'string' ? body.email : '' };
  const parsed = hoursLinkRequestSchema.safeParse({ ...values, language });
  if (!parsed.success) {
    const fields = new Set(parsed.error.issues.map((i) => i.path[0]));
    const errors: FormErrors = {
      ...(fields.has('studentId') ? { studentId: t('studentIdRequired') } : {}),
      ...(fields.has('email') ? { email: t('emailInvalid') } : {}),
    };
    return requestPage(deps.config, language, 400, values, errors);
  }
  if (!emailConfigured(deps.config)) return requestPage(deps.config, language, 400);
  requestHoursLink(deps, parsed.data, after);
  return page(language, 200, 'requestSentTitle', notice(language, 'requestSent', 'status'), '/my-hours');
}

/** GET /my-hours/{token}: the student's hours, or a page that says the link does not work and offers a new one. */
export async function hoursPage(deps: StudentHoursDeps, token: string, language: StudentLanguage): Promise<StudentPage> {
  const t = studentT(language);
  const path = `/my-hours/${encodeURIComponent(token)}`;
  const view = await hoursByLink(deps, token);
  if (!view) {
    const again = emailConfigured(deps.config) ? `<h2>${escapeHtml(t('askAgain'))}</h2>${requestForm(t, language)}` : '';
    return page(language, 404, 'linkInvalidTitle', `${notice(language, 'linkInvalid')}${again}`, path);
  }
  const missedPunch = { href: `${path}/missed-punch${language === 'en' ? '' : `?lang=${language}`}`, text: missedPunchT(language)('linkFromHours') };
  return page(language, 200, 'hoursTitle', hoursBody(view, t, language, missedPunch), path);
}

/** The pages' answer to a device over its request budget. */
export const tooManyRequestsPage = (language: StudentLanguage): StudentPage =>
  page(language, 429, 'requestTitle', notice(language, 'tooManyRequests', 'alert'), '/my-hours');

// ---- "Forgot to check in or out?" (decision 053): the missed-punch pages ----
// From the hours link (/my-hours/{token}/missed-punch: the link names the student) and from the scan
// page (/attendance/scan/missed-punch: the phone's device cookie, which the browser sends only under
// the scan pages' path, names the check-ins). The missed-punches module decides; these pages show it.

/** Where the scan page's link to the missed-punch page lands, and where the device cookie reaches. */
export const DEVICE_MISSED_PUNCH_PATH = `${SCAN_PAGES_PATH}/missed-punch`;

const languageHref = (path: string, language: StudentLanguage) => (language === 'en' ? path : `${path}?lang=${language}`);

type MissedPunchView = {
  language: StudentLanguage;
  path: string;
  meetings: MissedMeeting[];
  intro: 'introLink' | 'introDevice';
  showStudent: boolean;
  footer: string;
  notice?: MissedPunchNotice | null;
  refusal?: MissedPunchRefusal | null;
};

async function missedPunchPage(deps: StudentHoursDeps, status: number, v: MissedPunchView): Promise<StudentPage> {
  const mt = missedPunchT(v.language);
  const { timeZone } = (await getSettings(deps.db)).attendance;
  const body = missedPunchBody(mt, v.meetings, { ...v, timeZone, action: languageHref(v.path, v.language) });
  return { status, html: studentPage({ language: v.language, t: studentT(v.language), title: mt('title'), body, switchHref: (l) => `${v.path}?lang=${l}` }) };
}

/** A post's outcome as the page's status, notice and refusal; the meetings are read again after it. */
async function filed(deps: StudentHoursDeps, filer: Filer, source: MissedPunchSource, body: unknown, ip: string | null) {
  const outcome = await fileMissedPunch(deps, filer, source, body, ip);
  switch (outcome.kind) {
    case 'filed':
      return { status: 200, notice: 'sent' as const, refusal: null };
    case 'already_asked':
      return { status: 409, notice: 'alreadyAsked' as const, refusal: null };
    case 'not_available':
      return { status: 409, notice: 'notAvailable' as const, refusal: null };
    case 'invalid':
      return {
        status: 400,
        notice: null,
        refusal: { scheduleId: outcome.meeting.scheduleId, sessionDate: outcome.meeting.sessionDate, problems: outcome.problems, values: outcome.values },
      };
  }
}

/** The page an unknown or expired hours link gets: the same for both, with the way to a new link. */
function linkInvalidPage(language: StudentLanguage, path: string): StudentPage {
  const mt = missedPunchT(language);
  const body = `<div class="card"><p>${escapeHtml(mt('linkInvalid'))}</p></div><p><a href="${escapeHtml(languageHref('/my-hours', language))}">${escapeHtml(mt('askNewLink'))}</a></p>`;
  return { status: 404, html: studentPage({ language, t: studentT(language), title: mt('linkInvalidTitle'), body, switchHref: (l) => `${path}?lang=${l}` }) };
}

const linkPath = (token: string) => `/my-hours/${encodeURIComponent(token)}/missed-punch`;
const backToHours = (token: string, language: StudentLanguage) =>
  `<p><a href="${escapeHtml(languageHref(`/my-hours/${encodeURIComponent(token)}`, language))}">${escapeHtml(missedPunchT(language)('backToHours'))}</a></p>`;

/** GET /my-hours/{token}/missed-punch: the student's meetings with a punch missing, a form each. */
export async function missedPunchLinkPage(deps: StudentHoursDeps, token: string, language: StudentLanguage): Promise<StudentPage> {
  const link = await linkedStudent(deps, token);
  if (!link) return linkInvalidPage(language, linkPath(token));
  const meetings = await missedMeetingsOfStudent(deps, link.studentId);
  return missedPunchPage(deps, 200, {
    language,
    path: linkPath(token),
    meetings,
    intro: 'introLink',
    showStudent: false,
    footer: backToHours(token, language),
  });
}

/** POST /my-hours/{token}/missed-punch: a request from the hours link; the page again, saying what happened. */
export async function submitMissedPunchByLink(
  deps: StudentHoursDeps,
  token: string,
  body: unknown,
  language: StudentLanguage,
  ip: string | null,
): Promise<StudentPage> {
  const link = await linkedStudent(deps, token);
  if (!link) return linkInvalidPage(language, linkPath(token));
  const answer = await filed(deps, { studentId: link.studentId }, 'hours_link', body, ip);
  const meetings = await missedMeetingsOfStudent(deps, link.studentId);
  return missedPunchPage(deps, answer.status, {
    language,
    path: linkPath(token),
    meetings,
    intro: 'introLink',
    showStudent: false,
    footer: backToHours(token, language),
    ...answer,
  });
}

/** The phone's device (its cookie; a phone without one is given one, as the scan pages do). */
export function deviceOf(deps: StudentHoursDeps, req: FastifyRequest, reply: FastifyReply): CheckInDevice {
  return checkInDevice(req, reply, deps.config.cookieSecure ?? req.protocol === 'https');
}

// A device the server has just given a cookie has checked nobody in: nothing is looked up for it,
// and its page is the page of a device with nothing to correct.
const deviceMeetings = (deps: StudentHoursDeps, device: CheckInDevice) => (device.presented ? missedMeetingsOfDevice(deps, device.id) : Promise.resolve([]));
const deviceFooter = (language: StudentLanguage) => `<p class="muted">${escapeHtml(missedPunchT(language)('deviceHelp'))}</p>`;

/** GET /attendance/scan/missed-punch: this phone's check-ins with no check-out, a form each. */
export async function missedPunchDevicePage(deps: StudentHoursDeps, device: CheckInDevice, language: StudentLanguage): Promise<StudentPage> {
  const meetings = await deviceMeetings(deps, device);
  return missedPunchPage(deps, 200, {
    language,
    path: DEVICE_MISSED_PUNCH_PATH,
    meetings,
    intro: 'introDevice',
    showStudent: true,
    footer: deviceFooter(language),
  });
}

/** POST /attendance/scan/missed-punch: a request for one of this phone's check-ins; an unknown phone's post is "not available", as any other. */
export async function submitMissedPunchByDevice(
  deps: StudentHoursDeps,
  device: CheckInDevice,
  body: unknown,
  language: StudentLanguage,
  ip: string | null,
): Promise<StudentPage> {
  const answer = device.presented
    ? await filed(deps, { deviceId: device.id }, 'scan_page', body, ip)
    : { status: 409, notice: 'notAvailable' as const, refusal: null };
  const meetings = await deviceMeetings(deps, device);
  return missedPunchPage(deps, answer.status, {
    language,
    path: DEVICE_MISSED_PUNCH_PATH,
    meetings,
    intro: 'introDevice',
    showStudent: true,
    footer: deviceFooter(language),
    ...answer,
  });
}

/** The missed-punch pages' answer to a device over its request budget. */
export function missedPunchTooManyPage(language: StudentLanguage, path: string): StudentPage {
  const mt = missedPunchT(language);
  return {
    status: 429,
    html: studentPage({
      language,
      t: studentT(language),
      title: mt('title'),
      body: `<div class="card"><p role="alert">${escapeHtml(mt('tooManyRequests'))}</p></div>`,
      switchHref: (l) => `${path}?lang=${l}`,
    }),
  };
}
