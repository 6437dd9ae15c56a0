// The import columns' model: a column, its validation rule and that rule in words, and how header spellings compare.
import { DAY_OF_WEEK, SYNC_STATUSES, type UploadType } from './constants.ts';

type RefTarget = 'programs' | 'courses' | 'instructors';

export type ColumnRule =
  | { kind: 'text'; max: number }
  | { kind: 'email' }
  | { kind: 'phone' }
  | { kind: 'url' }
  | { kind: 'date' }
  | { kind: 'datetime' }
  | { kind: 'time' }
  | { kind: 'integer'; min: number; max: number }
  | { kind: 'decimal'; min: number; max: number }
  | { kind: 'enum'; values: readonly string[]; default?: string }
  | { kind: 'boolean'; default?: boolean }
  | { kind: 'yesNo' }
  | { kind: 'dayOfWeek' }
  | { kind: 'idList' }
  | { kind: 'dateList' }
  | { kind: 'ssn' }
  | { kind: 'ref'; target: RefTarget };

export type ImportColumn = {
  name: string;
  required: boolean;
  /** A column that carries SIS integration data (identifiers, sync state). */
  sis: boolean;
  /** Other header spellings accepted for this column (snake_case always; documentation names). */
  aliases: readonly string[];
  /** A required column that another column may stand in for (cohortNumber, or cohortName): one of the two per row. */
  alternative?: string;
  rule: ColumnRule;
  description: string;
  /** One value per template row; a blank string is an empty cell. */
  samples: readonly string[];
};

export type ImportTypeDefinition = {
  type: UploadType;
  /** Wizard step (1–5) and the steps that must be completed first (SPEC §4). */
  step: number;
  label: string;
  prerequisites: readonly number[];
  /** The column whose value identifies a record: re-importing updates by it. */
  key: string;
  templateFile: string;
  /** What an import of this type does beyond storing the rows. */
  notes: readonly string[];
  columns: readonly ImportColumn[];
};

export const snakeCase = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** Header spellings compared without case, spaces, underscores or hyphens: sis_student_id = sisStudentId. */
export const normaliseHeader = (h: string) => h.toLowerCase().replace(/[\s_-]/g, '');

type ColumnOptions = { required?: boolean; sis?: boolean; aliases?: readonly string[]; alternative?: string };
export function col(name: string, rule: ColumnRule, description: string, samples: readonly string[], o: ColumnOptions = {}): ImportColumn {
  const snake = snakeCase(name);
  return {
    name,
    required: o.required ?? false,
    sis: o.sis ?? false,
    aliases: [...(snake !== name ? [snake] : []), ...(o.aliases ?? [])],
    ...(o.alternative ? { alternative: o.alternative } : {}),
    rule,
    description,
    samples,
  };
}

export const text = (max: number): ColumnRule => ({ kind: 'text', max });

/** Human text of a rule, for the Templates tab and error messages. */
export function ruleText(rule: ColumnRule): string {
  switch (rule.kind) {
    case 'text':
      return `Text, at most ${rule.max} characters`;
    case 'email':
      return 'A valid e-mail address';
    case 'phone':
      return 'Phone number, any format';
    case 'url':
      return 'A web address starting with http:// or https://';
    case 'date':
      return 'Date YYYY-MM-DD (or YYYY-MM-DD HH:MM:SS); M/D/YYYY accepted';
    case 'datetime':
      return 'Date YYYY-MM-DD or date and time YYYY-MM-DD HH:MM:SS; M/D/YYYY accepted';
    case 'time':
      return 'Time HH:MM (24-hour)';
    case 'integer':
      return `Whole number from ${rule.min} to ${rule.max}`;
    case 'decimal':
      return `Number from ${rule.min} to ${rule.max}`;
    case 'enum':
      return `One of ${rule.values.join(', ')}`;
    case 'boolean':
      return 'true or false (Yes/No, 1/0 accepted)';
    case 'yesNo':
      return 'Yes or No';
    case 'dayOfWeek':
      return `Day of week ${DAY_OF_WEEK.min} (Sunday) to ${DAY_OF_WEEK.max} (Saturday); day names accepted`;
    case 'idList':
      return 'JSON array of course IDs or SIS course IDs, such as [1,2,3] or []';
    case 'dateList':
      return 'Dates YYYY-MM-DD (or M/D/YYYY) separated by spaces';
    case 'ssn':
      return 'Nine digits, such as 123-45-6789';
    case 'ref':
      return rule.target === 'instructors'
        ? 'SIS user ID, user ID or e-mail of an instructor'
        : `SIS ID or numeric ID of an existing ${rule.target.slice(0, -1)}`;
  }
}

/** The sync columns every SIS-owned type has. */
export const SYNC_STATUS: ColumnRule = { kind: 'enum', values: SYNC_STATUSES, default: 'pending' };
export const syncDate = (samples: readonly string[]) =>
  col('lastSyncDate', { kind: 'datetime' }, 'When the SIS last synchronised this record (school time unless an offset is given).', samples, { sis: true });
