import { History } from 'lucide-react';
import { useState } from 'react';
import { openingBalanceInputSchema, type OpeningBalance } from '../../../common/opening-balances.ts';
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
import { formatDate, formatHours } from '../../lib/format.ts';
import { useSignedInUser } from '../../lib/use-auth.ts';
import { useOpeningBalance, useSaveOpeningBalance } from './students-api.ts';

/**
 * A student's hours from before the school kept attendance in Muster (decision 041): scheduled and
 * credited before a date, with where they come from and who entered them. The ledger, SAP, the
 * withdrawal watch and the reports start from it. Administrators enter or correct it.
 */
export function OpeningBalanceCard({ student }: { student: Student }) {
  const canManage = can(useSignedInUser().role, 'opening-balances:manage');
  const balance = useOpeningBalance(student.id);
  const [editing, setEditing] = useState(false);
  const b = balance.data;
  return (
    <Card className="p-5 sm:p-6">
      <section aria-labelledby="opening-heading">
        <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
          <div>
            <h2 id="opening-heading" className="text-lg font-semibold text-slate-900">
              Hours before Muster
            </h2>
            <p className="mt-1 text-sm text-slate-600">The opening balance of a student who started before the school kept attendance here.</p>
          </div>
          {canManage ? (
            <Button variant="secondary" icon={History} onClick={() => setEditing(true)} className="shrink-0">
              {b ? 'Correct opening balance' : 'Enter opening balance'}
            </Button>
          ) : null}
        </div>
        {balance.isError ? <Alert className="mt-3">The opening balance could not be loaded. Reload the page to try again.</Alert> : null}
        {balance.isLoading ? (
          <p className="mt-3 text-sm text-slate-600">Loading…</p>
        ) : b ? (
          <dl className="mt-4 grid grid-cols-1 gap-3 text-sm sm:grid-cols-3">
            <div>
              <dt className="text-slate-600">Before</dt>
              <dd className="font-semibold text-slate-900">{formatDate(b.beforeDate, 'medium')}</dd>
            </div>
            <div>
              <dt className="text-slate-600">Credited / scheduled</dt>
              <dd className="font-semibold text-slate-900 tabular-nums">
                {formatHours(b.creditedHours)} h / {formatHours(b.scheduledHours)} h
              </dd>
            </div>
            <div>
              <dt className="text-slate-600">Last attended before</dt>
              <dd className="font-semibold text-slate-900">{b.lastDateOfAttendance ? formatDate(b.lastDateOfAttendance, 'medium') : 'not given'}</dd>
            </div>
            {b.periods ? (
              <div className="sm:col-span-3">
                <dt className="text-slate-600">By payment period</dt>
                <dd className="text-slate-900">
                  {b.periods
                    .map(
                      (p) =>
                        `Period ${p.number}: ${formatHours(p.creditedHours)} h${p.completedOn ? ` (completed ${formatDate(p.completedOn, 'medium')})` : ''}`,
                    )
                    .join(' · ')}
                </dd>
              </div>
            ) : null}
            <div className="sm:col-span-3">
              <dt className="text-slate-600">Source</dt>
              <dd className="break-words text-slate-900">
                {b.note}{' '}
                <span className="text-slate-600">
                  — entered by {b.enteredByName ?? 'a former user'} on {formatDate(b.enteredAt.slice(0, 10), 'medium')}
                </span>
              </dd>
            </div>
          </dl>
        ) : (
          <p className="mt-3 text-sm text-slate-600">
            None entered: the ledger counts from the student's start, or from the date the school keeps attendance from.
          </p>
        )}
      </section>
      {canManage ? <OpeningBalanceDialog student={student} balance={b ?? null} open={editing} onClose={() => setEditing(false)} /> : null}
    </Card>
  );
}

function OpeningBalanceDialog({ student, balance, open, onClose }: { student: Student; balance: OpeningBalance | null; open: boolean; onClose: () => void }) {
  return (
    <FormDialog
      target={open ? 'new' : null}
      onClose={onClose}
      titles={{ add: 'Opening balance', edit: 'Opening balance' }}
      description={`${student.firstName} ${student.lastName}'s hours before the date Muster keeps their attendance from. Leave the date blank to use the school's (Settings › Attendance).`}
      size="lg"
    >
      {() => <OpeningBalanceForm student={student} balance={balance} onDone={onClose} />}
    </FormDialog>
  );
}

const blankToUndefined = (v: string) => (v.trim() === '' ? undefined : v);
const numberOrText = (v: string) => (v.trim() !== '' && Number.isFinite(Number(v)) ? Number(v) : v);

function OpeningBalanceForm({ student, balance, onDone }: { student: Student; balance: OpeningBalance | null; onDone: () => void }) {
  const { bind, errorOf, formRef, serverMessage, submit, showRefusal } = useRecordForm({
    defaultValues: {
      beforeDate: balance?.beforeDate ?? '',
      scheduledHours: balance ? String(balance.scheduledHours) : '',
      creditedHours: balance ? String(balance.creditedHours) : '',
      lastDateOfAttendance: balance?.lastDateOfAttendance ?? '',
      note: balance?.note ?? '',
    },
    schema: openingBalanceInputSchema,
    toCandidate: (v) => ({
      beforeDate: blankToUndefined(v.beforeDate),
      scheduledHours: numberOrText(v.scheduledHours),
      creditedHours: numberOrText(v.creditedHours),
      // The periods a balance was given with are kept as they are; this form edits the totals.
      periods: balance?.periods ?? undefined,
      lastDateOfAttendance: v.lastDateOfAttendance || null,
      note: v.note,
    }),
  });
  const save = useSaveOpeningBalance(student.id);
  const onSubmit = submit((input) =>
    save.mutate(input, {
      onSuccess: (b) => {
        notifySuccess('Opening balance saved', `${formatHours(b.creditedHours)} h credited before ${formatDate(b.beforeDate, 'medium')}.`);
        onDone();
      },
      onError: (e) => showRefusal(e, 'Failed to save the opening balance. Please try again.'),
    }),
  );
  return (
    <FormDialogBody
      formRef={formRef}
      onSubmit={onSubmit}
      label="Opening balance"
      serverMessage={serverMessage}
      pending={save.isPending}
      submitLabel="Save opening balance"
    >
      <TextField label="Before (first day kept in Muster)" type="date" {...bind('beforeDate')} error={errorOf('beforeDate')} hint="Blank: the school's date" />
      <TextField
        label="Last attended before it"
        type="date"
        {...bind('lastDateOfAttendance')}
        error={errorOf('lastDateOfAttendance')}
        hint="Optional: the withdrawal watch counts from it"
      />
      <TextField label="Scheduled hours" inputMode="decimal" required {...bind('scheduledHours')} error={errorOf('scheduledHours')} />
      <TextField label="Credited hours" inputMode="decimal" required {...bind('creditedHours')} error={errorOf('creditedHours')} />
      <TextareaField
        label="Source"
        required
        {...bind('note')}
        error={errorOf('note')}
        className="sm:col-span-2"
        placeholder="e.g. Hours report of the previous system, signed off by the registrar"
      />
    </FormDialogBody>
  );
}
