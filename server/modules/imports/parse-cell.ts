import { z } from 'zod';
import { DAY_OF_WEEK } from '../../../common/constants.ts';
import type { ImportColumn } from '../../../common/import-column-rules.ts';
import { DAY_NAMES } from '../../../common/schedules.ts';
import type { DateReading } from './dates.ts';

// Cell parsing by a column's rule (common/import-columns.ts): server only, the rules' texts for
// people live beside the rules in ruleText.

export type CellValue = string | number | boolean | null | readonly string[] | readonly (number | string)[];
type CellResult = { ok: true; value: CellValue } | { ok: false; message: string };

const ok = (value: CellValue): CellResult => ({ ok: true, value });
const fail = (message: string): CellResult => ({ ok: false, message });

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;
/** A real calendar date within years PostgreSQL and people agree on. */
function isRealDate(v: string): boolean {
  const m = DATE_RE.exec(v);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (y < 1900 || y > 2200 || mo < 1 || mo > 12 || d < 1) return false;
  return d <= new Date(Date.UTC(y, mo, 0)).getUTCDate();
}

const DATETIME_RE = /^(\d{4}-\d{2}-\d{2})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2})(?:\.\d{1,6})?)?)?\s*(Z|[+-]\d{2}:?\d{2})?$/i;

/** 'YYYY-MM-DD', optionally with HH:MM[:SS] and an offset; null when not one. */
function parseDateTime(v: string): { date: string; hours: number; minutes: number; seconds: number; offset: string | null } | null {
  const m = DATETIME_RE.exec(v);
  if (!m || !isRealDate(m[1]!)) return null;
  const hours = Number(m[2] ?? 0);
  const minutes = Number(m[3] ?? 0);
  const seconds = Number(m[4] ?? 0);
  if (hours > 23 || minutes > 59 || seconds > 59) return null;
  if (m[5] && !m[2]) return null;
  return { date: m[1]!, hours, minutes, seconds, offset: m[5] ? m[5].toUpperCase() : null };
}

const EMAIL = z.email();
const TIME_RE = /^(\d{1,2}):(\d{2})(?::(\d{2}))?\s*([AaPp][Mm])?$/;

function parseNumber(raw: string): number | null {
  const cleaned = /^\$?\d{1,3}(,\d{3})+(\.\d+)?$/.test(raw) ? raw.replace(/[$,]/g, '') : raw.replace(/^\$/, '');
  if (!/^[+-]?(\d+(\.\d*)?|\.\d+)$/.test(cleaned)) return null;
  const n = Number(cleaned);
  return Number.isFinite(n) ? n : null;
}

function formatPhone(raw: string): string {
  const digits = raw.replace(/\D/g, '');
  const ten = digits.length === 11 && digits.startsWith('1') ? digits.slice(1) : digits;
  if (ten.length === 10 && /^[\d\s().+-]+$/.test(raw)) return `(${ten.slice(0, 3)}) ${ten.slice(3, 6)}-${ten.slice(6)}`;
  return raw;
}

const BOOLEAN_WORDS: Record<string, boolean> = { true: true, false: false, yes: true, no: false, y: true, n: false, '1': true, '0': false };
const DAY_LOOKUP = new Map<string, number>(DAY_NAMES.flatMap((d, i) => [[d.toLowerCase(), i] as const, [d.slice(0, 3).toLowerCase(), i] as const]));

/** Where a cell is, and how its file reads dates (8/24/2026, Excel serials: dates.ts). */
type CellContext = { row: number; dates: DateReading };

/**
 * Parse one trimmed, non-empty cell by its column's rule. Blank cells are handled by the caller
 * (required check, default value). Messages name the rule, never echo more than needed.
 */
export function parseCell(column: ImportColumn, raw: string, at: CellContext): CellResult {
  const rule = column.rule;
  const name = column.name;
  if (raw.includes('\u0000')) return fail(`${name} contains a NUL character`);
  const dateOf = (v: string) => at.dates.normalise(v, at.row, name);
  switch (rule.kind) {
    case 'text':
      return raw.length > rule.max ? fail(`${name} must be at most ${rule.max} characters`) : ok(raw);
    case 'ref':
      return raw.length > 254 ? fail(`${name} must be at most 254 characters`) : ok(raw);
    case 'email':
      return raw.length <= 254 && EMAIL.safeParse(raw).success ? ok(raw) : fail(`${name} must be a valid e-mail address`);
    case 'phone': {
      const digits = raw.replace(/\D/g, '').length;
      if (raw.length > 40 || digits < 7 || digits > 15 || !/^[\d\s().+\-/]+(\s*(ext\.?|x)\s*\d+)?$/i.test(raw)) {
        return fail(`${name} must be a phone number (7 to 15 digits)`);
      }
      return ok(formatPhone(raw));
    }
    case 'url': {
      if (raw.length > 500) return fail(`${name} must be at most 500 characters`);
      try {
        const u = new URL(raw);
        if (u.protocol === 'http:' || u.protocol === 'https:') return ok(raw);
      } catch {
        // fall through
      }
      return fail(`${name} must be a web address starting with http:// or https://`);
    }
    case 'date': {
      const read = dateOf(raw);
      if (!read.ok) return fail(read.message);
      const dt = parseDateTime(read.value);
      return dt && !dt.offset ? ok(dt.date) : fail(`${name} must be a date YYYY-MM-DD (or YYYY-MM-DD HH:MM:SS, or M/D/YYYY)`);
    }
    case 'datetime': {
      const read = dateOf(raw);
      if (!read.ok) return fail(read.message);
      const dt = parseDateTime(read.value);
      if (!dt) return fail(`${name} must be a date YYYY-MM-DD or YYYY-MM-DD HH:MM:SS (or M/D/YYYY)`);
      const pad = (n: number) => String(n).padStart(2, '0');
      return ok(`${dt.date}T${pad(dt.hours)}:${pad(dt.minutes)}:${pad(dt.seconds)}${dt.offset ?? ''}`);
    }
    case 'time': {
      const m = TIME_RE.exec(raw);
      if (!m) return fail(`${name} must be a time HH:MM`);
      let h = Number(m[1]);
      const min = Number(m[2]);
      const ampm = m[4]?.toLowerCase();
      if (ampm) {
        if (h < 1 || h > 12) return fail(`${name} must be a time HH:MM`);
        h = (h % 12) + (ampm === 'pm' ? 12 : 0);
      }
      if (h > 23 || min > 59 || Number(m[3] ?? 0) > 59) return fail(`${name} must be a time HH:MM`);
      return ok(`${String(h).padStart(2, '0')}:${String(min).padStart(2, '0')}`);
    }
    case 'integer': {
      if (!/^[+-]?\d{1,12}(\.0+)?$/.test(raw)) return fail(`${name} must be a whole number from ${rule.min} to ${rule.max}`);
      const n = Number.parseInt(raw, 10);
      return n < rule.min || n > rule.max ? fail(`${name} must be between ${rule.min} and ${rule.max}`) : ok(n);
    }
    case 'decimal': {
      const n = raw.length > 30 ? null : parseNumber(raw);
      if (n === null) return fail(`${name} must be a number from ${rule.min} to ${rule.max}`);
      return n < rule.min || n > rule.max ? fail(`${name} must be between ${rule.min} and ${rule.max}`) : ok(n);
    }
    case 'enum': {
      const found = rule.values.find((v) => v.toLowerCase() === raw.toLowerCase());
      return found ? ok(found) : fail(`${name} must be one of ${rule.values.join(', ')}`);
    }
    case 'boolean': {
      const b = BOOLEAN_WORDS[raw.toLowerCase()];
      return b === undefined ? fail(`${name} must be true or false (Yes/No)`) : ok(b);
    }
    case 'yesNo': {
      const v = raw.toLowerCase();
      return v === 'yes' ? ok(true) : v === 'no' ? ok(false) : fail(`${name} must be Yes or No`);
    }
    case 'dayOfWeek': {
      if (/^\d+$/.test(raw)) {
        const n = Number(raw);
        return n >= DAY_OF_WEEK.min && n <= DAY_OF_WEEK.max
          ? ok(n)
          : fail(`${name} must be between ${DAY_OF_WEEK.min} (Sunday) and ${DAY_OF_WEEK.max} (Saturday)`);
      }
      const day = DAY_LOOKUP.get(raw.toLowerCase());
      return day === undefined ? fail(`${name} must be one day: ${DAY_OF_WEEK.min} (Sunday) to ${DAY_OF_WEEK.max} (Saturday)`) : ok(day);
    }
    case 'idList': {
      let parsed: unknown;
      try {
        parsed = raw.length > 5000 ? undefined : JSON.parse(raw);
      } catch {
        parsed = undefined;
      }
      const valid =
        Array.isArray(parsed) &&
        parsed.length <= 50 &&
        parsed.every(
          (v) =>
            (typeof v === 'number' && Number.isInteger(v) && v > 0 && v < 2 ** 31) ||
            (typeof v === 'string' && v.trim() !== '' && v.length <= 100 && !v.includes('\u0000')),
        );
      if (!valid) return fail(`${name} must be a JSON array of course IDs, such as [1,2,3] or []`);
      return ok([...new Set((parsed as (number | string)[]).map((v) => (typeof v === 'string' ? v.trim() : v)))]);
    }
    case 'dateList': {
      const parts = raw.split(/[\s,;]+/).filter(Boolean);
      if (parts.length > 366) return fail(`${name} may list at most 366 dates`);
      const dates: string[] = [];
      for (const p of parts) {
        const read = dateOf(p);
        if (!read.ok) return fail(read.message);
        if (!isRealDate(read.value)) return fail(`${name} must be dates YYYY-MM-DD (or M/D/YYYY) separated by spaces`);
        dates.push(read.value);
      }
      return ok([...new Set(dates)].sort());
    }
    case 'ssn': {
      if (!/^\d{3}-?\d{2}-?\d{4}$/.test(raw)) return fail(`${name} must be nine digits, such as 123-45-6789`);
      return ok(raw.replace(/-/g, ''));
    }
  }
}
