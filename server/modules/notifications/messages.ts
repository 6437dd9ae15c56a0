import { STUDENT_LOCALES, type StudentLanguage } from '../../../common/student-texts.ts';
import { escapeHtml } from '../../lib/html.ts';
import { studentT } from '../../lib/student-i18n.ts';

/** The alert e-mails and SMS: plain text first, with a simple HTML part. */

export type AlertFacts = {
  school: string;
  studentName: string;
  studentFirstName: string;
  courseCode: string;
  courseName: string;
  ruleInWords: string;
  /** YYYY-MM-DD, oldest first. */
  dates: string[];
  studentUrl: string;
  makeUpDeadlineDays: number;
};

/** "Mon, Nov 23, 2026": dates as people read them (the date is the school's, no time zone shift). */
function readableDate(date: string, locale = 'en-US'): string {
  return new Date(`${date}T12:00:00Z`).toLocaleDateString(locale, { weekday: 'short', month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' });
}

function html(paragraphs: (string | { link: string; text: string })[]): string {
  const body = paragraphs
    .map((p) => (typeof p === 'string' ? `<p>${escapeHtml(p).replace(/\n/g, '<br>')}</p>` : `<p><a href="${escapeHtml(p.link)}">${escapeHtml(p.text)}</a></p>`))
    .join('\n');
  return `<!doctype html><html><body style="font-family: sans-serif; line-height: 1.5">${body}</body></html>`;
}

export function alertEmailToStaff(f: AlertFacts, firstName: string, unsubscribe: string) {
  const dates = f.dates.map((d) => readableDate(d)).join('\n');
  const subject = `Attendance alert: ${f.studentName}, ${f.courseCode}`;
  const text = [
    `Hello ${firstName},`,
    `${f.studentName} needs attention in ${f.courseCode} ${f.courseName}: ${f.ruleInWords}.`,
    `Meetings missed:\n${dates}`,
    `Open the student's record: ${f.studentUrl}`,
    `You get this because low-attendance alerts are on for you in Muster. Stop them: ${unsubscribe}`,
  ].join('\n\n');
  return {
    subject,
    text,
    html: html([
      `Hello ${firstName},`,
      `${f.studentName} needs attention in ${f.courseCode} ${f.courseName}: ${f.ruleInWords}.`,
      `Meetings missed:\n${dates}`,
      { link: f.studentUrl, text: `Open ${f.studentName}'s record` },
      { link: unsubscribe, text: 'Stop low-attendance alerts' },
    ]),
  };
}

/** The absence notice to a student, in English then Spanish (common/student-texts.ts). */
export function alertEmailToStudent(f: AlertFacts, unsubscribe: string) {
  const inLanguage = (language: StudentLanguage) => {
    const t = studentT(language);
    const dates = f.dates.map((d) => readableDate(d, STUDENT_LOCALES[language])).join('\n');
    return {
      subject: t('absenceSubject', { school: f.school, course: f.courseName }),
      lines: [
        t('absenceHello', { name: f.studentFirstName }),
        `${t('absenceDates', { course: f.courseName, code: f.courseCode })}\n${dates}`,
        t('absenceMakeUp', { days: f.makeUpDeadlineDays }),
        t('absenceWrongDate'),
      ],
      stop: t('absenceStop'),
    };
  };
  const [english, spanish] = [inLanguage('en'), inLanguage('es')];
  const stop = `${english.stop} / ${spanish.stop}`;
  const text = [...english.lines, '—', ...spanish.lines, `${stop}: ${unsubscribe}`].join('\n\n');
  return { subject: `${english.subject} / ${spanish.subject}`, text, html: html([...english.lines, '—', ...spanish.lines, { link: unsubscribe, text: stop }]) };
}

/** The absence text message: English, then Spanish. */
export function alertSms(f: AlertFacts): string {
  const inLanguage = (language: StudentLanguage) =>
    studentT(language)('absenceSms', {
      school: f.school,
      code: f.courseCode,
      dates: f.dates
        .map((d) =>
          readableDate(d, STUDENT_LOCALES[language])
            .replace(/, \d{4}$/, '')
            .replace(/ de \d{4}$/, ''),
        )
        .join(', '),
    });
  return `${inLanguage('en')} ${inLanguage('es')}`;
}
