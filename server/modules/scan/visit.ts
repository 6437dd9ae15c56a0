// A browser's visit to a scan page: its language, the pages' addresses, the document answered, and times and dates in its words.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { STUDENT_LANGUAGES, type StudentLanguage } from '../../../common/student-texts.ts';
import type { Db } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import type { AppError } from '../../lib/errors.ts';
import { pickStudentLanguage, studentT, type StudentT } from '../../lib/student-i18n.ts';
import { SCAN_PAGES_PATH } from '../qr-sessions/service.ts';
import { scanDocument, type ScanView } from './page-shell.ts';

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

export const secure = (deps: ScanDeps, req: FastifyRequest) => deps.cookieSecure ?? req.protocol === 'https';
/** A scan page's address, keeping a language the student chose. */
export const address = (path: string, v: Visit) => (v.chosenLanguage ? `${path}?lang=${v.language}` : path);
export const sessionPath = (sessionId: string) => `${SCAN_PAGES_PATH}/${encodeURIComponent(sessionId)}`;

export function page(deps: ScanDeps, v: Visit, status: number, view: ScanView, path: string, extras?: string): ScanAnswer {
  return { status, html: scanDocument(view, { language: v.language, t: v.t, switchHref: (l) => `${path}?lang=${l}`, script: deps.script, extras }) };
}

// ---- Formatting in the page's language ----

export const wallClock = (hhmm: string, locale: string) => {
  const [h = 0, m = 0] = hhmm.split(':').map(Number);
  return new Intl.DateTimeFormat(locale, { hour: 'numeric', minute: '2-digit', timeZone: 'UTC' }).format(Date.UTC(2000, 0, 1, h, m));
};
export const longDate = (date: string, locale: string) =>
  new Intl.DateTimeFormat(locale, { weekday: 'long', month: 'long', day: 'numeric', timeZone: 'UTC' }).format(Date.parse(`${date}T00:00:00Z`));
export const timeOfDay = (instant: Date, locale: string, timeZone: string) =>
  new Intl.DateTimeFormat(locale, { hour: 'numeric', minute: '2-digit', timeZone }).format(instant);

export const formText = (body: Record<string, unknown>, name: string) => (typeof body[name] === 'string' ? (body[name] as string) : '');

/** A refusal that says when to come back says it in the header too. */
export function retryAfter(v: Visit, err: AppError): void {
  const seconds = err.details?.retryAfterSeconds;
  if (err.statusCode === 429 && typeof seconds === 'number') v.reply.header('retry-after', String(Math.ceil(seconds)));
}
