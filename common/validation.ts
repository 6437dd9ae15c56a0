import { z } from 'zod';

// Shared primitives for every input from outside. Each one refuses, with a 400 naming the field,
// what PostgreSQL or the server would otherwise fail on with a 500: integers past the `integer`
// column, dates that do not exist, keys that are prototype properties, text PostgreSQL cannot store.

/** The largest PostgreSQL `integer` (serial ids and counts); one more overflows in SQL. */
export const MAX_INT32 = 2_147_483_647;

// ---- Text ----

const UNPAIRED_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
export const UNSTORABLE_TEXT = 'must not contain NUL characters or broken Unicode';

/**
 * Text PostgreSQL can store: `text` and `jsonb` refuse NUL (\u0000), and `jsonb` refuses an
 * unpaired UTF-16 surrogate (audit entries keep values as jsonb).
 */
export function isStorableText(v: string): boolean {
  return !v.includes('\u0000') && !UNPAIRED_SURROGATE.test(v);
}

/**
 * The path of the first string (or object key) in a parsed body, query or params that PostgreSQL
 * could not store, or null. The server's validator runs this before every route schema, so no
 * string field anywhere needs to remember it.
 */
export function findUnstorableText(value: unknown, path: (string | number)[] = [], depth = 0): (string | number)[] | null {
  if (typeof value === 'string') return isStorableText(value) ? null : path;
  if (depth > 64 || value === null || typeof value !== 'object') return null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findUnstorableText(value[i], [...path, i], depth + 1);
      if (found) return found;
    }
    return null;
  }
  for (const [key, v] of Object.entries(value)) {
    if (!isStorableText(key)) return [...path, key];
    const found = findUnstorableText(v, [...path, key], depth + 1);
    if (found) return found;
  }
  return null;
}

/** Optional text from a form or API: blank becomes null, so "" never lands in the database. */
export const optionalText = (max = 500) =>
  z
    .string()
    .trim()
    .max(max, `Must be at most ${max} characters`)
    .nullish()
    .transform((v) => (v ? v : null));

export const requiredText = (label: string, max = 200) =>
  z
    .string({ error: `${label} is required` })
    .trim()
    .min(1, `${label} is required`)
    .max(max, `${label} must be at most ${max} characters`);

/** The longest e-mail address SMTP carries; longer ones would also overflow the e-mail indexes. */
const EMAIL_MAX = 254;
const email = () => z.email('Enter a valid e-mail address').max(EMAIL_MAX, `E-mail must be at most ${EMAIL_MAX} characters`);

/** A required e-mail address (trimmed). */
export const emailAddress = (required = 'Email is required') => z.string({ error: required }).trim().min(1, required).pipe(email());

export const optionalEmail = z
  .string()
  .trim()
  .nullish()
  .transform((v) => (v ? v : null))
  .pipe(email().nullable());

/**
 * A token, pass or code made by the server: only its alphabet is accepted (base64url, plus `.`
 * and spaces where `extra` says), so a non-ASCII look-alike never reaches a byte comparison.
 */
export const tokenText = (label: string, opts: { max: number; min?: number; extra?: '.' | ' ' }) => {
  const pattern = opts.extra === '.' ? /^[A-Za-z0-9_.-]*$/ : opts.extra === ' ' ? /^[A-Za-z0-9_ -]*$/ : /^[A-Za-z0-9_-]*$/;
  return z
    .string({ error: `${label} is required` })
    .min(opts.min ?? 1, `${label} is required`)
    .max(opts.max, `${label} is too long`)
    .regex(pattern, `${label} is not valid: it has characters a code from this server never has`);
};

// ---- Dates ----

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;
/** Dates the school can mean (and PostgreSQL stores): 1900 to 2200. */
export const DATE_YEARS = { min: 1900, max: 2200 } as const;

/** A YYYY-MM-DD that exists on the calendar (no 2026-02-30, no month 13, no year 0). */
function isCalendarDate(v: string): boolean {
  const m = DATE_RE.exec(v);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (y < DATE_YEARS.min || y > DATE_YEARS.max || mo < 1 || mo > 12 || d < 1) return false;
  return d <= new Date(Date.UTC(y, mo, 0)).getUTCDate();
}

/** A calendar date YYYY-MM-DD; every date field and date query parameter uses this. */
export const isoDate = (label: string) =>
  z
    .string({ error: `${label} is required` })
    .regex(DATE_RE, `${label} must be a date (YYYY-MM-DD)`)
    .refine(isCalendarDate, `${label} is not a real date`);

/** An optional calendar date: blank and missing are null. */
export const optionalIsoDate = (label: string) =>
  z
    .string()
    .nullish()
    .transform((v) => (v ? v : null))
    .pipe(isoDate(label).nullable());

/** An optional calendar date in a query string: absent or blank is undefined. */
export const queryDate = (label: string) =>
  z
    .string()
    .optional()
    .transform((v) => (v ? v : undefined))
    .pipe(isoDate(label).optional());

/** An ISO 8601 date and time (e.g. a phone's clock) within the years PostgreSQL and the school use. */
export const isoDateTime = (label: string) =>
  z
    .string({ error: `${label} is required` })
    .max(64, `${label} must be an ISO date and time`)
    .refine((v) => {
      if (!/^\d{4}-\d{2}-\d{2}/.test(v) || !isCalendarDate(v.slice(0, 10))) return false;
      const t = Date.parse(v);
      return Number.isFinite(t) && new Date(t).getUTCFullYear() >= DATE_YEARS.min && new Date(t).getUTCFullYear() <= DATE_YEARS.max;
    }, `${label} must be an ISO date and time such as 2026-03-02T14:05:00Z`);

export const CLOCK_TIME = /^([01]\d|2[0-3]):[0-5]\d(:[0-5]\d)?$/;
/** A time of day HH:MM (seconds accepted and dropped). */
export const clockTime = (label: string) =>
  z
    .string({ error: `${label} is required` })
    .regex(CLOCK_TIME, `${label} must be a time (HH:MM)`)
    .transform((v) => v.slice(0, 5));

// ---- Numbers and ids ----

/**
 * A number that may arrive as a numeric string (SPEC: decimal fields such as clockHours are often
 * sent as "60.5"). Blank strings count as absent.
 */
export const numberLike = <T extends z.ZodType>(inner: T) =>
  z.preprocess((v) => (typeof v === 'string' ? (v.trim() === '' ? null : /^-?\d+(\.\d+)?$/.test(v.trim()) ? Number(v) : v) : v), inner);

const idNumber = (invalid: string, required?: string) =>
  z
    .number({ error: (iss) => (iss.input == null && required) || invalid })
    .int(invalid)
    .min(1, invalid)
    .max(MAX_INT32, invalid);

/**
 * A record id: a positive PostgreSQL integer (1 to 2,147,483,647), as a number or a numeric
 * string. `required` is the message when it is missing; `invalid` when it is not an id.
 */
export const dbId = (label: string, messages: { required?: string; invalid?: string } = {}) =>
  numberLike(idNumber(messages.invalid ?? `${label} must be a positive integer up to ${MAX_INT32}`, messages.required));

/** An id that may be null or absent (becomes null). */
export const optionalDbId = (label: string, messages: { invalid?: string } = {}) =>
  numberLike(idNumber(messages.invalid ?? `${label} must be a positive integer up to ${MAX_INT32}`).nullish()).transform((v) => v ?? null);

/** A whole number that fits a PostgreSQL integer column, within [min, max]. */
export const int32 = (label: string, min = 0, max = MAX_INT32) =>
  z
    .number({ error: `${label} must be a whole number` })
    .int(`${label} must be a whole number`)
    .min(min, `${label} must be at least ${min}`)
    .max(max, `${label} must be at most ${max}`);

/** A whole number from a query string (digits only), within [min, max]. */
export const queryInt = (label: string, min: number, max: number) =>
  z
    .string()
    .regex(/^\d{1,10}$/, `${label} must be a whole number from ${min} to ${max}`)
    .transform(Number)
    .pipe(z.number().int().min(min, `${label} must be at least ${min}`).max(max, `${label} must be at most ${max}`));

export const idParam = z.object({ id: dbId('id', { invalid: 'id must be a positive integer' }) });

// ---- Lists ----

/**
 * List queries: all optional; without page/pageSize the whole list is returned (SPEC clients
 * expect arrays). `sort` is one of the list's own keys (a zod enum), never a free string looked up
 * in an object, so `?sort=constructor` is a 400 rather than a prototype property.
 */
export const listQueryFor = <const K extends readonly [string, ...string[]]>(sortKeys: K) =>
  z.object({
    search: z.string().trim().max(200).optional(),
    sort: z.enum(sortKeys, { error: `sort must be one of ${sortKeys.join(', ')}` }).optional(),
    order: z.enum(['asc', 'desc'], { error: 'order must be asc or desc' }).optional(),
    page: queryInt('page', 1, 1_000_000).optional(),
    pageSize: queryInt('pageSize', 1, 500).optional(),
  });
export type ListQuery = { search?: string; sort?: string; order?: 'asc' | 'desc'; page?: number; pageSize?: number };

export const TOTAL_COUNT_HEADER = 'x-total-count';

/** The `{ ok: true }` answer of actions that return nothing else (sign in and out, set password, end a session). */
export const okSchema = z.object({ ok: z.literal(true) });
