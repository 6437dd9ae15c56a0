// The time-clock dialog's smaller parts: the preset picker, the back-dating warning and the versions list.
import { useState } from 'react';

import { type MissingCheckOutPolicy, type RoundingMode, type TimeClockPolicy, type TimeClockPreset, type TimeClockRules } from '../../../common/time-clock.ts';
import { isoDate } from '../../../common/validation.ts';

import { SelectField } from '../../components/ui/select-field.tsx';

import { useTimeClockImpact, useTimeClockPresets } from './programs-api.ts';

export const MISSING_LABELS: Record<MissingCheckOutPolicy, string> = {
  no_credit: 'No credit until corrected',
  credit_to_scheduled_end: 'Credit to the class end',
  auto_check_out_flagged: 'Check out at the class end, flagged',
};
export const ROUNDING_LABELS: Record<RoundingMode, string> = {
  none: 'No rounding',
  nearest: 'To the nearest mark',
  down: 'Back to the previous mark',
  up: 'On to the next mark',
};

export const studentsDays = (n: number) => `${n} ${n === 1 ? 'student’s' : 'students’'} days`;

/** Choosing a preset fills the form, nothing more: the school reads the rule and saves it itself. */
export function PresetPicker({ onPick }: { onPick: (preset: TimeClockPreset) => void }) {
  const presets = useTimeClockPresets();
  const [chosen, setChosen] = useState('');
  const preset = presets.data?.find((p) => p.id === chosen);
  return (
    <div className="rounded-lg border border-slate-200 bg-slate-50 p-4">
      <SelectField
        label="Start from a preset"
        name="preset"
        value={chosen}
        disabled={!presets.data}
        onChange={(e) => {
          setChosen(e.target.value);
          const picked = presets.data?.find((p) => p.id === e.target.value);
          if (picked) onPick(picked);
        }}
        hint="Fills the form below; nothing is saved until you save."
      >
        <option value="">Choose a preset…</option>
        {(presets.data ?? []).map((p) => (
          <option key={p.id} value={p.id}>
            {p.name}
          </option>
        ))}
      </SelectField>
      <div aria-live="polite">
        {preset ? (
          <p className="mt-3 text-sm text-slate-700">
            <span className="font-medium text-slate-900">{preset.name}:</span> {preset.source} <span className="block mt-1 text-slate-600">{preset.note}</span>
          </p>
        ) : null}
      </div>
    </div>
  );
}

/** Back-dated rules recompute days already counted: say how many students' before saving. */
export function BackDatingWarning({ programId, effectiveFrom, today }: { programId: number; effectiveFrom: string; today: string }) {
  const past = isoDate('effectiveFrom').safeParse(effectiveFrom).success && effectiveFrom < today;
  const impact = useTimeClockImpact(programId, past ? effectiveFrom : null);
  return (
    <div aria-live="polite" className="self-center">
      {past && impact.data ? (
        <p className="rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950">
          {effectiveFrom} is in the past: saving recomputes {studentsDays(impact.data.recomputedStudents)} from that date.
        </p>
      ) : null}
    </div>
  );
}

/** "No credit until corrected · nearest 15 min, 7 min grace · …": a version in a line. */
function summary(r: TimeClockRules): string {
  const parts: string[] = [MISSING_LABELS[r.missingCheckOut]];
  parts.push(r.rounding === 'none' ? 'no rounding' : `${ROUNDING_LABELS[r.rounding].toLowerCase()} of ${r.roundingMinutes} min`);
  if (r.graceMinutes > 0) parts.push(`${r.graceMinutes} min grace`);
  if (r.mealDeduction) parts.push(`${r.mealDeduction.minutes} min meal after ${r.mealDeduction.afterMinutes} min`);
  if (r.dailyMaxMinutes != null) parts.push(`at most ${r.dailyMaxMinutes} min a day`);
  if (r.weeklyMaxMinutes != null) parts.push(`at most ${r.weeklyMaxMinutes} min a week`);
  return parts.join(' · ');
}

export function Versions({ policy }: { policy: TimeClockPolicy }) {
  return (
    <section aria-labelledby="time-clock-versions-heading" className="mt-8">
      <h3 id="time-clock-versions-heading" className="text-base font-semibold text-slate-900">
        Versions
      </h3>
      {policy.versions.length === 0 ? (
        <p className="mt-1 text-sm text-slate-600">None saved: the program counts by the defaults for a new program ({summary(policy).toLowerCase()}).</p>
      ) : (
        <div className="mt-3 overflow-x-auto rounded-lg border border-slate-200">
          <table className="min-w-full text-left text-sm">
            <caption className="sr-only">Versions of the time-clock rules, latest first</caption>
            <thead className="bg-slate-50 text-xs font-semibold tracking-wide text-slate-600 uppercase">
              <tr>
                <th scope="col" className="px-3 py-2">
                  From
                </th>
                <th scope="col" className="px-3 py-2">
                  Rules
                </th>
                <th scope="col" className="px-3 py-2">
                  Saved by
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {policy.versions.map((v) => (
                <tr key={v.effectiveFrom ?? 'beginning'}>
                  <th scope="row" className="px-3 py-2 font-medium whitespace-nowrap text-slate-900">
                    {v.effectiveFrom ?? 'The beginning'}
                  </th>
                  <td className="px-3 py-2">{summary(v)}</td>
                  <td className="px-3 py-2 whitespace-nowrap">{v.createdByName ?? '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
