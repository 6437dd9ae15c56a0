import i18next, { type TFunction } from 'i18next';
import { standingRecordMessage } from '../../common/attendance.ts';
import { ATTENDANCE_STATUSES, type AttendanceStatus } from '../../common/constants.ts';
import { STUDENT_LANGUAGES, STUDENT_TEXTS, type StudentLanguage, type StudentTextKey } from '../../common/student-texts.ts';

/** The student catalogue through i18next: placeholders, plural rules and fallback to English. */
const i18n = i18next.createInstance();
void i18n.init({
  initAsync: false,
  resources: Object.fromEntries(STUDENT_LANGUAGES.map((lng) => [lng, { student: STUDENT_TEXTS[lng] }])),
  ns: ['student'],
  defaultNS: 'student',
  fallbackLng: 'en',
  supportedLngs: [...STUDENT_LANGUAGES],
  // Texts come out plain; HTML pages escape what they print.
  interpolation: { escapeValue: false },
});

export type StudentT = (key: StudentTextKey, values?: Record<string, string | number>) => string;

/** A translator fixed to one language. */
export function studentT(language: StudentLanguage): StudentT {
  const t: TFunction = i18n.getFixedT(language);
  return (key, values) => t(key, values ?? {});
}

const isLanguage = (v: unknown): v is StudentLanguage => typeof v === 'string' && (STUDENT_LANGUAGES as readonly string[]).includes(v);

/**
 * The language a student's page speaks: an explicit choice (the page's switch) first, then the
 * browser's Accept-Language in its order of preference, then English.
 */
export function pickStudentLanguage(chosen: unknown, acceptLanguage: string | undefined): StudentLanguage {
  if (isLanguage(chosen)) return chosen;
  const ranked = (acceptLanguage ?? '')
    .split(',')
    .map((part, i) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      return { base: tag.toLowerCase().split('-')[0]!, q: q ? Number(q.slice(2)) || 0 : 1, i };
    })
    .filter((l) => l.q > 0)
    .sort((a, b) => b.q - a.q || a.i - b.i);
  return ranked.map((l) => l.base).find(isLanguage) ?? 'en';
}

const STATUS_KEYS: Record<AttendanceStatus, StudentTextKey> = {
  present: 'statusPresent',
  late: 'statusLate',
  absent: 'statusAbsent',
  incomplete: 'statusIncomplete',
  excused: 'statusExcused',
};

/** An attendance status as a student reads it ("Absent", "Ausente"). */
export const statusLabel = (t: StudentT, status: AttendanceStatus): string => t(STATUS_KEYS[status]);

// The check-in API's answers are English (SPEC §8 fixes them, and API clients read them): a page in
// another language shows each by its catalogue key, found from the English text.
const API_ANSWER_KEYS = [
  'sessionNotFoundText',
  'sessionExpiredText',
  'sessionEndedText',
  'scanOpenLink',
  'scanStaleCode',
  'scanNoMatch',
  'scanDeviceUsed',
  'scanCodeOrDetails',
  'scanTooManyCodes',
  'scanCheckedIn',
  'scanCheckedInLate',
  'scanCheckedOut',
  'scanCheckedOutEarly',
  'scanRecordedByInstructor',
  'scanAlreadyCheckedIn',
  'scanConfirmCheckOut',
  'scanNotCheckedIn',
  'scanBreakStarted',
  'scanLunchStarted',
  'scanBreakEnded',
  'scanLunchEnded',
  'scanBreakNotCheckedIn',
  'scanBreakAfterCheckOut',
  'scanAlreadyOnBreak',
  'scanCheckOutOnBreak',
  'scanNotOnBreak',
  'scanCodeNoMatch',
  'scanTypeSixDigits',
  'submitFailed',
] as const satisfies readonly StudentTextKey[];
const answersByLanguage = new Map<StudentLanguage, Map<string, string>>();

/**
 * The English answers of the public check-in routes, each with its text in `language`: the scan
 * pages show them translated, and hand the same table to their script for the answers it reads.
 */
export function checkInAnswers(language: StudentLanguage): ReadonlyMap<string, string> {
  let answers = answersByLanguage.get(language);
  if (!answers) {
    const en = studentT('en');
    const t = studentT(language);
    answers = new Map(API_ANSWER_KEYS.map((key) => [en(key), t(key)]));
    for (const status of ATTENDANCE_STATUSES) {
      const values = { status: statusLabel(t, status) };
      answers.set(standingRecordMessage(status, true), t('scanStandingByInstructor', values));
      answers.set(standingRecordMessage(status, false), t('scanStanding', values));
    }
    answersByLanguage.set(language, answers);
  }
  return answers;
}

/** An answer of the check-in routes in the student's language (as it is, when the catalogue lacks it). */
export const translateAnswer = (language: StudentLanguage, message: string): string => checkInAnswers(language).get(message) ?? message;
