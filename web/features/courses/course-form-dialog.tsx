import { COURSE_HOURS } from '../../../common/constants.ts';
import { courseFormSchema, courseHoursProblem, courseHoursWarning, type Course } from '../../../common/courses.ts';
import { formatHours } from '../../../common/programs.ts';
import { ProgramSelect } from '../../components/pickers/program-select.tsx';
import { FormDialog, FormDialogBody } from '../../components/ui/form-dialog.tsx';
import { TextareaField } from '../../components/ui/textarea-field.tsx';
import { TextField } from '../../components/ui/text-field.tsx';
import { numberOrNull, textValues, useRecordForm } from '../../components/ui/use-record-form.ts';
import { useCreateCourse, useUpdateCourse } from './courses-api.ts';
import { PrerequisitePicker } from './prerequisite-picker.tsx';

type Props = {
  /** null: closed; 'new': Add Course; a course: Edit Course. */
  target: Course | 'new' | null;
  courses: Course[];
  onClose: () => void;
};

export function CourseFormDialog({ target, courses, onClose }: Props) {
  return (
    <FormDialog
      target={target}
      onClose={onClose}
      titles={{ add: 'Add Course', edit: 'Edit Course' }}
      description="Course code and name are required."
      size="lg"
    >
      {(course) => <CourseForm course={course} courses={courses} onDone={onClose} />}
    </FormDialog>
  );
}

const { min, max, step } = COURSE_HOURS;

function CourseForm({ course, courses, onDone }: { course: Course | null; courses: Course[]; onDone: () => void }) {
  const { bind, set, values, errorOf, submitSave } = useRecordForm({
    defaultValues: {
      ...textValues(course, ['courseCode', 'courseName', 'clockHours', 'description', 'programId', 'sisCourseId']),
      prerequisiteIds: course?.prerequisiteIds ?? [],
    },
    // The hours rule of decisions 012 and 040: a course keeps the hours it has; typed hours are 1–2,000 in steps of 0.5.
    schema: courseFormSchema(course?.clockHours),
    toCandidate: (v) => ({ ...v, clockHours: numberOrNull(v.clockHours), programId: numberOrNull(v.programId) }),
  });
  const create = useCreateCourse();
  const update = useUpdateCourse();
  // Hours stored before the steps rule stay valid as they are (and the browser must not refuse them).
  const keptHours = course?.clockHours != null && courseHoursProblem(course.clockHours) ? course.clockHours : null;
  // More than SPEC's documented range: a note, never a refusal.
  const typedHours = numberOrNull(values.clockHours);
  const hoursNote = typedHours != null && Number.isFinite(typedHours) ? courseHoursWarning(typedHours) : null;
  // A course is never offered as its own prerequisite.
  const candidates = courses.filter((c) => c.id !== course?.id);

  const saving = submitSave({
    id: course?.id ?? null,
    create,
    update,
    savedTitle: course ? 'Course updated' : 'Course created',
    failureText: course ? 'Failed to update course' : 'Failed to create course',
    onDone,
  });

  return (
    <FormDialogBody {...saving} label={course ? 'Edit course' : 'Add course'} submitLabel={course ? 'Save changes' : 'Create course'}>
      <TextField label="Course code" autoComplete="off" required {...bind('courseCode')} error={errorOf('courseCode')} />
      <TextField label="Course name" autoComplete="off" required {...bind('courseName')} error={errorOf('courseName')} />
      <TextField
        label="Clock hours"
        type="number"
        inputMode="decimal"
        min={keptHours == null ? min : Math.min(min, keptHours)}
        max={max}
        step={keptHours == null ? step : 'any'}
        placeholder={`${min}-${max}`}
        {...bind('clockHours')}
        error={errorOf('clockHours')}
        hint={
          errorOf('clockHours')
            ? undefined
            : (hoursNote ??
              (keptHours == null
                ? `Optional. ${min} to ${formatHours(max)}, in steps of ${step}.`
                : `Stored as ${keptHours}: keep it, or enter ${min} to ${formatHours(max)}, in steps of ${step}.`))
        }
      />
      <ProgramSelect {...bind('programId')} error={errorOf('programId')} />
      <TextField label="SIS course ID" autoComplete="off" {...bind('sisCourseId')} error={errorOf('sisCourseId')} className="sm:col-span-2" />
      <TextareaField label="Description" {...bind('description')} error={errorOf('description')} className="sm:col-span-2" />
      <div className="sm:col-span-2">
        <PrerequisitePicker
          courses={candidates}
          value={values.prerequisiteIds}
          onChange={(ids) => set('prerequisiteIds', ids)}
          error={errorOf('prerequisiteIds')}
        />
      </div>
    </FormDialogBody>
  );
}
