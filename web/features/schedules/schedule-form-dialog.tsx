import { useState, type FormEvent } from 'react';
import { COHORT, TERM } from '../../../common/constants.ts';
import { DAY_NAMES, scheduleInputSchema, type Schedule } from '../../../common/schedules.ts';
import { Alert } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Modal, ModalCancel, ModalFooter } from '../../components/ui/dialog.tsx';
import { useFormFeedback } from '../../components/ui/use-form-feedback.ts';
import { notifySuccess } from '../../components/ui/notify.ts';
import { SelectField } from '../../components/ui/select-field.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { TextField } from '../../components/ui/text-field.tsx';
import { numberOrNull, numberOrUndefined, useFormValues } from '../../components/ui/use-form-values.ts';
import { CourseSelect } from '../../components/pickers/course-select.tsx';
import { InstructorSelect } from '../../components/pickers/instructor-select.tsx';
import { useCreateSchedule, useUpdateSchedule } from './schedules-api.ts';

type Props = {
  /** null: closed; 'new': Create Schedule; a schedule: Edit Schedule. */
  target: Schedule | 'new' | null;
  onClose: () => void;
};

export function ScheduleFormDialog({ target, onClose }: Props) {
  const isNew = target === 'new';
  return (
    <Modal
      focusFirstField
      open={target !== null}
      onOpenChange={(open) => !open && onClose()}
      title={isNew ? 'Create Schedule' : 'Edit Schedule'}
      description={
        isNew
          ? "A weekly class meeting. Its roster starts with the enrolled students of the course's program."
          : 'Change when, where and by whom this class meets.'
      }
      size="lg"
    >
      {target !== null ? <ScheduleForm schedule={isNew ? null : target} onDone={onClose} /> : null}
    </Modal>
  );
}

const range = (lo: number, hi: number) => Array.from({ length: hi - lo + 1 }, (_, i) => lo + i);

function ScheduleForm({ schedule, onDone }: { schedule: Schedule | null; onDone: () => void }) {
  const { values, bind } = useFormValues({
    courseId: schedule ? String(schedule.courseId) : '',
    instructorId: schedule?.instructorId != null ? String(schedule.instructorId) : '',
    cohortNumber: schedule ? String(schedule.cohortNumber) : '',
    termNumber: schedule ? String(schedule.termNumber) : '',
    dayOfWeek: schedule ? String(schedule.dayOfWeek) : '',
    startTime: schedule?.startTime.slice(0, 5) ?? '',
    endTime: schedule?.endTime.slice(0, 5) ?? '',
    roomNumber: schedule?.roomNumber ?? '',
    courseStartDate: schedule?.courseStartDate ?? '',
    courseEndDate: schedule?.courseEndDate ?? '',
    sisScheduleId: schedule?.sisScheduleId ?? '',
  });
  const [isActive, setIsActive] = useState(schedule?.isActive ?? true);
  const { formRef, errors, serverMessage, validate, showRefusal } = useFormFeedback(Object.keys(values));
  const create = useCreateSchedule();
  const update = useUpdateSchedule();
  const pending = create.isPending || update.isPending;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const orUndefined = (v: string) => (v.trim() === '' ? undefined : v);
    const candidate = {
      courseId: numberOrUndefined(values.courseId),
      instructorId: numberOrNull(values.instructorId),
      cohortNumber: numberOrUndefined(values.cohortNumber),
      termNumber: numberOrUndefined(values.termNumber),
      dayOfWeek: numberOrUndefined(values.dayOfWeek),
      startTime: orUndefined(values.startTime),
      endTime: orUndefined(values.endTime),
      roomNumber: values.roomNumber,
      courseStartDate: orUndefined(values.courseStartDate),
      courseEndDate: orUndefined(values.courseEndDate),
      sisScheduleId: values.sisScheduleId,
      isActive,
    };
    const data = validate(scheduleInputSchema, candidate);
    if (!data) return;
    const handlers = {
      onSuccess: () => {
        notifySuccess(schedule ? 'Schedule updated' : 'Schedule created');
        onDone();
      },
      onError: (e: Error) => showRefusal(e, schedule ? 'Failed to update schedule. Please try again.' : 'Failed to create schedule. Please try again.'),
    };
    if (schedule) update.mutate({ id: schedule.id, input: data }, handlers);
    else create.mutate(data, handlers);
  };

  return (
    <form ref={formRef} noValidate onSubmit={onSubmit} aria-label={schedule ? 'Edit schedule' : 'Create schedule'}>
      {serverMessage ? <Alert className="mb-5">{serverMessage}</Alert> : null}
      <div className="grid gap-5 sm:grid-cols-2">
        <CourseSelect required {...bind('courseId')} error={errors.courseId} className="sm:col-span-2" />
        <InstructorSelect currentId={schedule?.instructorId} {...bind('instructorId')} error={errors.instructorId} className="sm:col-span-2" />
        <TextField
          label="Cohort number"
          type="number"
          inputMode="numeric"
          min={COHORT.min}
          max={COHORT.max}
          step={1}
          required
          placeholder={`${COHORT.min}-${COHORT.max}`}
          {...bind('cohortNumber')}
          error={errors.cohortNumber}
        />
        <SelectField label="Term number" required {...bind('termNumber')} error={errors.termNumber}>
          <option value="" disabled>
            Choose a term
          </option>
          {range(TERM.min, TERM.max).map((t) => (
            <option key={t} value={t}>
              Term {t}
            </option>
          ))}
        </SelectField>
        <SelectField label="Day of week" required {...bind('dayOfWeek')} error={errors.dayOfWeek} className="sm:col-span-2">
          <option value="" disabled>
            Choose a day
          </option>
          {DAY_NAMES.map((d, i) => (
            <option key={d} value={i}>
              {d}
            </option>
          ))}
        </SelectField>
        <TextField label="Start time" type="time" required {...bind('startTime')} error={errors.startTime} />
        <TextField label="End time" type="time" required {...bind('endTime')} error={errors.endTime} />
        <TextField label="Course start date" type="date" required {...bind('courseStartDate')} error={errors.courseStartDate} />
        <TextField label="Course end date" type="date" required {...bind('courseEndDate')} error={errors.courseEndDate} />
        <TextField label="Room number" autoComplete="off" {...bind('roomNumber')} error={errors.roomNumber} />
        <TextField label="SIS schedule ID" autoComplete="off" {...bind('sisScheduleId')} error={errors.sisScheduleId} />
        {schedule ? (
          <label className="flex items-center gap-2.5 text-sm font-medium text-slate-800 sm:col-span-2">
            <input type="checkbox" checked={isActive} onChange={(e) => setIsActive(e.target.checked)} className="size-4 rounded border-slate-400 accent-blue-700" />
            Active (offered for attendance sessions)
          </label>
        ) : null}
      </div>
      <ModalFooter>
        <ModalCancel />
        <Button type="submit" disabled={pending}>
          {pending ? <Spinner className="size-4" /> : null}
          {schedule ? 'Save changes' : 'Create schedule'}
        </Button>
      </ModalFooter>
    </form>
  );
}
