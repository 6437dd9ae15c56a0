import { z } from 'zod';
import { CREDENTIAL_TYPES, PROGRAM_HOURS, PROGRAM_STATUSES, SPEC_PROGRAM_HOURS } from './constants.ts';
import { int32, optionalIsoDate, optionalText, requiredText } from './validation.ts';

const num = (label: string, min: number, max: number) =>
  z
    .number({ error: `${label} must be a number` })
    .min(min, `${label} must be at least ${min}`)
    .max(max, `${label} must be at most ${max}`);

// ---- Clock hours (docs/decisions/040-program-and-course-hours.md) ----

type HoursBound = { readonly min: number; readonly max: number; readonly step: number };
type HoursRange = { readonly min: number; readonly max: number };
/** Hours as people read them: 1,500 · 37.5. */
export const formatHours = (n: number) => n.toLocaleString('en-US', { maximumFractionDigits: 1 });
const between = (label: string, b: HoursRange) => `${label} must be between ${formatHours(b.min)} and ${formatHours(b.max)}`;

/**
 * A number of clock hours within the bound's range. Its steps are `hoursProblem`'s, which lets a
 * record keep the hours it already has.
 */
export function hoursNumber(label: string, bound: HoursBound) {
  return z
    .number({ error: `${label} must be a number` })
    .min(bound.min, between(label, bound))
    .max(bound.max, between(label, bound));
}

/**
 * The one rule for clock hours someone enters, on every path (import, API, form, the program's
 * policy): within the bound, in its steps. A record keeps the hours it already has (`current`),
 * so a value stored before this rule (an import's 37.3) still saves unchanged (decision 012).
 */
export function hoursProblem(label: string, value: number | null | undefined, bound: HoursBound, current?: number | null): string | null {
  if (value == null || value === current) return null;
  if (!(value >= bound.min && value <= bound.max)) return between(label, bound);
  if (!Number.isInteger(value / bound.step)) return `${label} must be in steps of ${bound.step}`;
  return null;
}

/** SPEC's documented range is advice, not a rule: outside it the hours are saved, with this note. */
export function hoursWarning(value: number | null | undefined, spec: HoursRange, what: string, check: string): string | null {
  if (value == null || (value >= spec.min && value <= spec.max)) return null;
  return `${formatHours(value)} hours is outside the ${formatHours(spec.min)}–${formatHours(spec.max)} hours usually documented for ${what}. That is allowed: check it is ${check}.`;
}

/** A program's hours (durationHours, and its policy's programHours: the same figure). */
export const programHoursProblem = (value: number | null | undefined, current?: number | null, label = 'Duration hours') =>
  hoursProblem(label, value, PROGRAM_HOURS, current);
export const programHoursWarning = (value: number | null | undefined) =>
  hoursWarning(value, SPEC_PROGRAM_HOURS, 'a program', 'the program’s total clock hours');

/** A note on a saved value that was accepted (an answer's `warnings`). */
export const fieldWarningSchema = z.object({ field: z.string(), message: z.string() });
export type FieldWarning = z.infer<typeof fieldWarningSchema>;

export const programSchema = z.object({
  id: z.number().int(),
  programName: z.string(),
  programCode: z.string().nullable(),
  sisProgramId: z.string().nullable(),
  durationHours: z.number().nullable(),
  credentialType: z.string().nullable(),
  description: z.string().nullable(),
  status: z.string(),
  startDate: z.string().nullable(),
  endDate: z.string().nullable(),
  accreditationBody: z.string().nullable(),
  programDirector: z.string().nullable(),
  tuitionCost: z.number().nullable(),
  capacity: z.number().nullable(),
  campusLocation: z.string().nullable(),
  externalProgramId: z.string().nullable(),
  regulatoryCode: z.string().nullable(),
  syncStatus: z.string(),
});
export type Program = z.infer<typeof programSchema>;

export const programInputSchema = z
  .object({
    programName: requiredText('Program name'),
    programCode: optionalText(50),
    sisProgramId: optionalText(100),
    // Left out of a PUT: the program keeps its hours (they are the ledger's programHours); null clears them.
    durationHours: hoursNumber('Duration hours', PROGRAM_HOURS).nullish(),
    credentialType: z
      .enum(CREDENTIAL_TYPES, { error: `Credential type must be one of ${CREDENTIAL_TYPES.join(', ')}` })
      .nullish()
      .transform((v) => v ?? null),
    description: optionalText(2000),
    status: z.enum(PROGRAM_STATUSES, { error: `Status must be one of ${PROGRAM_STATUSES.join(', ')}` }).default('active'),
    startDate: optionalIsoDate('Start date'),
    endDate: optionalIsoDate('End date'),
    accreditationBody: optionalText(200),
    programDirector: optionalText(200),
    tuitionCost: num('Tuition cost', 0, 10_000_000)
      .nullish()
      .transform((v) => v ?? null),
    capacity: int32('Capacity')
      .nullish()
      .transform((v) => v ?? null),
    campusLocation: optionalText(200),
    externalProgramId: optionalText(100),
    regulatoryCode: optionalText(100),
  })
  .refine((p) => !p.startDate || !p.endDate || p.endDate >= p.startDate, { path: ['endDate'], message: 'End date must not be before the start date' });
export type ProgramInput = z.output<typeof programInputSchema>;

/** The program form's check: the contract plus the hours rule against the program's stored hours. */
export function programFormSchema(currentHours?: number | null) {
  return programInputSchema.superRefine((input, ctx) => {
    const problem = programHoursProblem(input.durationHours, currentHours);
    if (problem) ctx.addIssue({ code: 'custom', path: ['durationHours'], message: problem });
  });
}

/** POST and PUT /api/programs: the saved program, and notes on values accepted outside SPEC's ranges. */
export const programSavedSchema = programSchema.extend({ warnings: z.array(fieldWarningSchema) });
export type ProgramSaved = z.infer<typeof programSavedSchema>;
