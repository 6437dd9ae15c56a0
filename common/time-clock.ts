import { z } from 'zod';
import { isoDate } from './validation.ts';

// Time-clock rules per program (COMPLIANCE.md "Time-clock rules"; decision 050): how the
// ledger turns a meeting's punches into clock minutes. Minutes are whole numbers throughout.

export const MISSING_CHECK_OUT_POLICIES = ['no_credit', 'credit_to_scheduled_end', 'auto_check_out_flagged'] as const;
export type MissingCheckOutPolicy = (typeof MISSING_CHECK_OUT_POLICIES)[number];
export const ROUNDING_MODES = ['none', 'nearest', 'down', 'up'] as const;
export type RoundingMode = (typeof ROUNDING_MODES)[number];

/** Each rule in one sentence, for the Programs screen and the API description. */
export const TIME_CLOCK_RULE_TEXTS = {
  missingCheckOut: {
    no_credit: 'A meeting without a check-out earns nothing until staff correct it; the minutes it would have earned are shown as pending an exception.',
    credit_to_scheduled_end: 'A meeting without a check-out earns minutes up to the class end (Muster’s behaviour before time-clock rules).',
    auto_check_out_flagged: 'A meeting without a check-out is checked out at the class end and flagged for review.',
  },
  rounding: {
    none: 'Punches count to the minute.',
    nearest: 'Each punch moves to the nearest mark of the rounding interval, counted from the class start.',
    down: 'Each punch moves back to the previous mark of the rounding interval, counted from the class start.',
    up: 'Each punch moves on to the next mark of the rounding interval, counted from the class start.',
  },
  graceMinutes: 'A check-in up to this many minutes after the start counts from the start; a check-in before the start always does.',
  mealDeduction: 'After this many minutes of continuous attendance without a break punch, the meal minutes are deducted.',
  dailyMaxMinutes: 'At most this many minutes count in a day; the rest are kept and shown as capped.',
  weeklyMaxMinutes: 'At most this many minutes count in a week (Sunday to Saturday); the rest are kept and shown as capped.',
  effectiveFrom: 'The rules apply from this date; days before it keep the rules in force then.',
} as const;

const whole = (label: string, min: number, max: number) =>
  z
    .number({ error: `${label} must be a whole number` })
    .int(`${label} must be a whole number`)
    .min(min, `${label} must be at least ${min}`)
    .max(max, `${label} must be at most ${max}`);

export const mealDeductionSchema = z
  .object({
    afterMinutes: whole('afterMinutes', 60, 960),
    minutes: whole('minutes', 1, 120),
  })
  .strict();

export const timeClockRulesSchema = z.object({
  missingCheckOut: z.enum(MISSING_CHECK_OUT_POLICIES, { error: `missingCheckOut must be one of ${MISSING_CHECK_OUT_POLICIES.join(', ')}` }),
  rounding: z.enum(ROUNDING_MODES, { error: `rounding must be one of ${ROUNDING_MODES.join(', ')}` }),
  roundingMinutes: whole('roundingMinutes', 1, 30),
  graceMinutes: whole('graceMinutes', 0, 60),
  mealDeduction: mealDeductionSchema.nullable(),
  dailyMaxMinutes: whole('dailyMaxMinutes', 60, 1440).nullable(),
  weeklyMaxMinutes: whole('weeklyMaxMinutes', 60, 10_080).nullable(),
});
export type TimeClockRules = z.infer<typeof timeClockRulesSchema>;

/** A program without a version of its own (a program created since time-clock rules exist). */
export const NEW_PROGRAM_TIME_CLOCK: TimeClockRules = {
  missingCheckOut: 'no_credit',
  rounding: 'none',
  roundingMinutes: 15,
  graceMinutes: 0,
  mealDeduction: null,
  dailyMaxMinutes: null,
  weeklyMaxMinutes: null,
};

/**
 * Muster's behaviour before time-clock rules: what migration 0026 gave every program that existed,
 * and what a ledger without a program counts by, so no history changes silently.
 */
export const LEGACY_TIME_CLOCK: TimeClockRules = { ...NEW_PROGRAM_TIME_CLOCK, missingCheckOut: 'credit_to_scheduled_end' };

/**
 * PUT /api/programs/{id}/time-clock: a new version of the rules from effectiveFrom (default: today
 * in the school's time zone). A rule left out takes the new-program default.
 */
export const timeClockInputSchema = z
  .object({
    missingCheckOut: timeClockRulesSchema.shape.missingCheckOut.default(NEW_PROGRAM_TIME_CLOCK.missingCheckOut),
    rounding: timeClockRulesSchema.shape.rounding.default(NEW_PROGRAM_TIME_CLOCK.rounding),
    roundingMinutes: timeClockRulesSchema.shape.roundingMinutes.default(NEW_PROGRAM_TIME_CLOCK.roundingMinutes),
    graceMinutes: timeClockRulesSchema.shape.graceMinutes.default(NEW_PROGRAM_TIME_CLOCK.graceMinutes),
    mealDeduction: timeClockRulesSchema.shape.mealDeduction.default(null),
    dailyMaxMinutes: timeClockRulesSchema.shape.dailyMaxMinutes.default(null),
    weeklyMaxMinutes: timeClockRulesSchema.shape.weeklyMaxMinutes.default(null),
    effectiveFrom: isoDate('effectiveFrom').optional(),
  })
  .strict()
  .refine((p) => p.dailyMaxMinutes == null || p.weeklyMaxMinutes == null || p.weeklyMaxMinutes >= p.dailyMaxMinutes, {
    path: ['weeklyMaxMinutes'],
    message: 'weeklyMaxMinutes must not be less than dailyMaxMinutes',
  });
export type TimeClockInput = z.output<typeof timeClockInputSchema>;

export const timeClockVersionSchema = timeClockRulesSchema.extend({
  /** Null: from the beginning (the version migration 0026 gave a program that existed then). */
  effectiveFrom: z.string().nullable(),
  createdAt: z.string().nullable(),
  createdByName: z.string().nullable(),
});
export type TimeClockVersion = z.infer<typeof timeClockVersionSchema>;

/** GET /api/programs/{id}/time-clock: the rules in force today, and every version, latest first. */
export const timeClockPolicySchema = timeClockRulesSchema.extend({
  programId: z.number().int(),
  effectiveFrom: z.string().nullable(),
  /** False: the program has no version of its own and the new-program defaults are in force. */
  isSet: z.boolean(),
  versions: z.array(timeClockVersionSchema),
  /** Today in the school's time zone: a version dated before it recomputes days already counted. */
  today: z.string(),
});
export type TimeClockPolicy = z.infer<typeof timeClockPolicySchema>;

/** PUT's answer: the policy, and how many students' days the change recomputed. */
export const timeClockSavedSchema = timeClockPolicySchema.extend({ recomputedStudents: z.number().int() });
export type TimeClockSaved = z.infer<typeof timeClockSavedSchema>;

/** GET /api/programs/{id}/time-clock/impact?effectiveFrom=: what saving from that date would recompute. */
export const timeClockImpactQuerySchema = z.object({ effectiveFrom: isoDate('effectiveFrom') });
export const timeClockImpactSchema = z.object({ effectiveFrom: z.string(), recomputedStudents: z.number().int() });

// ---- Presets ----

const PRESET_NOTE = 'A starting point from public descriptions of the rule: the school confirms its own board’s current rules before saving.';

export const timeClockPresetSchema = z.object({
  id: z.string(),
  name: z.string(),
  /** The rule it comes from, in a sentence. */
  source: z.string(),
  note: z.string(),
  rules: timeClockRulesSchema,
});
export type TimeClockPreset = z.infer<typeof timeClockPresetSchema>;

const preset = (id: string, name: string, source: string, rules: Partial<TimeClockRules>): TimeClockPreset => ({
  id,
  name,
  source,
  note: PRESET_NOTE,
  rules: { ...NEW_PROGRAM_TIME_CLOCK, ...rules },
});

/** GET /api/time-clock/presets: choosing one fills the form, nothing more. */
export const TIME_CLOCK_PRESETS: readonly TimeClockPreset[] = [
  preset(
    'mississippi-cosmetology',
    'Mississippi cosmetology',
    'Mississippi grants no hours for a missed punch and requires punches at lunch and whenever a student leaves the premises.',
    {
      missingCheckOut: 'no_credit',
      mealDeduction: { afterMinutes: 300, minutes: 30 },
    },
  ),
  preset('texas-tdlr', 'Texas TDLR', 'Texas (TDLR) schools tell students “no adjustment will be made if you forget to clock in or out”.', {
    missingCheckOut: 'no_credit',
  }),
  preset('ohio', 'Ohio', 'Ohio counts at most 10 hours a day.', { dailyMaxMinutes: 600 }),
  preset('tennessee', 'Tennessee', 'Tennessee counts at most 10 hours a day, 6 days and 48 hours a week (the 6 days are the school’s to schedule).', {
    dailyMaxMinutes: 600,
    weeklyMaxMinutes: 2880,
  }),
  preset('louisiana', 'Louisiana', 'Louisiana counts at most 48 hours a week.', { weeklyMaxMinutes: 2880 }),
  preset(
    'coursekey-mandatory-check-out',
    'CourseKey-style mandatory check-out',
    'CourseKey’s “mandatory check-out” awards no time until an administrator approves an exception, which stays flagged.',
    {
      missingCheckOut: 'no_credit',
    },
  ),
];
