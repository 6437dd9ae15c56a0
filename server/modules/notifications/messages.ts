import { escapeHtml } from '../../lib/html.ts';

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
export function readableDate(date: string): string {
  return new Date(`${date}T12:00:00Z`).toLocaleDateString('en-US', { weekday: 'short', month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' });
}

function html(paragraphs: (string | { link: string; text: string })[]): string {
  const body = paragraphs.map((p) => (typeof p === 'string' ? `<p>${escapeHtml(p).replace(/\n/g, '<br>')}</p>` : `<p><a href="${escapeHtml(p.link)}">${escapeHtml(p.text)}</a></p>`)).join('\n');
  return `<!doctype html><html><body style="font-family: sans-serif; line-height: 1.5">${body}</body></html>`;
}

export function alertEmailToStaff(f: AlertFacts, firstName: string, unsubscribe: string) {
  const dates = f.dates.map(readableDate).join('\n');
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

export function alertEmailToStudent(f: AlertFacts, unsubscribe: string) {
  const dates = f.dates.map(readableDate).join('\n');
  const subject = `${f.school}: you missed ${f.courseName}`;
  const lines = [
    `Hello ${f.studentFirstName},`,
    `Our attendance records show you were absent from ${f.courseName} (${f.courseCode}) on:\n${dates}`,
    `Missed hours count against the hours you need. You can make up missed time with your instructor or the school office, within ${f.makeUpDeadlineDays} days. Please talk to your instructor at your next class.`,
    `If a date is wrong (you were there), tell your instructor so the record can be corrected.`,
    `Stop these notices: ${unsubscribe}`,
  ];
  return { subject, text: lines.join('\n\n'), html: html(lines.slice(0, 4).concat([]).map((l) => l)).replace('</body>', `<p><a href="${escapeHtml(unsubscribe)}">Stop these notices</a></p></body>`) };
}

export function alertSms(f: AlertFacts): string {
  const dates = f.dates.map((d) => readableDate(d).replace(/, \d{4}$/, '')).join(', ');
  return `${f.school}: you were absent from ${f.courseCode} on ${dates}. Please see your instructor about making up the time. Reply STOP to opt out.`;
}
