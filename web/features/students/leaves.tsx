import { CalendarClock, CalendarX } from 'lucide-react';
import { useState } from 'react';
import { MAX_LEAVE_DAYS_IN_12_MONTHS, leaveInputSchema, leaveLength, leaveUpdateSchema, worstLeaveWindow, type Leave } from '../../../common/compliance.ts';
import { addDays } from '../../../common/dates.ts';
import { can } from '../../../common/permissions.ts';
import type { Student } from '../../../common/students.ts';
import { Alert } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { FormDialog, FormDialogBody } from '../../components/ui/form-dialog.tsx';
import { notifySuccess } from '../../components/ui/notify.ts';
import { TextField } from '../../components/ui/text-field.tsx';
import { TextareaField } from '../../components/ui/textarea-field.tsx';
import { useRecordForm } from '../../components/ui/use-record-form.ts';
import { localDate } from '../../lib/download.ts';
import { formatDate } from '../../lib/format.ts';
import { useSignedInUser } from '../../lib/use-auth.ts';
import { useLeaves, useRecordLeave, useUpdateLeave } from './students-api.ts';

/** Leave days inside the 12 months that end on `date`. */
function daysUsedInYearTo(leaves: Leave[], date: string): number {
  const from = addDays(date, -364);
  return leaves.reduce((n, l) => {
    const a = l.startDate > from ? l.startDate : from;
    const b = l.endDate < date ? l.endDate : date;
    return b >= a ? n + leaveLength({ startDate: a, endDate: b }) : n;
  }, 0);
}

/**
 * Leaves of absence (decision 016): their days are neither scheduled nor absent and push the expected
 * end out. Administrators record one, or end it early on return / extend it.
 */
export function Leaves({ student }: { student: Student }) {
  const user = useSignedInUser();
  const canManage = can(user.role, 'leaves:manage');
  const leaves = useLeaves(student.id);
  const [recording, setRecording] = useState(false);
  const [changing, setChanging] = useState<Leave | null>(null);
  const rows = [...(leaves.data ?? [])].sort((a, b) => b.startDate.localeCompare(a.startDate));
  const today = localDate();
  const used = daysUsedInYearTo(leaves.data ?? [], today);

  return (
    <Card className="overflow-hidden">
      <section aria-labelledby="leaves-heading">
        <div className="flex flex-col gap-3 px-5 pt-5 sm:flex-row sm:items-start sm:justify-between sm:px-6">
          <div>
            <h2 id="leaves-heading" className="text-lg font-semibold text-slate-900">
              Leaves of absence
            </h2>
            <p className="mt-1 text-sm text-slate-600">
              {used} of {MAX_LEAVE_DAYS_IN_12_MONTHS} days used in the last 12 months. Leave days are neither scheduled nor absent.
            </p>
          </div>
          {canManage && student.status !== 'withdrawn' ? (
            <Button icon={CalendarClock} onClick={() => setRecording(true)} className="shrink-0">
              Record leave
            </Button>
          ) : null}
        </div>
        {leaves.isError ? <Alert className="mx-5 mt-4 sm:mx-6">The leaves could not be loaded. Reload the page to try again.</Alert> : null}
        {rows.length === 0 ? (
          <p className="px-5 py-6 text-sm text-slate-600 sm:px-6">{leaves.isLoading ? 'Loading…' : 'No leaves recorded.'}</p>
        ) : (
          <ul className="mt-4 divide-y divide-slate-100 border-t border-slate-200">
            {rows.map((l) => (
              <li key={l.id} className="flex flex-col gap-2 px-5 py-3 sm:flex-row sm:items-center sm:justify-between sm:px-6">
                <div>
                  <p className="font-medium text-slate-900">
                    {formatDate(l.startDate, 'medium')} – {formatDate(l.endDate, 'medium')} <span className="font-normal text-slate-600">({l.days} days)</span>
                    {l.startDate <= today && l.endDate >= today ? (
                      <span className="ml-2 rounded bg-amber-100 px-1.5 py-0.5 text-xs font-semibold text-amber-900">On leave now</span>
                    ) : null}
                  </p>
                  <p className="text-sm break-words text-slate-600">{l.reason}</p>
                </div>
                {canManage && l.endDate >= today ? (
                  <Button
                    size="sm"
                    variant="secondary"
                    icon={CalendarX}
                    onClick={() => setChanging(l)}
                    aria-label={`End or extend the leave of ${formatDate(l.startDate, 'medium')}`}
                  >
                    End or extend
                  </Button>
                ) : null}
              </li>
            ))}
          </ul>
        )}
      </section>
      {canManage ? <RecordLeaveDialog student={student} leaves={leaves.data ?? []} open={recording} onClose={() => setRecording(false)} /> : null}
      {canManage ? <ChangeLeaveDialog student={student} leave={changing} onClose={() => setChanging(null)} /> : null}
    </Card>
  );
}

function RecordLeaveDialog({ student, leaves, open, onClose }: { student: Student; leaves: Leave[]; open: boolean; onClose: () => void }) {
  return (
    <FormDialog
      target={open ? 'new' : null}
      onClose={onClose}
      titles={{ add: 'Record leave', edit: 'Record leave' }}
      description={`An approved leave of absence for ${student.firstName} ${student.lastName}.`}
      size="lg"
    >
      {() => <RecordLeaveForm student={student} leaves={leaves} onDone={onClose} />}
    </FormDialog>
  );
}

function RecordLeaveForm({ student, leaves, onDone }: { student: Student; leaves: Leave[]; onDone: () => void }) {
  const { bind, errorOf, formRef, serverMessage, submit, showRefusal } = useRecordForm({
    defaultValues: { startDate: localDate(), endDate: '', reason: '' },
    schema: leaveInputSchema,
    toCandidate: (v) => v,
  });
  const record = useRecordLeave(student.id);
  const [startDate, endDate] = [bind('startDate').value, bind('endDate').value];
  const candidate = startDate && endDate && endDate >= startDate ? { startDate, endDate } : null;
  const worst = candidate ? worstLeaveWindow([...leaves, candidate]).days : null;
  const onSubmit = submit((input) =>
    record.mutate(input, {
      onSuccess: (leave) => {
        notifySuccess('Leave recorded', `${leave.days} days from ${formatDate(leave.startDate, 'medium')}.`);
        onDone();
      },
      onError: (e) => showRefusal(e, 'Failed to record the leave. Please try again.'),
    }),
  );
  return (
    <FormDialogBody
      formRef={formRef}
      onSubmit={onSubmit}
      label="Record leave"
      serverMessage={serverMessage}
      pending={record.isPending}
      submitLabel="Record leave"
    >
      <p className="text-sm text-slate-700 sm:col-span-2" aria-live="polite">
        {daysUsedInYearTo(leaves, localDate())} days used in the last 12 months (at most {MAX_LEAVE_DAYS_IN_12_MONTHS} in any 12 months).
        {candidate && worst != null ? ` This leave: ${leaveLength(candidate)} days; with it, the most in any 12 months is ${worst}.` : ''}
      </p>
      <TextField label="First day" type="date" required {...bind('startDate')} error={errorOf('startDate')} />
      <TextField label="Last day" type="date" required {...bind('endDate')} error={errorOf('endDate')} />
      <TextareaField
        label="Reason"
        required
        {...bind('reason')}
        error={errorOf('reason')}
        className="sm:col-span-2"
        placeholder="e.g. Medical leave approved by the director"
      />
    </FormDialogBody>
  );
}

function ChangeLeaveDialog({ student, leave, onClose }: { student: Student; leave: Leave | null; onClose: () => void }) {
  return (
    <FormDialog
      target={leave ? 'new' : null}
      onClose={onClose}
      titles={{ add: 'End or extend leave', edit: 'End or extend leave' }}
      description={leave ? `${formatDate(leave.startDate, 'medium')} – ${formatDate(leave.endDate, 'medium')}: give the new last day.` : ''}
    >
      {() => (leave ? <ChangeLeaveForm student={student} leave={leave} onDone={onClose} /> : null)}
    </FormDialog>
  );
}

function ChangeLeaveForm({ student, leave, onDone }: { student: Student; leave: Leave; onDone: () => void }) {
  const { bind, errorOf, formRef, serverMessage, submit, showRefusal } = useRecordForm({
    defaultValues: { endDate: leave.endDate },
    schema: leaveUpdateSchema,
    toCandidate: (v) => v,
  });
  const update = useUpdateLeave(student.id);
  const onSubmit = submit((input) =>
    update.mutate(
      { leaveId: leave.id, endDate: input.endDate },
      {
        onSuccess: (l) => {
          notifySuccess('Leave updated', `It now ends on ${formatDate(l.endDate, 'medium')} (${l.days} days).`);
          onDone();
        },
        onError: (e) => showRefusal(e, 'Failed to update the leave. Please try again.'),
      },
    ),
  );
  return (
    <FormDialogBody
      formRef={formRef}
      onSubmit={onSubmit}
      label="End or extend leave"
      serverMessage={serverMessage}
      pending={update.isPending}
      submitLabel="Save"
    >
      <TextField label="Last day" type="date" min={leave.startDate} required {...bind('endDate')} error={errorOf('endDate')} className="sm:col-span-2" />
    </FormDialogBody>
  );
}
