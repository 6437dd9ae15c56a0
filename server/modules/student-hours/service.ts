import { createHash, randomBytes } from 'node:crypto';
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
import { hoursBody, requestForm, studentPage, type FormErrors } from './pages.ts';
import { hoursOfStudent, ledgerStudent, schoolName } from '../hours/service.ts';
import { emailConfigured, queueEmails } from '../outbox/service.ts';
import { countLinksSince, deleteExpiredLinks, insertLink, lockStudentLinks, openLink, selectStudentByIdAndEmail } from './queries.ts';

export type StudentHoursDeps = { db: Db; config: Config; clock: Clock };

const DAY_MS = 86_400_000;
/** Tokens are 256 random bits; only their hash is stored, so the table cannot be replayed. */
const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

const hoursLinkUrl = (config: Config, token: string, language: StudentLanguage) => `${publicBaseUrl(config)}/my-hours/${token}${language === 'en' ? '' : `?lang=${language}`}`;

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
      .map((para) => (para === link ? `<p><a href="${escapeHtml(link)}">${escapeHtml(t('emailLinkText'))}</a></p>` : `<p>${escapeHtml(para).replaceAll('\n', '<br>')}</p>`))
      .join('\n');
    await queueEmails(tx, [{ kind: 'student_hours_link', to: student.email, studentId: student.id, subject: school ? t('emailSubject', { school }) : t('emailSubjectNoSchool'), text, html }]);
  });
}

/** The read-only view an e-mailed link opens; null when the link is unknown or expired. */
export async function hoursByLink(deps: StudentHoursDeps, token: string): Promise<StudentHoursView | null> {
  if (!TOKEN_SHAPE.test(token)) return null;
  const link = await openLink(deps.db, hashToken(token), deps.clock.now());
  if (!link) return null;
  const student = await ledgerStudent(deps.db, link.studentId);
  if (!student) return null;
  const hours = await hoursOfStudent(deps.db, student, {}, deps.clock);
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
const notice = (language: StudentLanguage, key: StudentTextKey, role = '') => `<div class="card"><p${role ? ` role="${role}"` : ''}>${escapeHtml(studentT(language)(key))}</p></div>`;

/** GET /my-hours: the form, or why it cannot be used here. */
export function requestPage(config: Config, language: StudentLanguage, status = 200, values: { studentId?: string; email?: string } = {}, errors: FormErrors = {}): StudentPage {
  const body = emailConfigured(config) ? requestForm(studentT(language), language, values, errors) : notice(language, 'requestUnavailable');
  return page(language, status, 'requestTitle', body, '/my-hours');
}

/** POST /my-hours: the form's fields checked by the API's schema; then the API's one answer (the lookup after it, as requestHoursLink). */
export function submitRequestForm(deps: StudentHoursDeps, body: Record<string, unknown>, language: StudentLanguage, after: { answered: Promise<unknown>; log: WorkLog }): StudentPage {
  const t = studentT(language);
  const values = { studentId: typeof body.studentId === 'string' ? body.studentId : '', email: typeof body.email === 'string' ? body.email : '' };
  const parsed = hoursLinkRequestSchema.safeParse({ ...values, language });
  if (!parsed.success) {
    const fields = new Set(parsed.error.issues.map((i) => i.path[0]));
    const errors: FormErrors = { ...(fields.has('studentId') ? { studentId: t('studentIdRequired') } : {}), ...(fields.has('email') ? { email: t('emailInvalid') } : {}) };
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
  return page(language, 200, 'hoursTitle', hoursBody(view, t, language), path);
}

/** The pages' answer to a device over its request budget. */
export const tooManyRequestsPage = (language: StudentLanguage): StudentPage => page(language, 429, 'requestTitle', notice(language, 'tooManyRequests', 'alert'), '/my-hours');
