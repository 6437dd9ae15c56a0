import { useState } from 'react';
import { withdrawalInputSchema, type WatchRow, type Withdrawal } from '../../../common/compliance.ts';
import { Button } from '../../components/ui/button.tsx';
import { Modal, ModalFooter } from '../../components/ui/dialog.tsx';
import { FormDialogBody } from '../../components/ui/form-dialog.tsx';
import { TextField } from '../../components/ui/text-field.tsx';
import { TextareaField } from '../../components/ui/textarea-field.tsx';
import { useRecordForm } from '../../components/ui/use-record-form.ts';
import { localDate } from '../../lib/download.ts';
import { formatDate } from '../../lib/format.ts';
import { useRecordWithdrawal } from './compliance-api.ts';

/**
 * Record a withdrawal from the watch: the withdrawal date defaults to the LDA, the determination
 * date to today, a reason is required. The answer's refund inputs are shown before closing: the
 * financial aid office needs them for the return-of-funds calculation.
 */
export function WithdrawalDialog({ row, onClose }: { row: WatchRow | null; onClose: () => void }) {
  const [result, setResult] = useState<Withdrawal | null>(null);
  const close = () => {
    setResult(null);
    onClose();
  };
  return (
    <Modal
      open={row != null}
      onOpenChange={(open) => !open && close()}
      size="lg"
      title={result ? 'Withdrawal recorded' : 'Record withdrawal'}
      description={row ? `${row.firstName} ${row.lastName}${row.sisStudentId ? ` (${row.sisStudentId})` : ''} · ${row.programName ?? 'no program'}` : undefined}
    >
      {row && result ? <RefundInputs result={result} onDone={close} /> : row ? <WithdrawalForm key={row.studentId} row={row} onDone={setResult} /> : null}
    </Modal>
  );
}

function WithdrawalForm({ row, onDone }: { row: WatchRow; onDone: (w: Withdrawal) => void }) {
  const { bind, errorOf, formRef, serverMessage, submit, showRefusal } = useRecordForm({
    defaultValues: { withdrawalDate: row.lastDateOfAttendance ?? '', determinationDate: localDate(), reason: '' },
    schema: withdrawalInputSchema,
    toCandidate: ({ withdrawalDate, determinationDate, reason }) => ({
      withdrawalDate: withdrawalDate || undefined,
      determinationDate: determinationDate || undefined,
      reason,
    }),
  });
  const record = useRecordWithdrawal();
  const onSubmit = submit((input) =>
    record.mutate(
      { studentId: row.studentId, ...input },
      { onSuccess: onDone, onError: (e) => showRefusal(e, 'Failed to record the withdrawal. Please try again.') },
    ),
  );
  return (
    <FormDialogBody
      formRef={formRef}
      onSubmit={onSubmit}
      label="Record withdrawal"
      serverMessage={serverMessage}
      pending={record.isPending}
      submitLabel="Record withdrawal"
    >
      <p className="text-sm text-slate-700 sm:col-span-2">
        Last date of attendance: <strong>{row.lastDateOfAttendance ? formatDate(row.lastDateOfAttendance, 'medium') : 'never attended'}</strong>. Determination
        due by <strong>{formatDate(row.determinationDueBy, 'medium')}</strong>.
      </p>
      <TextField
        label="Withdrawal date"
        type="date"
        hint="Defaults to the last date of attendance."
        {...bind('withdrawalDate')}
        error={errorOf('withdrawalDate')}
      />
      <TextField
        label="Determination date"
        type="date"
        hint="The day the school determined the withdrawal."
        {...bind('determinationDate')}
        error={errorOf('determinationDate')}
      />
      <TextareaField
        label="Reason"
        required
        {...bind('reason')}
        error={errorOf('reason')}
        className="sm:col-span-2"
        placeholder="e.g. No contact after three calls and a letter"
      />
    </FormDialogBody>
  );
}

function RefundInputs({ result, onDone }: { result: Withdrawal; onDone: () => void }) {
  const items: [string, string][] = [
    ['Withdrawal date', formatDate(result.withdrawalDate, 'medium')],
    ['Determination date', formatDate(result.determinationDate, 'medium')],
    ['Last date of attendance', result.lastDateOfAttendance ? formatDate(result.lastDateOfAttendance, 'medium') : '—'],
    ['Payment period', result.paymentPeriod == null ? '—' : String(result.paymentPeriod)],
    ['Hours in the period', result.periodHours == null ? '—' : String(result.periodHours)],
    ['Scheduled hours in the period to the withdrawal', String(result.scheduledHoursInPeriodToWithdrawal)],
    ['Percent of the period scheduled', result.percentOfPeriodScheduled == null ? '—' : `${result.percentOfPeriodScheduled}%`],
    ['Credited hours in the period', String(result.creditedHoursInPeriod)],
  ];
  return (
    <div>
      <p className="mb-4 text-sm text-slate-700">The student is now withdrawn. The refund (R2T4) inputs for clock hours:</p>
      <dl className="grid grid-cols-1 gap-x-6 gap-y-2 text-sm sm:grid-cols-2" aria-label="Refund inputs">
        {items.map(([label, value]) => (
          <div key={label} className="flex justify-between gap-3 border-b border-slate-100 py-1.5">
            <dt className="text-slate-600">{label}</dt>
            <dd className="font-semibold text-slate-900 tabular-nums">{value}</dd>
          </div>
        ))}
      </dl>
      <ModalFooter>
        <Button onClick={onDone}>Done</Button>
      </ModalFooter>
    </div>
  );
}
