import { isAttendedStatus } from '../../../common/constants.ts';
import type { Alert } from '../../../common/dashboard.ts';
import type { Config } from '../../config.ts';
import type { Db, DbOrTx } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import type { FieldCipher } from '../../lib/field-cipher.ts';
import { publicBaseUrl } from '../../lib/public-url.ts';
import { addDays, localDate } from '../../lib/school-time.ts';
import { hearsOfLowAttendanceIn } from '../access/service.ts';
import { CONSECUTIVE_ABSENCES, schoolAlerts } from '../attendance-alerts/service.ts';
import {
  emailConfigured,
  queueEmails,
  queueSms,
  readUnsubscribeToken,
  smsConfigured,
  unsubscribeUrl,
  type EmailMessage,
  type SmsMessage,
  type UnsubscribeTarget,
} from '../outbox/service.ts';
import { getSettings, turnOffNotificationSwitch, usersWantingEmail } from '../settings/service.ts';
import { alertEmailToStaff, alertEmailToStudent, alertSms, type AlertFacts } from './messages.ts';
import {
  firedWithin,
  insertStudentAlert,
  lockStudentRule,
  selectAlertContext,
  selectRecentMeetings,
  selectStatuses,
  setStudentOptOut,
  unsubscribeTargetExists,
  type MeetingRow,
} from './queries.ts';

/** The alert rules' consecutive-absence number, where a program has not set its own. */
const DEFAULT_CONSECUTIVE_ABSENCES = CONSECUTIVE_ABSENCES;
const RESEND_AFTER_MS = 7 * 24 * 60 * 60 * 1000;

type Ctx = { db: Db; config: Config; cipher: FieldCipher; clock: Clock };
type Candidate = {
  studentId: number;
  scheduleId: number;
  rule: 'consecutive_absences' | 'student_rate' | 'cannot_reach_required';
  words: string;
  absences: MeetingRow[];
};

/** A student's meetings of one class, newest first. */
function byStudentClass(rows: MeetingRow[]): Map<string, MeetingRow[]> {
  const out = new Map<string, MeetingRow[]>();
  for (const r of rows) {
    const key = `${r.studentId}:${r.scheduleId}`;
    const list = out.get(key) ?? [];
    list.push(r);
    out.set(key, list);
  }
  return out;
}

/**
 * Low-attendance alert e-mails (decision 020). A rule that newly fires for a student and class (the
 * attendance-alerts module's explainable rules, the dashboard's too, with "N consecutive absences"
 * using the program's own N) e-mails the class's instructor and the administrators who want these
 * alerts, with the rule in words and the dates missed; at most once per rule and class a week;
 * never when a meeting it names no longer says absent. Optionally a plain-words copy to the student,
 * and an SMS for consecutive absences. Nothing happens while e-mail is not configured. Safe on
 * several instances (per-student locks).
 */
export async function sendLowAttendanceAlerts({
  db,
  config,
  cipher,
  clock,
}: Ctx): Promise<{ alerts: number; emails: number; sms: number } | { skipped: string }> {
  if (!emailConfigured(config)) return { skipped: 'e-mail is not configured' };
  const now = clock.now();
  const settings = await getSettings(db);
  const today = localDate(now, settings.attendance.timeZone);
  const meetings = byStudentClass(await selectRecentMeetings(db, addDays(today, -60), today));
  // The alert rules' per-student alerts, by student and class (consecutive absences are counted here, per program).
  const ruled = new Map<string, Alert[]>();
  for (const a of await schoolAlerts(db, now)) {
    if (a.studentId == null || a.scheduleId == null || a.rule === 'consecutive_absences') continue;
    const key = `${a.studentId}:${a.scheduleId}`;
    ruled.set(key, [...(ruled.get(key) ?? []), a]);
  }
  const contexts = await selectAlertContext(
    db,
    [...meetings.keys()].map((k) => ({ studentId: Number(k.split(':')[0]), scheduleId: Number(k.split(':')[1]) })),
  );

  const candidates: Candidate[] = [];
  for (const c of contexts) {
    const recent = meetings.get(`${c.studentId}:${c.scheduleId}`) ?? [];
    let run = 0;
    while (run < recent.length && recent[run]!.status === 'absent') run++;
    const n = c.consecutiveAbsenceAlert ?? DEFAULT_CONSECUTIVE_ABSENCES;
    if (run >= n) {
      candidates.push({
        studentId: c.studentId,
        scheduleId: c.scheduleId,
        rule: 'consecutive_absences',
        words: `${run} absences in a row in ${c.courseCode} (this program alerts at ${n})`,
        absences: recent.slice(0, run),
      });
    }
    for (const a of ruled.get(`${c.studentId}:${c.scheduleId}`) ?? []) {
      const absences = recent.slice(0, 10).filter((m) => m.status === 'absent');
      if (absences.length === 0) continue;
      candidates.push({
        studentId: c.studentId,
        scheduleId: c.scheduleId,
        rule: a.rule as Candidate['rule'],
        words: a.message.replace(/^[^:]*: /, ''),
        absences,
      });
    }
  }
  if (candidates.length === 0) return { alerts: 0, emails: 0, sms: 0 };

  const recipients = await usersWantingEmail(db, 'lowAttendanceAlerts');
  const base = publicBaseUrl(config);
  const school = settings.system.schoolName.trim() || 'Muster';
  const smsOn = settings.notifications.smsNotifications && smsConfigured(config);
  const result = { alerts: 0, emails: 0, sms: 0 };
  for (const cand of candidates) {
    const c = contexts.find((x) => x.studentId === cand.studentId && x.scheduleId === cand.scheduleId)!;
    const ruleKey = `${cand.rule}:${cand.scheduleId}`;
    await db.transaction(async (tx) => {
      await lockStudentRule(tx, cand.studentId, ruleKey);
      if (await firedWithin(tx, cand.studentId, ruleKey, new Date(now.getTime() - RESEND_AFTER_MS))) return;
      // The meetings named must still say absent now: a corrected record never triggers an e-mail.
      const statuses = await selectStatuses(
        tx,
        cand.absences.map((m) => m.id),
      );
      if (statuses.length !== cand.absences.length || statuses.some((s) => s !== 'absent' || isAttendedStatus(s))) return;
      const facts: AlertFacts = {
        school,
        studentName: `${c.firstName} ${c.lastName}`,
        studentFirstName: c.firstName,
        courseCode: c.courseCode,
        courseName: c.courseName,
        ruleInWords: cand.words,
        dates: cand.absences.map((m) => m.sessionDate).sort(),
        studentUrl: `${base}/students/${c.studentId}`,
        makeUpDeadlineDays: c.makeUpDeadlineDays ?? 14,
      };
      const staff = recipients.filter((r) => hearsOfLowAttendanceIn(r, c));
      const emails: EmailMessage[] = staff.map((r) => {
        const unsubscribe = unsubscribeUrl(config, cipher, { userId: r.id, switch: 'lowAttendanceAlerts' });
        return {
          kind: 'low_attendance',
          to: r.email,
          userId: r.id,
          studentId: c.studentId,
          unsubscribeUrl: unsubscribe,
          ...alertEmailToStaff(facts, r.firstName, unsubscribe),
        };
      });
      const texts: SmsMessage[] = [];
      if (c.alertCopyToStudent && !c.optedOut) {
        const unsubscribe = unsubscribeUrl(config, cipher, { studentId: c.studentId });
        if (c.email)
          emails.push({
            kind: 'student_absence',
            to: c.email,
            studentId: c.studentId,
            unsubscribeUrl: unsubscribe,
            ...alertEmailToStudent(facts, unsubscribe),
          });
        const phone = toE164(c.phone);
        if (smsOn && phone && cand.rule === 'consecutive_absences')
          texts.push({ kind: 'student_absence', to: phone, studentId: c.studentId, text: alertSms(facts) });
      }
      await insertStudentAlert(
        tx,
        cand.studentId,
        ruleKey,
        { rule: cand.rule, words: cand.words, dates: facts.dates, recipients: emails.length + texts.length },
        now,
      );
      await queueEmails(tx, emails);
      await queueSms(tx, texts);
      result.alerts++;
      result.emails += emails.length;
      result.sms += texts.length;
    });
  }
  return result;
}

/** A phone number as E.164 (+15551234567); US numbers may be written any common way; null when unusable. */
export function toE164(phone: string | null): string | null {
  if (!phone) return null;
  const trimmed = phone.trim();
  const digits = trimmed.replace(/\D/g, '');
  if (trimmed.startsWith('+')) return digits.length >= 8 && digits.length <= 15 ? `+${digits}` : null;
  if (digits.length === 10) return `+1${digits}`;
  if (digits.length === 11 && digits.startsWith('1')) return `+${digits}`;
  return null;
}

/**
 * The target of an unsubscribe token when it is one of ours AND names a user or student that
 * exists; null otherwise. A token that does not open and one that opens but names no one get the
 * same null, so the page never says whether a given ciphertext is valid; the lookup runs in both
 * cases (for no one when the token did not open), so they take the same path.
 */
async function knownUnsubscribeTarget(db: DbOrTx, cipher: FieldCipher, token: string): Promise<UnsubscribeTarget | null> {
  const target = readUnsubscribeToken(cipher, token);
  const exists = await unsubscribeTargetExists(db, target ?? { studentId: 0 });
  return target && exists ? target : null;
}

/** What an unsubscribe link is for, in words, and whether it is a student's; null when it is not one of ours or names no one. */
export async function describeUnsubscribe(db: DbOrTx, cipher: FieldCipher, token: string): Promise<Unsubscribe | null> {
  const target = await knownUnsubscribeTarget(db, cipher, token);
  return target ? described(target) : null;
}

type Unsubscribe = { what: string; student: boolean };
function described(target: UnsubscribeTarget): Unsubscribe {
  if ('studentId' in target) return { what: 'absence notices from your school', student: true };
  const what = {
    emailNotifications: 'all e-mail from Muster',
    weeklyReports: 'the weekly report',
    lowAttendanceAlerts: 'low-attendance alerts',
    systemMaintenanceNotices: 'maintenance notices',
    smsNotifications: 'text messages',
  };
  return { what: what[target.switch], student: false };
}

/** Follow an unsubscribe link (no sign-in: the sealed token is the proof); null as describeUnsubscribe. */
export async function applyUnsubscribe(db: Db, cipher: FieldCipher, token: string, clock: Clock): Promise<Unsubscribe | null> {
  const target = await knownUnsubscribeTarget(db, cipher, token);
  if (!target) return null;
  if ('studentId' in target) {
    if (!(await setStudentOptOut(db, target.studentId, clock.now()))) return null;
  } else {
    await turnOffNotificationSwitch(db, target.userId, target.switch, clock.now());
  }
  return described(target);
}

/** Whether e-mail and SMS can act on this server (every signed-in user's Notifications tab). */
export function deliveryChannels(config: Config) {
  return { email: emailConfigured(config), sms: smsConfigured(config) };
}
