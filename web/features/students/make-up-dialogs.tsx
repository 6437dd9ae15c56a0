import type { ComponentPropsWithRef } from 'react';
import { makeUpDeleteSchema, makeUpInputSchema, type MakeUpSession } from '../../../common/make-ups.ts';
import { can } from '../../../common/permissions.ts';
import type { Student } from '../../../common/students.ts';
import { Alert } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Modal, ModalCancel, ModalFooter } from '../../components/ui/dialog.tsx';
import { FormDialog, FormDialogBody } from '../../components/ui/form-dialog.tsx';
import { notifySuccess } from '../../components/ui/notify.ts';
import { SelectField } from '../../components/ui/select-field.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { TextField } from '../../components/ui/text-field.tsx';
import { TextareaField } from '../../components/ui/textarea-field.tsx';
import { numberOrNull, numberOrUndefined, useRecordForm } from '../../components/ui/use-record-form.ts';
import { localDate } from '../../lib/download.ts';
import { formatClockRange, formatDate, formatHm } from '../../lib/format.ts';
import { useCourses, useUsers } from '../../lib/shared-queries.ts';
import { useSignedInUser } from '../../lib/use-auth.ts';
import { useDeleteMakeUp, useRecordMakeUp } from './students-api.ts';
import { isInstructor, maySuperviseMakeUps } from '../../../common/roles.ts';

/** Roles that may supervise make-up time (the server checks the account is active too). */

export function RecordMakeUpDialog({ student, open, onClose }: { student: Student; open: boolean; onClose: () => void }) {
  return (
    <FormDialog
      target={open ? 'new' : null}
      onClose={onClose}
      titles={{ add: 'Record make-up', edit: 'Record make-up' }}
      description={`Time ${student.firstName} ${student.lastName} spent outside the regular schedule to replace missed time, supervised by a named instructor.`}
      size="lg"
    >
      {() => <MakeUpForm student={student} onDone={onClose} />}
    </FormDialog>
  );
}

function MakeUpForm({ student, onDone }: { student: Student; onDone: () => void }) {
  const user = useSignedInUser();
  const today = localDate();
  const { bind, errorOf, formRef, serverMessage, submit, showRefusal } = useRecordForm({
    defaultValues: { date: today, startTime: '', endTime: '', supervisorId: String(user.id), courseId: '', note: '' },
    schema: makeUpInputSchema,
    toCandidate: ({ supervisorId, courseId, ...rest }) => ({ ...rest, supervisorId: numberOrUndefined(supervisorId), courseId: numberOrNull(courseId) }),
  });
  const record = useRecordMakeUp(student.id);
  const onSubmit = submit((input) =>
    record.mutate(input, {
      onSuccess: (session) => {
        notifySuccess('Make-up recorded', `${formatHm(session.minutes)} h on ${formatDate(session.date, 'medium')}.`);
        onDone();
      },
      onError: (e) => showRefusal(e, 'Failed to record make-up. Please try again.'),
    }),
  );
  return (
    <FormDialogBody
      formRef={formRef}
      onSubmit={onSubmit}
      label="Record make-up"
      serverMessage={serverMessage}
      pending={record.isPending}
      submitLabel="Record make-up"
    >
      <TextField label="Date" type="date" max={today} required {...bind('date')} error={errorOf('date')} className="sm:col-span-2" />
      <TextField label="Start time" type="time" required {...bind('startTime')} error={errorOf('startTime')} />
      <TextField label="End time" type="time" required {...bind('endTime')} error={errorOf('endTime')} />
      <SupervisorSelect {...bind('supervisorId')} error={errorOf('supervisorId')} />
      <MakeUpCourseSelect programId={student.programId} {...bind('courseId')} error={errorOf('courseId')} />
      <TextareaField label="Note" {...bind('note')} error={errorOf('note')} className="sm:col-span-2" placeholder="What was covered (optional)" />
    </FormDialogBody>
  );
}

type SelectProps = { name: string; value: string; error?: string | undefined } & Omit<ComponentPropsWithRef<'select'>, 'id' | 'children'>;

/**
 * Administrators choose any active instructor or administrator (GET /api/users); anyone else
 * supervises their own make-up time, so the choice is only themselves.
 */
function SupervisorSelect(props: SelectProps) {
  const user = useSignedInUser();
  const listsStaff = can(user.role, 'users:view');
  const users = useUsers({ enabled: listsStaff });
  const staff = listsStaff
    ? (users.data ?? [])
        .filter((u) => u.isActive && maySuperviseMakeUps(u))
        .sort((a, b) => a.lastName.localeCompare(b.lastName) || a.firstName.localeCompare(b.firstName))
    : [];
  const options = staff.some((u) => u.id === user.id) || !listsStaff ? [{ id: user.id, name: `${user.firstName} ${user.lastName} (you)` }] : [];
  for (const u of staff) if (u.id !== user.id) options.push({ id: u.id, name: `${u.firstName} ${u.lastName}${isInstructor(u) ? '' : ' (administrator)'}` });
  return (
    <SelectField
      label="Supervisor"
      required
      hint={
        listsStaff
          ? users.isError
            ? 'Staff could not be loaded.'
            : 'An active instructor or administrator'
          : 'You record make-up time you supervised yourself'
      }
      {...props}
    >
      {listsStaff && users.isLoading ? <option value={props.value}>Loading staff…</option> : null}
      {options.map((o) => (
        <option key={o.id} value={o.id}>
          {o.name}
        </option>
      ))}
    </SelectField>
  );
}

/** The course the make-up time belongs to, if any: the student's program's active courses first (all active ones without a program). */
function MakeUpCourseSelect({ programId, ...props }: SelectProps & { programId: number | null }) {
  const courses = useCourses();
  const active = (courses.data ?? []).filter((c) => c.isActive);
  const ofProgram = active.filter((c) => programId != null && c.programId === programId);
  const shown = ofProgram.length > 0 ? ofProgram : active;
  return (
    <SelectField label="Course (optional)" hint={courses.isError ? 'Courses could not be loaded.' : undefined} {...props}>
      <option value="">No particular course</option>
      {shown.map((c) => (
        <option key={c.id} value={c.id}>
          {c.courseCode} — {c.courseName}
        </option>
      ))}
    </SelectField>
  );
}

/** Deleting make-up time takes a reason; the server keeps it in the audit log. */
export function DeleteMakeUpDialog({ student, session, onClose }: { student: Student; session: MakeUpSession | null; onClose: () => void }) {
  return (
    <Modal
      open={session !== null}
      onOpenChange={(open) => !open && onClose()}
      focusFirstField
      size="md"
      title="Delete make-up session?"
      description={
        session
          ? `${formatDate(session.date, 'medium')}, ${formatClockRange(session.startTime, session.endTime)} (${formatHm(session.minutes)} h) supervised by ${session.supervisorName}. The hours leave the ledger; the reason is kept in the audit log.`
          : undefined
      }
    >
      {session ? <DeleteForm student={student} session={session} onDone={onClose} /> : null}
    </Modal>
  );
}

function DeleteForm({ student, session, onDone }: { student: Student; session: MakeUpSession; onDone: () => void }) {
  const { bind, errorOf, formRef, serverMessage, submit, showRefusal } = useRecordForm({
    defaultValues: { reason: '' },
    schema: makeUpDeleteSchema,
    toCandidate: (v) => v,
  });
  const remove = useDeleteMakeUp(student.id);
  const onSubmit = submit(({ reason }) =>
    remove.mutate(
      { sessionId: session.id, reason },
      {
        onSuccess: () => {
          notifySuccess('Make-up session deleted');
          onDone();
        },
        onError: (e) => showRefusal(e, 'Failed to delete the make-up session. Please try again.'),
      },
    ),
  );
  return (
    <form ref={formRef} noValidate onSubmit={onSubmit} aria-label="Delete make-up session">
      {serverMessage ? <Alert className="mb-5">{serverMessage}</Alert> : null}
      <TextareaField label="Reason" required {...bind('reason')} error={errorOf('reason')} placeholder="Why this make-up time is removed" />
      <ModalFooter>
        <ModalCancel />
        <Button type="submit" variant="destructive" disabled={remove.isPending}>
          {remove.isPending ? <Spinner className="size-4" /> : null}
          Delete make-up session
        </Button>
      </ModalFooter>
    </form>
  );
}
