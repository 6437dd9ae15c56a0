import { closureInputSchema } from '../../../common/calendar.ts';
import { FormDialog, FormDialogBody } from '../../components/ui/form-dialog.tsx';
import { notifySuccess } from '../../components/ui/notify.ts';
import { SelectField } from '../../components/ui/select-field.tsx';
import { TextField } from '../../components/ui/text-field.tsx';
import { numberOrNull, useRecordForm } from '../../components/ui/use-record-form.ts';
import { usePrograms } from '../../lib/shared-queries.ts';
import { useCreateClosure } from './calendar-api.ts';
import type { Closure } from '../../../common/calendar.ts';

export function ClosureFormDialog({ open, onClose, onCreated }: { open: boolean; onClose: () => void; onCreated: (c: Closure) => void }) {
  return (
    <FormDialog
      target={open ? 'new' : null}
      onClose={onClose}
      titles={{ add: 'Add Closure', edit: 'Add Closure' }}
      description="Closed days are never scheduled and never count as absences."
    >
      {() => <ClosureForm onDone={onClose} onCreated={onCreated} />}
    </FormDialog>
  );
}

function ClosureForm({ onDone, onCreated }: { onDone: () => void; onCreated: (c: Closure) => void }) {
  const programs = usePrograms();
  const { formRef, bind, errorOf, serverMessage, submit, showRefusal } = useRecordForm({
    defaultValues: { startDate: '', endDate: '', name: '', programId: '' },
    schema: closureInputSchema,
    toCandidate: (v) => ({ ...v, programId: numberOrNull(v.programId) }),
  });
  const create = useCreateClosure();
  const onSubmit = submit((data) =>
    create.mutate(data, {
      onSuccess: (created) => {
        notifySuccess('Closure added', created.name);
        onCreated(created);
        onDone();
      },
      onError: (e) => showRefusal(e, 'Failed to add the closure'),
    }),
  );
  return (
    <FormDialogBody
      formRef={formRef}
      onSubmit={onSubmit}
      label="Add closure"
      serverMessage={serverMessage}
      pending={create.isPending}
      submitLabel="Add closure"
    >
      <TextField label="Start date" type="date" required {...bind('startDate')} error={errorOf('startDate')} />
      <TextField
        label="End date"
        type="date"
        required
        {...bind('endDate')}
        error={errorOf('endDate')}
        hint="The last closed day; the same as the start for one day."
      />
      <TextField label="Name" autoComplete="off" required {...bind('name')} error={errorOf('name')} placeholder="e.g. Thanksgiving" className="sm:col-span-2" />
      <SelectField
        label="Applies to"
        {...bind('programId')}
        error={errorOf('programId')}
        hint={programs.isError ? 'Programs could not be loaded.' : undefined}
        className="sm:col-span-2"
      >
        <option value="">The whole school</option>
        {(programs.data ?? []).map((p) => (
          <option key={p.id} value={p.id}>
            {p.programName} only
          </option>
        ))}
      </SelectField>
    </FormDialogBody>
  );
}
