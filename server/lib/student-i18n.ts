import i18next, { type TFunction } from 'i18next';
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
