import { useId } from 'react';
import type { InitialRoster, RosterPreview } from '../../../common/schedules.ts';
import { Spinner } from '../../components/ui/spinner.tsx';
import { useDebouncedValue } from '../../components/ui/use-debounced-value.ts';
import { useRosterPreview, type RosterPreviewQuery } from './schedules-api.ts';

const students = (n: number) => `${n} ${n === 1 ? 'student' : 'students'}`;

/** Who each choice puts on the roster (the server's rule: GET /api/schedules/roster-preview). */
function chosen(p: RosterPreview, choice: InitialRoster) {
  return choice === 'cohort' ? [...p.cohort, ...p.unplaced] : choice === 'program' ? p.program : [];
}

type Option = { value: InitialRoster; label: string; detail: string | null };

/**
 * The create form's "Starting roster" (decision 047): who the new schedule's roster will hold, with
 * the count of each choice and the names, so nobody of another cohort joins unseen.
 */
export function StartingRoster({ query, value, onChange }: { query: RosterPreviewQuery | null; value: InitialRoster; onChange: (v: InitialRoster) => void }) {
  const id = useId();
  // Debounced as text: an equal query typed again is the same value, so it settles.
  const debounced = useDebouncedValue(query ? JSON.stringify(query) : null, 300);
  const preview = useRosterPreview(debounced ? (JSON.parse(debounced) as RosterPreviewQuery) : null);
  const p = query ? preview.data : undefined;

  const cohort = query?.cohortName ? `Cohort ${query.cohortName}` : query?.cohortNumber != null ? `Cohort ${query.cohortNumber}` : 'This cohort';
  const options: Option[] = p
    ? [
        {
          value: 'cohort',
          label: `${cohort} only — ${students(p.cohort.length + p.unplaced.length)}`,
          detail: `${students(p.cohort.length)} already in the cohort’s classes, and ${students(p.unplaced.length)} of ${p.programName ?? 'the program'} in no class yet.`,
        },
        {
          value: 'program',
          label: `Everyone enrolled in ${p.programName ?? 'the program'} — ${students(p.program.length)}`,
          detail: (() => {
            const others = p.program.length - p.cohort.length - p.unplaced.length;
            return others > 0 ? `Includes ${students(others)} of other cohorts.` : null;
          })(),
        },
        { value: 'none', label: 'Nobody yet — add students from the roster later', detail: null },
      ]
    : [];
  const list = p ? chosen(p, value) : [];

  return (
    <fieldset className="sm:col-span-2" aria-busy={preview.isFetching || undefined} aria-describedby={`${id}-about`}>
      <legend className="text-sm font-medium text-slate-800">Starting roster</legend>
      <p id={`${id}-about`} className="mt-1 text-xs text-slate-600">
        Who is expected at this class from the start. Students can be added or removed from the roster at any time.
      </p>
      {!query ? (
        <p className="mt-2 text-sm text-slate-700">Choose a course to see who joins the roster.</p>
      ) : !p ? (
        <p role="status" className="mt-2 flex items-center gap-2 text-sm text-slate-700">
          <Spinner className="size-4 text-blue-700" /> Finding the course’s students…
        </p>
      ) : p.programName == null ? (
        <p className="mt-2 text-sm text-slate-700">This course belongs to no program: the roster starts empty. Add students from the roster later.</p>
      ) : (
        <>
          <div className="mt-2 grid gap-2">
            {options.map((o) => (
              <label
                key={o.value}
                className="flex cursor-pointer items-start gap-2.5 rounded-lg border border-slate-200 p-3 text-sm has-[:checked]:border-blue-600 has-[:checked]:bg-blue-50"
              >
                <input
                  type="radio"
                  name="initialRoster"
                  value={o.value}
                  checked={value === o.value}
                  onChange={() => onChange(o.value)}
                  aria-describedby={o.detail ? `${id}-${o.value}` : undefined}
                  className="mt-0.5 size-4 accent-blue-700"
                />
                <span>
                  <span className="font-medium text-slate-900">{o.label}</span>
                  {o.detail ? (
                    <span id={`${id}-${o.value}`} className="mt-0.5 block text-xs text-slate-600">
                      {o.detail}
                    </span>
                  ) : null}
                </span>
              </label>
            ))}
          </div>
          {list.length > 0 ? (
            <details className="mt-2 text-sm">
              <summary className="cursor-pointer font-medium text-blue-800">Show the {students(list.length)}</summary>
              <ul aria-label="Students on the starting roster" className="mt-2 max-h-40 columns-1 overflow-y-auto text-slate-700 sm:columns-2" tabIndex={0}>
                {list.map((s) => (
                  <li key={s.studentId}>
                    {s.lastName}, {s.firstName}
                    {s.sisStudentId ? <span className="text-slate-500"> ({s.sisStudentId})</span> : null}
                  </li>
                ))}
              </ul>
            </details>
          ) : null}
        </>
      )}
    </fieldset>
  );
}
