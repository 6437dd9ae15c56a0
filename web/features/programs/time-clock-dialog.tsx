import { z } from 'zod';
import type { Program } from '../../../common/programs.ts';
import {
  MISSING_CHECK_OUT_POLICIES,
  ROUNDING_MODES,
  TIME_CLOCK_RULE_TEXTS,
  mealDeductionSchema,
  timeClockInputSchema,
  timeClockRulesSchema,
  type MissingCheckOutPolicy,
  type RoundingMode,
  type TimeClockPolicy,
  type TimeClockPreset,
  type TimeClockRules,
} from '../../../common/time-clock.ts';
import { isoDate } from '../../../common/validation.ts';
import { Alert } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Modal, ModalCancel, ModalFooter } from '../../components/ui/dialog.tsx';
import { notifySuccess } from '../../components/ui/notify.ts';
import { SelectField } from '../../components/ui/select-field.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { TextField } from '../../components/ui/text-field.tsx';
import { numberOrNull, numberOrUndefined, useRecordForm } from '../../components/ui/use-record-form.ts';
import { useSaveTimeClock, useTimeClock } from './programs-api.ts';
import { BackDatingWarning, MISSING_LABELS, PresetPicker, ROUNDING_LABELS, Versions, studentsDays } from './time-clock-parts.tsx';

/** The time-clock rules of a program (decision 050): how punches become clock minutes, by date. */
export function TimeClockDialog({ program, onClose }: { program: Program | null; onClose: () => void }) {
  return (
    <Modal
      focusFirstField
      open={program !== null}
      onOpenChange={(open) => !open && onClose()}
      title={program ? `Time-clock rules: ${program.programName}` : 'Time-clock rules'}
      description="How check-ins and check-outs become clock hours. A change applies from its date; the days before it keep the rules in force then."
      size="xl"
    >
      {program ? <TimeClockLoader programId={program.id} /> : null}
    </Modal>
  );
}

function TimeClockLoader({ programId }: { programId: number }) {
  const policy = useTimeClock(programId);
  if (policy.isError) return <Alert>The time-clock rules could not be loaded. Close this dialog and try again.</Alert>;
  if (!policy.data) {
    return (
      <p role="status" className="flex items-center gap-2 text-sm text-slate-600">
        <Spinner className="size-4 text-blue-700" /> Loading the time-clock rules…
      </p>
    );
  }
  return <TimeClockForm policy={policy.data} />;
}

type Values = {
  missingCheckOut: MissingCheckOutPolicy;
  rounding: RoundingMode;
  roundingMinutes: string;
  graceMinutes: string;
  mealOn: boolean;
  mealAfterMinutes: string;
  mealMinutes: string;
  dailyMaxMinutes: string;
  weeklyMaxMinutes: string;
  effectiveFrom: string;
};

const text = (n: number | null) => (n == null ? '' : String(n));

function valuesOf(rules: TimeClockRules, effectiveFrom: string): Values {
  return {
    missingCheckOut: rules.missingCheckOut,
    rounding: rules.rounding,
    roundingMinutes: text(rules.roundingMinutes),
    graceMinutes: text(rules.graceMinutes),
    mealOn: rules.mealDeduction != null,
    mealAfterMinutes: text(rules.mealDeduction?.afterMinutes ?? null),
    mealMinutes: text(rules.mealDeduction?.minutes ?? null),
    dailyMaxMinutes: text(rules.dailyMaxMinutes),
    weeklyMaxMinutes: text(rules.weeklyMaxMinutes),
    effectiveFrom,
  };
}

/**
 * The form's check: the contract's own rules, with the meal deduction's two figures as fields of
 * their own (so an error lands beside the one that is wrong), then the contract itself.
 */
const rule = timeClockRulesSchema.shape;
const formSchema = z
  .object({
    missingCheckOut: rule.missingCheckOut,
    rounding: rule.rounding,
    roundingMinutes: rule.roundingMinutes,
    graceMinutes: rule.graceMinutes,
    mealAfterMinutes: mealDeductionSchema.shape.afterMinutes.nullable(),
    mealMinutes: mealDeductionSchema.shape.minutes.nullable(),
    dailyMaxMinutes: rule.dailyMaxMinutes,
    weeklyMaxMinutes: rule.weeklyMaxMinutes,
    effectiveFrom: isoDate('effectiveFrom'),
  })
  .transform(({ mealAfterMinutes, mealMinutes, ...rest }, ctx) => {
    const parsed = timeClockInputSchema.safeParse({
      ...rest,
      mealDeduction: mealAfterMinutes != null && mealMinutes != null ? { afterMinutes: mealAfterMinutes, minutes: mealMinutes } : null,
    });
    if (parsed.success) return parsed.data;
    for (const issue of parsed.error.issues) ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message });
    return z.NEVER;
  });

/** " 600 minutes is 10 hours." for a figure typed in minutes; nothing for a blank or a word. */
const hoursText = (minutes: number | null) =>
  minutes != null && Number.isFinite(minutes) && minutes > 0
    ? ` ${minutes.toLocaleString('en-US')} minutes is ${(minutes / 60).toLocaleString('en-US', { maximumFractionDigits: 2 })} hours.`
    : '';

function TimeClockForm({ policy }: { policy: TimeClockPolicy }) {
  const { formRef, bind, set, values, errorOf, serverMessage, submit, showRefusal } = useRecordForm({
    defaultValues: valuesOf(policy, policy.today),
    schema: formSchema,
    toCandidate: (v) => ({
      missingCheckOut: v.missingCheckOut,
      rounding: v.rounding,
      roundingMinutes: numberOrUndefined(v.roundingMinutes),
      graceMinutes: numberOrUndefined(v.graceMinutes),
      // Switched on, both figures are needed: blank is "not a number" rather than "off".
      mealAfterMinutes: v.mealOn ? numberOrUndefined(v.mealAfterMinutes) : null,
      mealMinutes: v.mealOn ? numberOrUndefined(v.mealMinutes) : null,
      dailyMaxMinutes: numberOrNull(v.dailyMaxMinutes),
      weeklyMaxMinutes: numberOrNull(v.weeklyMaxMinutes),
      effectiveFrom: v.effectiveFrom,
    }),
  });
  const save = useSaveTimeClock(policy.programId);
  const onSubmit = submit((data) =>
    save.mutate(data, {
      onSuccess: (saved) =>
        notifySuccess(
          'Time-clock rules saved',
          saved.recomputedStudents > 0
            ? `In force from ${data.effectiveFrom}; recomputed ${studentsDays(saved.recomputedStudents)}.`
            : `In force from ${data.effectiveFrom}.`,
        ),
      onError: (e) => showRefusal(e, 'Failed to save the time-clock rules'),
    }),
  );

  const fillFrom = (preset: TimeClockPreset) => {
    const next = valuesOf(preset.rules, values.effectiveFrom);
    for (const key of Object.keys(next) as (keyof Values)[]) if (key !== 'effectiveFrom') set(key, next[key]);
  };

  return (
    <form ref={formRef} noValidate onSubmit={onSubmit} aria-label="Time-clock rules">
      {serverMessage ? <Alert className="mb-5">{serverMessage}</Alert> : null}
      <PresetPicker onPick={fillFrom} />

      <fieldset className="mt-6">
        <legend className="text-sm font-medium text-slate-800">A missing check-out</legend>
        <div className="mt-2 grid gap-2">
          {MISSING_CHECK_OUT_POLICIES.map((option) => {
            const { value: _value, ...radio } = bind('missingCheckOut');
            return (
              <label
                key={option}
                className="flex items-start gap-3 rounded-lg border border-slate-200 p-3 text-sm has-[:checked]:border-blue-600 has-[:checked]:bg-blue-50"
              >
                <input type="radio" className="mt-0.5 size-4" {...radio} value={option} checked={values.missingCheckOut === option} />
                <span>
                  <span className="block font-medium text-slate-900">{MISSING_LABELS[option]}</span>
                  <span className="block text-slate-600">{TIME_CLOCK_RULE_TEXTS.missingCheckOut[option]}</span>
                </span>
              </label>
            );
          })}
        </div>
      </fieldset>

      <div className="mt-6 grid gap-5 sm:grid-cols-3">
        <SelectField label="Rounding" {...bind('rounding')} error={errorOf('rounding')} hint={TIME_CLOCK_RULE_TEXTS.rounding[values.rounding]}>
          {ROUNDING_MODES.map((mode) => (
            <option key={mode} value={mode}>
              {ROUNDING_LABELS[mode]}
            </option>
          ))}
        </SelectField>
        <TextField
          label="Rounding interval (minutes)"
          type="number"
          inputMode="numeric"
          step={1}
          {...bind('roundingMinutes')}
          error={errorOf('roundingMinutes')}
          hint="1 to 30 minutes, e.g. 15 for quarter hours."
        />
        <TextField
          label="Grace after the start (minutes)"
          type="number"
          inputMode="numeric"
          step={1}
          {...bind('graceMinutes')}
          error={errorOf('graceMinutes')}
          hint={TIME_CLOCK_RULE_TEXTS.graceMinutes}
        />
      </div>

      <div className="mt-6">
        <label className="flex items-start gap-3 text-sm text-slate-900">
          <input type="checkbox" className="mt-0.5 size-5" {...withoutValue(bind('mealOn'))} checked={values.mealOn} />
          <span>
            <span className="font-medium">Deduct a meal break</span>
            <span className="block text-slate-600">{TIME_CLOCK_RULE_TEXTS.mealDeduction}</span>
          </span>
        </label>
        {values.mealOn ? (
          <div className="mt-3 grid gap-5 sm:grid-cols-2">
            <TextField
              label="After continuous attendance of (minutes)"
              type="number"
              inputMode="numeric"
              step={1}
              {...bind('mealAfterMinutes')}
              error={errorOf('mealAfterMinutes')}
              hint={`60 to 960 minutes.${hoursText(numberOrNull(values.mealAfterMinutes))}`}
            />
            <TextField
              label="Meal minutes deducted"
              type="number"
              inputMode="numeric"
              step={1}
              {...bind('mealMinutes')}
              error={errorOf('mealMinutes')}
              hint="1 to 120 minutes."
            />
          </div>
        ) : null}
      </div>

      <div className="mt-6 grid gap-5 sm:grid-cols-2">
        <TextField
          label="Most minutes a day"
          type="number"
          inputMode="numeric"
          step={1}
          {...bind('dailyMaxMinutes')}
          error={errorOf('dailyMaxMinutes')}
          hint={`${TIME_CLOCK_RULE_TEXTS.dailyMaxMinutes} Blank: no cap.${hoursText(numberOrNull(values.dailyMaxMinutes))}`}
        />
        <TextField
          label="Most minutes a week"
          type="number"
          inputMode="numeric"
          step={1}
          {...bind('weeklyMaxMinutes')}
          error={errorOf('weeklyMaxMinutes')}
          hint={`${TIME_CLOCK_RULE_TEXTS.weeklyMaxMinutes} Blank: no cap.${hoursText(numberOrNull(values.weeklyMaxMinutes))}`}
        />
      </div>

      <div className="mt-6 grid gap-5 sm:grid-cols-2">
        <TextField label="Effective from" type="date" {...bind('effectiveFrom')} error={errorOf('effectiveFrom')} hint={TIME_CLOCK_RULE_TEXTS.effectiveFrom} />
        <BackDatingWarning programId={policy.programId} effectiveFrom={values.effectiveFrom} today={policy.today} />
      </div>

      <Versions policy={policy} />
      <ModalFooter>
        <ModalCancel>Close</ModalCancel>
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? <Spinner className="size-4" /> : null}
          Save rules
        </Button>
      </ModalFooter>
    </form>
  );
}

/** A checkbox bound like a text field: its state is `checked`, not a value attribute. */
function withoutValue<T extends { value: unknown }>(field: T): Omit<T, 'value'> {
  const { value: _value, ...rest } = field;
  return rest;
}
