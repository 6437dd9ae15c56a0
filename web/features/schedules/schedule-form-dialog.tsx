import { Plus, Trash2 } from 'lucide-react';
import { COHORT, TERM } from '../../../common/constants.ts';
import {
  COHORT_NAME_MAX,
  DAY_NAMES,
  DEFAULT_INITIAL_ROSTER,
  SCHEDULE_BREAKS_MAX,
  scheduleCreateSchema,
  scheduleInputSchema,
  type InitialRoster,
  type Schedule,
  type ScheduleBreak,
} from '../../../common/schedules.ts';
import { Button } from '../../components/ui/button.tsx';
import { CourseSelect } from '../../components/pickers/course-select.tsx';
import { InstructorSelect } from '../../components/pickers/instructor-select.tsx';
import { FormDialog, FormDialogBody } from '../../components/ui/form-dialog.tsx';
import { SelectField } from '../../components/ui/select-field.tsx';
import { TextField } from '../../components/ui/text-field.tsx';
import { numberOrNull, numberOrUndefined, textValues, useRecordForm } from '../../components/ui/use-record-form.ts';
import { useCreateSchedule, useUpdateSchedule } from './schedules-api.ts';
import { StartingRoster } from './starting-roster.tsx';

type Props = {
  /** null: closed; 'new': Create Schedule; a schedule: Edit Schedule. */
  target: Schedule | 'new' | null;
  onClose: () => void;
};

export function ScheduleFormDialog({ target, onClose }: Props) {
  return (
    <FormDialog
      target={target}
      onClose={onClose}
      titles={{ add: 'Create Schedule', edit: 'Edit Schedule' }}
      description={(isNew) => (isNew ? 'A weekly class meeting. Choose below who its roster starts with.' : 'Change when, where and by whom this class meets.')}
      size="lg"
    >
      {(schedule) => <ScheduleForm schedule={schedule} onDone={onClose} />}
    </FormDialog>
  );
}

const range = (lo: number, hi: number) => Array.from({ length: hi - lo + 1 }, (_, i) => lo + i);
const orUndefined = (v: string) => (v.trim() === '' ? undefined : v);
/** The cohort number typed, when it is one the server would take (the preview asks only then). */
const cohortNumberOrNull = (v: string) => {
  const n = numberOrNull(v);
  return n != null && Number.isInteger(n) && n >= COHORT.min && n <= COHORT.max ? n : null;
};

function ScheduleForm({ schedule, onDone }: { schedule: Schedule | null; onDone: () => void }) {
  const { bind, set, values, errorOf, submitSave } = useRecordForm({
    defaultValues: {
      ...textValues(schedule, [
        'courseId',
        'instructorId',
        'cohortNumber',
        'cohortName',
        'termNumber',
        'dayOfWeek',
        'roomNumber',
        'courseStartDate',
        'courseEndDate',
        'sisScheduleId',
      ]),
      // 'HH:MM:SS' from the database; the time inputs hold 'HH:MM'.
      startTime: schedule?.startTime.slice(0, 5) ?? '',
      endTime: schedule?.endTime.slice(0, 5) ?? '',
      isActive: schedule?.isActive ?? true,
      initialRoster: DEFAULT_INITIAL_ROSTER as InitialRoster,
      breaks: (schedule?.breaks ?? []).map((b): ScheduleBreak => ({ ...b })),
    },
    // Creating also says who the roster starts with; editing leaves the roster to its dialog.
    schema: schedule ? scheduleInputSchema : scheduleCreateSchema,
    toCandidate: (v) => ({
      courseId: numberOrUndefined(v.courseId),
      instructorId: numberOrNull(v.instructorId),
      cohortNumber: numberOrUndefined(v.cohortNumber),
      cohortName: v.cohortName,
      termNumber: numberOrUndefined(v.termNumber),
      dayOfWeek: numberOrUndefined(v.dayOfWeek),
      startTime: orUndefined(v.startTime),
      endTime: orUndefined(v.endTime),
      roomNumber: v.roomNumber,
      courseStartDate: orUndefined(v.courseStartDate),
      courseEndDate: orUndefined(v.courseEndDate),
      sisScheduleId: v.sisScheduleId,
      isActive: v.isActive,
      breaks: v.breaks.map((b) => ({ start: orUndefined(b.start), end: orUndefined(b.end) })),
      ...(schedule ? {} : { initialRoster: v.initialRoster }),
    }),
  });
  const create = useCreateSchedule();
  const update = useUpdateSchedule();

  const saving = submitSave({
    id: schedule?.id ?? null,
    create,
    update,
    savedTitle: schedule ? 'Schedule updated' : 'Schedule created',
    failureText: schedule ? 'Failed to update schedule. Please try again.' : 'Failed to create schedule. Please try again.',
    onDone,
  });

  return (
    <FormDialogBody {...saving} label={schedule ? 'Edit schedule' : 'Create schedule'} submitLabel={schedule ? 'Save changes' : 'Create schedule'}>
      <CourseSelect required {...bind('courseId')} error={errorOf('courseId')} className="sm:col-span-2" />
      <InstructorSelect currentId={schedule?.instructorId} {...bind('instructorId')} error={errorOf('instructorId')} className="sm:col-span-2" />
      <TextField
        label="Cohort number"
        type="number"
        inputMode="numeric"
        min={COHORT.min}
        max={COHORT.max}
        step={1}
        placeholder={`${COHORT.min}-${COHORT.max}`}
        hint="Required, unless the cohort has a name."
        {...bind('cohortNumber')}
        error={errorOf('cohortNumber')}
      />
      <TextField
        label="Cohort name"
        autoComplete="off"
        maxLength={COHORT_NAME_MAX}
        placeholder="PN-26A"
        hint="Optional: what the school calls the cohort."
        {...bind('cohortName')}
        error={errorOf('cohortName')}
      />
      <SelectField label="Term number" required {...bind('termNumber')} error={errorOf('termNumber')}>
        <option value="" disabled>
          Choose a term
        </option>
        {range(TERM.min, TERM.max).map((t) => (
          <option key={t} value={t}>
            Term {t}
          </option>
        ))}
      </SelectField>
      <SelectField label="Day of week" required {...bind('dayOfWeek')} error={errorOf('dayOfWeek')}>
        <option value="" disabled>
          Choose a day
        </option>
        {DAY_NAMES.map((d, i) => (
          <option key={d} value={i}>
            {d}
          </option>
        ))}
      </SelectField>
      <TextField label="Start time" type="time" required {...bind('startTime')} error={errorOf('startTime')} />
      <TextField label="End time" type="time" required {...bind('endTime')} error={errorOf('endTime')} />
      <TextField label="Course start date" type="date" required {...bind('courseStartDate')} error={errorOf('courseStartDate')} />
      <TextField label="Course end date" type="date" required {...bind('courseEndDate')} error={errorOf('courseEndDate')} />
      <BreaksField breaks={values.breaks} onChange={(next) => set('breaks', next)} errorOf={errorOf} />
      <TextField label="Room number" autoComplete="off" {...bind('roomNumber')} error={errorOf('roomNumber')} />
      <TextField label="SIS schedule ID" autoComplete="off" {...bind('sisScheduleId')} error={errorOf('sisScheduleId')} />
      {schedule ? null : (
        <StartingRoster
          query={
            numberOrNull(values.courseId) != null
              ? { courseId: Number(values.courseId), cohortNumber: cohortNumberOrNull(values.cohortNumber), cohortName: values.cohortName.trim() || null }
              : null
          }
          value={values.initialRoster}
          onChange={(v) => set('initialRoster', v)}
        />
      )}
      {schedule ? (
        <label className="flex items-center gap-2.5 text-sm font-medium text-slate-800 sm:col-span-2">
          <input
            type="checkbox"
            checked={values.isActive}
            onChange={(e) => set('isActive', e.target.checked)}
            className="size-4 rounded border-slate-400 accent-blue-700"
          />
          Active (offered for attendance sessions)
        </label>
      ) : null}
    </FormDialogBody>
  );
}

/**
 * The class's scheduled breaks (decision 052): rows of start and end, added and removed here, each
 * inside the class times. They are not class time: nobody is scheduled, or credited, for them.
 */
function BreaksField({
  breaks,
  onChange,
  errorOf,
}: {
  breaks: ScheduleBreak[];
  onChange: (next: ScheduleBreak[]) => void;
  errorOf: (name: string) => string | undefined;
}) {
  const change = (i: number, part: Partial<ScheduleBreak>) => onChange(breaks.map((b, j) => (j === i ? { ...b, ...part } : b)));
  const listError = errorOf('breaks');
  return (
    <fieldset className="sm:col-span-2">
      <legend className="text-sm font-medium text-slate-800">Breaks</legend>
      <p className="mt-0.5 text-xs text-slate-600">
        Scheduled breaks (up to {SCHEDULE_BREAKS_MAX}) are not class time: they are left out of scheduled and attended minutes.
      </p>
      {breaks.length === 0 ? <p className="mt-2 text-sm text-slate-600">No breaks.</p> : null}
      <ul className="mt-2 space-y-3">
        {breaks.map((b, i) => (
          <li key={i} className="grid grid-cols-[1fr_1fr_auto] items-start gap-3">
            <TextField
              label={`Break ${i + 1} start`}
              name={`breaks.${i}.start`}
              type="time"
              value={b.start}
              onChange={(e) => change(i, { start: e.target.value })}
              error={errorOf(`breaks.${i}.start`)}
            />
            <TextField
              label={`Break ${i + 1} end`}
              name={`breaks.${i}.end`}
              type="time"
              value={b.end}
              onChange={(e) => change(i, { end: e.target.value })}
              error={errorOf(`breaks.${i}.end`)}
            />
            <Button variant="ghost" size="sm" icon={Trash2} className="mt-7" onClick={() => onChange(breaks.filter((_, j) => j !== i))}>
              Remove<span className="sr-only"> break {i + 1}</span>
            </Button>
          </li>
        ))}
      </ul>
      {listError ? (
        <p role="alert" className="mt-2 text-sm text-red-700">
          {listError}
        </p>
      ) : null}
      {breaks.length < SCHEDULE_BREAKS_MAX ? (
        <Button variant="secondary" size="sm" icon={Plus} className="mt-3" onClick={() => onChange([...breaks, { start: '', end: '' }])}>
          Add break
        </Button>
      ) : null}
    </fieldset>
  );
}
