import { type FormEvent } from 'react';
import { STUDENT_STATUSES } from '../../../common/constants.ts';
import { studentInputSchema, type Student } from '../../../common/students.ts';
import { Alert } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Modal, ModalCancel, ModalFooter } from '../../components/ui/dialog.tsx';
import { useFormFeedback } from '../../components/ui/use-form-feedback.ts';
import { notifySuccess } from '../../components/ui/notify.ts';
import { SelectField } from '../../components/ui/select-field.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { TextField } from '../../components/ui/text-field.tsx';
import { numberOrNull, useFormValues } from '../../components/ui/use-form-values.ts';
import { STUDENT_STATUS_LABELS } from '../../components/student-status.ts';
import { ProgramSelect } from '../../components/pickers/program-select.tsx';
import { useCreateStudent, useUpdateStudent } from './students-api.ts';

type Props = {
  /** null: closed; 'new': Add Student; a student: Edit Student. */
  target: Student | 'new' | null;
  /** Administrators may record an SSN (stored encrypted, shown masked). */
  canEditSsn: boolean;
  onClose: () => void;
};

export function StudentFormDialog({ target, canEditSsn, onClose }: Props) {
  const isNew = target === 'new';
  return (
    <Modal
      focusFirstField
      open={target !== null}
      onOpenChange={(open) => !open && onClose()}
      title={isNew ? 'Add Student' : 'Edit Student'}
      description="First and last name are required; everything else can be filled in later."
      size="lg"
    >
      {target !== null ? <StudentForm student={isNew ? null : target} canEditSsn={canEditSsn} onDone={onClose} /> : null}
    </Modal>
  );
}

function StudentForm({ student, canEditSsn, onDone }: { student: Student | null; canEditSsn: boolean; onDone: () => void }) {
  const { values, bind } = useFormValues({
    firstName: student?.firstName ?? '',
    lastName: student?.lastName ?? '',
    email: student?.email ?? '',
    phone: student?.phone ?? '',
    programId: student?.programId != null ? String(student.programId) : '',
    status: student?.status ?? 'enrolled',
    sisStudentId: student?.sisStudentId ?? '',
    enrollmentDate: student?.enrollmentDate ?? '',
    socialSecurityNumber: '',
  });
  const { formRef, errors, serverMessage, validate, showRefusal } = useFormFeedback(Object.keys(values));
  const create = useCreateStudent();
  const update = useUpdateStudent();
  const pending = create.isPending || update.isPending;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const { socialSecurityNumber, programId, ...rest } = values;
    // A blank SSN on edit keeps the one on file: it is only sent when typed.
    const candidate = { ...rest, programId: numberOrNull(programId), ...(canEditSsn && socialSecurityNumber.trim() ? { socialSecurityNumber } : {}) };
    const data = validate(studentInputSchema, candidate);
    if (!data) return;
    const failure = student ? 'Failed to update student. Please try again.' : 'Failed to create student. Please try again.';
    const handlers = {
      onSuccess: () => {
        notifySuccess(student ? 'Student updated' : 'Student created');
        onDone();
      },
      onError: (e: Error) => showRefusal(e, failure),
    };
    if (student) update.mutate({ id: student.id, input: data }, handlers);
    else create.mutate(data, handlers);
  };

  return (
    <form ref={formRef} noValidate onSubmit={onSubmit} aria-label={student ? 'Edit student' : 'Add student'}>
      {serverMessage ? <Alert className="mb-5">{serverMessage}</Alert> : null}
      <div className="grid gap-5 sm:grid-cols-2">
        <TextField label="First name" autoComplete="off" required {...bind('firstName')} error={errors.firstName} />
        <TextField label="Last name" autoComplete="off" required {...bind('lastName')} error={errors.lastName} />
        <TextField label="E-mail" type="email" autoComplete="off" {...bind('email')} error={errors.email} />
        <TextField label="Phone" type="tel" autoComplete="off" {...bind('phone')} error={errors.phone} />
        <ProgramSelect {...bind('programId')} error={errors.programId} />
        <SelectField label="Status" {...bind('status')} error={errors.status}>
          {STUDENT_STATUSES.map((s) => (
            <option key={s} value={s}>
              {STUDENT_STATUS_LABELS[s]}
            </option>
          ))}
        </SelectField>
        <TextField label="SIS student ID" autoComplete="off" {...bind('sisStudentId')} error={errors.sisStudentId} />
        <TextField label="Enrollment date" type="date" {...bind('enrollmentDate')} error={errors.enrollmentDate} />
        {canEditSsn ? (
          <TextField
            label="Social security number"
            autoComplete="off"
            inputMode="numeric"
            placeholder="123-45-6789"
            {...bind('socialSecurityNumber')}
            error={errors.socialSecurityNumber}
            hint={errors.socialSecurityNumber ? undefined : student?.ssnMasked ? `On file: ${student.ssnMasked}. Leave blank to keep it.` : 'Optional. Stored encrypted; shown masked to administrators only.'}
            className="sm:col-span-2"
          />
        ) : null}
      </div>
      <ModalFooter>
        <ModalCancel />
        <Button type="submit" disabled={pending}>
          {pending ? <Spinner className="size-4" /> : null}
          {student ? 'Save changes' : 'Create student'}
        </Button>
      </ModalFooter>
    </form>
  );
}
