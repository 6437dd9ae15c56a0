import { useState, type FormEvent } from 'react';
import { COURSE_FORM_HOURS } from '../../../common/constants.ts';
import { courseInputSchema, type Course } from '../../../common/courses.ts';
import { Alert } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Modal, ModalCancel, ModalFooter } from '../../components/ui/dialog.tsx';
import { useFormFeedback } from '../../components/ui/use-form-feedback.ts';
import { notifySuccess } from '../../components/ui/notify.ts';
import { Spinner } from '../../components/ui/spinner.tsx';
import { TextareaField } from '../../components/ui/textarea-field.tsx';
import { TextField } from '../../components/ui/text-field.tsx';
import { numberOrNull, useFormValues } from '../../components/ui/use-form-values.ts';
import { ProgramSelect } from '../../components/pickers/program-select.tsx';
import { PrerequisitePicker } from './prerequisite-picker.tsx';
import { useCreateCourse, useUpdateCourse } from './courses-api.ts';

type Props = {
  /** null: closed; 'new': Add Course; a course: Edit Course. */
  target: Course | 'new' | null;
  courses: Course[];
  onClose: () => void;
};

export function CourseFormDialog({ target, courses, onClose }: Props) {
  const isNew = target === 'new';
  return (
    <Modal
      focusFirstField
      open={target !== null}
      onOpenChange={(open) => !open && onClose()}
      title={isNew ? 'Add Course' : 'Edit Course'}
      description="Course code and name are required."
      size="lg"
    >
      {target !== null ? <CourseForm course={isNew ? null : target} courses={courses} onDone={onClose} /> : null}
    </Modal>
  );
}

const { min, max, step } = COURSE_FORM_HOURS;

function CourseForm({ course, courses, onDone }: { course: Course | null; courses: Course[]; onDone: () => void }) {
  const { values, bind } = useFormValues({
    courseCode: course?.courseCode ?? '',
    courseName: course?.courseName ?? '',
    clockHours: course?.clockHours != null ? String(course.clockHours) : '',
    description: course?.description ?? '',
    programId: course?.programId != null ? String(course.programId) : '',
    sisCourseId: course?.sisCourseId ?? '',
  });
  const [prerequisiteIds, setPrerequisiteIds] = useState<number[]>(course?.prerequisiteIds ?? []);
  const { formRef, errors, serverMessage, validate, showRefusal } = useFormFeedback([...Object.keys(values), 'prerequisiteIds']);
  const create = useCreateCourse();
  const update = useUpdateCourse();
  const pending = create.isPending || update.isPending;
  // A course is never offered as its own prerequisite.
  const candidates = courses.filter((c) => c.id !== course?.id);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const data = validate(courseInputSchema, { ...values, clockHours: numberOrNull(values.clockHours), programId: numberOrNull(values.programId), prerequisiteIds });
    if (!data) return;
    const handlers = {
      onSuccess: () => {
        notifySuccess(course ? 'Course updated' : 'Course created');
        onDone();
      },
      onError: (e: Error) => showRefusal(e, course ? 'Failed to update course' : 'Failed to create course'),
    };
    if (course) update.mutate({ id: course.id, input: data }, handlers);
    else create.mutate(data, handlers);
  };

  return (
    <form ref={formRef} noValidate onSubmit={onSubmit} aria-label={course ? 'Edit course' : 'Add course'}>
      {serverMessage ? <Alert className="mb-5">{serverMessage}</Alert> : null}
      <div className="grid gap-5 sm:grid-cols-2">
        <TextField label="Course code" autoComplete="off" required {...bind('courseCode')} error={errors.courseCode} />
        <TextField label="Course name" autoComplete="off" required {...bind('courseName')} error={errors.courseName} />
        <TextField
          label="Clock hours"
          type="number"
          inputMode="decimal"
          min={min}
          max={max}
          step={step}
          placeholder={`${min}-${max}`}
          {...bind('clockHours')}
          error={errors.clockHours}
          hint={errors.clockHours ? undefined : `Optional. ${min} to ${max}, in steps of ${step}.`}
        />
        <ProgramSelect {...bind('programId')} error={errors.programId} />
        <TextField label="SIS course ID" autoComplete="off" {...bind('sisCourseId')} error={errors.sisCourseId} className="sm:col-span-2" />
        <TextareaField label="Description" {...bind('description')} error={errors.description} className="sm:col-span-2" />
        <div className="sm:col-span-2">
          <PrerequisitePicker courses={candidates} value={prerequisiteIds} onChange={setPrerequisiteIds} error={errors.prerequisiteIds} />
        </div>
      </div>
      <ModalFooter>
        <ModalCancel />
        <Button type="submit" disabled={pending}>
          {pending ? <Spinner className="size-4" /> : null}
          {course ? 'Save changes' : 'Create course'}
        </Button>
      </ModalFooter>
    </form>
  );
}
