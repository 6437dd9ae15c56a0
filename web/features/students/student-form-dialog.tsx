import type { StudentStatus } from '../../../common/constants.ts';
import { RECORD_OWNED_STATUSES, studentInputSchema, studentStatusChoices, type Student } from '../../../common/students.ts';
import { ProgramSelect } from '../../components/pickers/program-select.tsx';
import { STUDENT_STATUS_LABELS } from '../../components/student-status.ts';
import { FormDialog, FormDialogBody } from '../../components/ui/form-dialog.tsx';
import { SelectField } from '../../components/ui/select-field.tsx';
import { TextField } from '../../components/ui/text-field.tsx';
import { numberOrNull, textValues, useRecordForm } from '../../components/ui/use-record-form.ts';
import { useSignedInUser } from '../../lib/use-auth.ts';
import { useCreateStudent, useUpdateStudent } from './students-api.ts';

type Props = {
  /** null: closed; 'new': Add Student; a student: Edit Student. */
  target: Student | 'new' | null;
  /** Administrators may record an SSN (stored encrypted, shown masked). */
  canEditSsn: boolean;
  onClose: () => void;
};

export function StudentFormDialog({ target, canEditSsn, onClose }: Props) {
  return (
    <FormDialog
      target={target}
      onClose={onClose}
      titles={{ add: 'Add Student', edit: 'Edit Student' }}
      description="First and last name are required; everything else can be filled in later."
      size="lg"
    >
      {(student) => <StudentForm student={student} canEditSsn={canEditSsn} onDone={onClose} />}
    </FormDialog>
  );
}

function StudentForm({ student, canEditSsn, onDone }: { student: Student | null; canEditSsn: boolean; onDone: () => void }) {
  const { bind, errorOf, submitSave } = useRecordForm({
    defaultValues: {
      ...textValues(student, ['firstName', 'lastName', 'email', 'phone', 'programId', 'sisStudentId', 'enrollmentDate']),
      status: student?.status ?? 'enrolled',
      // Never shown: the SSN on file is only masked (ssnMasked).
      socialSecurityNumber: '',
    },
    schema: studentInputSchema,
    toCandidate: ({ socialSecurityNumber, programId, ...rest }) => ({
      ...rest,
      programId: numberOrNull(programId),
      // A blank SSN on edit keeps the one on file: it is only sent when typed.
      ...(canEditSsn && socialSecurityNumber.trim() ? { socialSecurityNumber } : {}),
    }),
  });
  const create = useCreateStudent();
  const update = useUpdateStudent();
  // Only the statuses this role may set from the current one (the server applies the same rule).
  const current = (student?.status ?? null) as StudentStatus | null;
  const choices = studentStatusChoices(useSignedInUser().role, current);
  const ownedBy = current ? RECORD_OWNED_STATUSES[current] : undefined;

  const saving = submitSave({
    id: student?.id ?? null,
    create,
    update,
    savedTitle: student ? 'Student updated' : 'Student created',
    failureText: student ? 'Failed to update student. Please try again.' : 'Failed to create student. Please try again.',
    onDone,
  });

  return (
    <FormDialogBody {...saving} label={student ? 'Edit student' : 'Add student'} submitLabel={student ? 'Save changes' : 'Create student'}>
      <TextField label="First name" autoComplete="off" required {...bind('firstName')} error={errorOf('firstName')} />
      <TextField label="Last name" autoComplete="off" required {...bind('lastName')} error={errorOf('lastName')} />
      <TextField label="E-mail" type="email" autoComplete="off" {...bind('email')} error={errorOf('email')} />
      <TextField label="Phone" type="tel" autoComplete="off" {...bind('phone')} error={errorOf('phone')} />
      <ProgramSelect {...bind('programId')} error={errorOf('programId')} />
      <SelectField
        label="Status"
        {...bind('status')}
        error={errorOf('status')}
        hint={ownedBy ? ownedBy.outOf : "Withdrawals and leaves of absence are recorded on the student's Hours tab."}
      >
        {choices.map((s) => (
          <option key={s} value={s}>
            {STUDENT_STATUS_LABELS[s]}
          </option>
        ))}
      </SelectField>
      <TextField label="SIS student ID" autoComplete="off" {...bind('sisStudentId')} error={errorOf('sisStudentId')} />
      <TextField label="Enrollment date" type="date" {...bind('enrollmentDate')} error={errorOf('enrollmentDate')} />
      {canEditSsn ? (
        <TextField
          label="Social security number"
          autoComplete="off"
          inputMode="numeric"
          placeholder="123-45-6789"
          {...bind('socialSecurityNumber')}
          error={errorOf('socialSecurityNumber')}
          hint={
            errorOf('socialSecurityNumber')
              ? undefined
              : student?.ssnMasked
                ? `On file: ${student.ssnMasked}. Leave blank to keep it.`
                : 'Optional. Stored encrypted; shown masked to administrators only.'
          }
          className="sm:col-span-2"
        />
      ) : null}
    </FormDialogBody>
  );
}
