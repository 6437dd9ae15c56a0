import { EXCUSED_CAP_CEILING_PERCENT, POLICY_DEFAULTS, programPolicyInputSchema, type ProgramPolicy } from '../../../common/program-policy.ts';
import { programHoursProblem, programHoursWarning, type Program } from '../../../common/programs.ts';
import { Alert } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Modal, ModalCancel, ModalFooter } from '../../components/ui/dialog.tsx';
import { notifySuccess } from '../../components/ui/notify.ts';
import { Spinner } from '../../components/ui/spinner.tsx';
import { TextField } from '../../components/ui/text-field.tsx';
import { numberOrNull, useRecordForm } from '../../components/ui/use-record-form.ts';
import { useProgramPolicy, useSaveProgramPolicy } from './programs-api.ts';

/** Hours and weeks as people read them: 1,500 · 13.5. */
const fmt = (n: number) => n.toLocaleString('en-US', { maximumFractionDigits: 2 });

export function ProgramPolicyDialog({ program, onClose }: { program: Program | null; onClose: () => void }) {
  return (
    <Modal
      focusFirstField
      open={program !== null}
      onOpenChange={(open) => !open && onClose()}
      title={program ? `Clock-hour policy: ${program.programName}` : 'Clock-hour policy'}
      description="A blank field takes the default shown under it. The payment periods follow from the program's hours and weeks and its academic year."
      size="xl"
    >
      {program ? <PolicyLoader programId={program.id} /> : null}
    </Modal>
  );
}

function PolicyLoader({ programId }: { programId: number }) {
  const policy = useProgramPolicy(programId);
  if (policy.isError) return <Alert>The policy could not be loaded. Close this dialog and try again.</Alert>;
  // A cached policy known to be out of date (the program's hours changed: decision 040) is not a
  // form's starting values: wait for the fresh one.
  if (!policy.data || (policy.isStale && policy.isFetching)) {
    return (
      <p role="status" className="flex items-center gap-2 text-sm text-slate-600">
        <Spinner className="size-4 text-blue-700" /> Loading the policy…
      </p>
    );
  }
  return <PolicyForm policy={policy.data} />;
}

type Key = keyof typeof FIELD_SPECS;
type Values = Record<Key, string> & { alertCopyToStudent: boolean; recordsStartDate: string };

/**
 * Each setting: its label, the rule it follows, and for the defaults derived from other values
 * (programHours, programWeeks, the checkpoints; no make-up cap) how they are derived. The other
 * defaults are POLICY_DEFAULTS.
 */
const FIELD_SPECS: Record<
  Exclude<keyof typeof POLICY_DEFAULTS, 'alertCopyToStudent'> | 'programHours' | 'programWeeks' | 'sapCheckpointHours',
  { label: string; step?: number; rule?: string; derived?: string }
> = {
  programHours: {
    label: 'Program hours',
    step: 0.5,
    derived: 'the active courses’ clock hours',
    rule: 'The program’s Duration hours: one figure, changed here or on the program.',
  },
  programWeeks: { label: 'Program weeks', step: 0.5, derived: 'hours ÷ academic-year hours × academic-year weeks, rounded up' },
  academicYearHours: { label: 'Academic year hours', step: 0.5, rule: 'At least 900.' },
  academicYearWeeks: { label: 'Academic year weeks', step: 0.5, rule: 'At least 26.' },
  excusedCapPercent: { label: 'Excused absence cap (%)', step: 0.1, rule: `0 to ${EXCUSED_CAP_CEILING_PERCENT}% of each payment period’s hours.` },
  minimumAttendancePercent: { label: 'Minimum attendance (%)', step: 0.1, rule: 'Credited ÷ scheduled hours at each SAP checkpoint.' },
  sapCheckpointHours: { label: 'SAP checkpoints (hours)', derived: 'the payment periods’ ends', rule: 'Hours in increasing order, separated by commas.' },
  withdrawAfterDays: { label: 'Withdraw after (days without attendance)', step: 1, rule: '1 to 14 consecutive calendar days.' },
  makeUpDeadlineDays: { label: 'Make-up deadline (days)', step: 1, rule: 'Days allowed to make up missed time.' },
  makeUpThresholdMinutes: { label: 'Make-up owed from (minutes)', step: 1, rule: 'Students owing less are not listed as owing make-up.' },
  makeUpCapPercent: { label: 'Make-up cap (% of program hours)', step: 0.1, derived: 'no cap' },
  attendanceEditLockDays: { label: 'Lock attendance after (days)', step: 1, derived: 'never locked', rule: 'Older records: super admin only, with a reason.' },
  consecutiveAbsenceAlert: {
    label: 'Alert after consecutive absences',
    step: 1,
    derived: 'no such alert',
    rule: '2 to 30 meetings in a row: e-mails the instructors and opted-in administrators.',
  },
};
const KEYS = Object.keys(FIELD_SPECS) as Key[];

/** Whether a program has its own value for a setting (false: the default is in force). */
function isSet(policy: ProgramPolicy, key: Key): boolean {
  if (key === 'programHours' || key === 'programWeeks' || key === 'sapCheckpointHours') return policy.isSet[key];
  return policy[key] !== POLICY_DEFAULTS[key];
}

/** A value as the form's input holds it (no thousands separators: it is read back as a number). */
function inputText(policy: ProgramPolicy, key: Key): string {
  const v = policy[key];
  return v === null ? '' : Array.isArray(v) ? v.join(', ') : String(v);
}

function shownText(policy: ProgramPolicy, key: Key): string {
  const v = policy[key];
  if (v === null) return 'none';
  return Array.isArray(v) ? (v.length ? v.join(', ') : 'none') : fmt(v);
}

/** The form starts with the program's own values; a default in force is a blank field. */
function startValues(policy: ProgramPolicy): Values {
  const values = { alertCopyToStudent: policy.alertCopyToStudent, recordsStartDate: policy.recordsStartDate ?? '' } as Values;
  for (const key of KEYS) values[key] = isSet(policy, key) ? inputText(policy, key) : '';
  return values;
}

/** Under each field: the value in force, marked "default" when it is one, and what a blank field means. */
function hintFor(policy: ProgramPolicy, key: Key): string {
  const { rule, derived } = FIELD_SPECS[key];
  const fixedDefault = key in POLICY_DEFAULTS ? (POLICY_DEFAULTS[key as keyof typeof POLICY_DEFAULTS] as number | null) : null;
  const ruleText = rule ? ` ${rule}` : '';
  if (!isSet(policy, key)) {
    const value = key in POLICY_DEFAULTS && fixedDefault === null && derived ? derived : `${shownText(policy, key)}${derived ? `, ${derived}` : ''}`;
    return `In force: ${value} (default).${ruleText}`;
  }
  return `In force: ${shownText(policy, key)} (set for this program; blank: ${derived ?? fmt(fixedDefault ?? 0)}).${ruleText}`;
}

/** "450, 900 1350" → [450, 900, 1350]; a word that is not a number stays NaN, for the contract to refuse. */
function checkpointList(text: string): number[] | null {
  const parts = text.split(/[\s,;]+/).filter(Boolean);
  return parts.length ? parts.map(Number) : null;
}

/** The contract, plus the program hours' steps (decision 040): hours the program already has are kept as they are. */
function policyFormSchema(policy: ProgramPolicy) {
  const current = policy.isSet.programHours ? policy.programHours : null;
  return programPolicyInputSchema.superRefine((input, ctx) => {
    const problem = programHoursProblem(input.programHours, current, 'programHours');
    if (problem) ctx.addIssue({ code: 'custom', path: ['programHours'], message: problem });
  });
}

function PolicyForm({ policy }: { policy: ProgramPolicy }) {
  const { formRef, bind, values, errorOf, serverMessage, submit, showRefusal } = useRecordForm({
    defaultValues: startValues(policy),
    schema: policyFormSchema(policy),
    toCandidate: (v) => {
      const candidate: Record<string, unknown> = {};
      for (const key of KEYS) candidate[key] = key === 'sapCheckpointHours' ? checkpointList(v[key]) : numberOrNull(v[key]);
      candidate.alertCopyToStudent = Boolean(v.alertCopyToStudent);
      candidate.recordsStartDate = v.recordsStartDate || null;
      return candidate;
    },
  });
  const save = useSaveProgramPolicy(policy.programId);
  const onSubmit = submit((data) =>
    save.mutate(data, {
      onSuccess: (saved) => notifySuccess('Policy saved', `${saved.paymentPeriods.length} payment periods over ${fmt(saved.programHours)} hours.`),
      onError: (e) => showRefusal(e, 'Failed to save the policy'),
    }),
  );

  return (
    <form ref={formRef} noValidate onSubmit={onSubmit} aria-label="Clock-hour policy">
      {serverMessage ? <Alert className="mb-5">{serverMessage}</Alert> : null}
      <div className="grid gap-5 sm:grid-cols-2">
        {KEYS.map((key) => {
          const spec = FIELD_SPECS[key];
          const isList = key === 'sapCheckpointHours';
          // Program hours outside SPEC's documented range: a note beside the rule, never a refusal.
          const typedHours = key === 'programHours' ? numberOrNull(values.programHours) : null;
          const note = typedHours != null && Number.isFinite(typedHours) ? programHoursWarning(typedHours) : null;
          return (
            <TextField
              key={key}
              label={spec.label}
              autoComplete="off"
              {...(isList ? { placeholder: 'e.g. 450, 900, 1350' } : { type: 'number', inputMode: 'decimal' as const, step: spec.step })}
              {...bind(key)}
              error={errorOf(key)}
              hint={note ? `${hintFor(policy, key)} ${note}` : hintFor(policy, key)}
            />
          );
        })}
        <TextField
          label="Keep attendance from"
          type="date"
          {...bind('recordsStartDate')}
          error={errorOf('recordsStartDate')}
          hint="For a program that starts using Muster mid-way: before this date nothing is scheduled or absent, and students' hours are their opening balances. Blank: the school's date (Settings › Attendance)."
        />
      </div>
      <StudentCopySwitch field={bind('alertCopyToStudent')} />
      <PaymentPeriods policy={policy} />
      <ModalFooter>
        <ModalCancel>Close</ModalCancel>
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? <Spinner className="size-4" /> : null}
          Save policy
        </Button>
      </ModalFooter>
    </form>
  );
}

/** "Also tell the student": a checkbox bound to the form like the fields above (its value is the checked state). */
function StudentCopySwitch({ field }: { field: { name: string; value: unknown } & Record<string, unknown> }) {
  const { value: _value, ...input } = field;
  return (
    <label className="mt-5 flex items-start gap-3 text-sm text-slate-900">
      <input type="checkbox" className="mt-0.5 size-5" {...input} />
      <span>
        <span className="font-medium">Also tell the student</span>
        <span className="block text-slate-600">
          With an alert, the student gets a plain-words e-mail (their address on file) with the dates missed and how to make up time, and a text message where
          the school turned SMS on.
        </span>
      </span>
    </label>
  );
}

/** The payment periods of the saved policy: the server's answer, not a guess from the fields being typed. */
function PaymentPeriods({ policy }: { policy: ProgramPolicy }) {
  // The week each period ends by, counted from the program's start.
  const throughWeeks = policy.paymentPeriods.map((_, i) => policy.paymentPeriods.slice(0, i + 1).reduce((sum, p) => sum + p.weeks, 0));
  return (
    <section aria-labelledby="payment-periods-heading" className="mt-8">
      <h3 id="payment-periods-heading" className="text-base font-semibold text-slate-900">
        Payment periods
      </h3>
      <p className="mt-1 text-sm text-slate-600" aria-live="polite">
        {fmt(policy.programHours)} hours over {fmt(policy.programWeeks)} weeks; academic year {fmt(policy.academicYearHours)} hours and{' '}
        {fmt(policy.academicYearWeeks)} weeks.
      </p>
      {policy.paymentPeriods.length === 0 ? (
        <p className="mt-3 text-sm text-slate-600">No payment periods yet: the program has no hours. Give its courses clock hours, or set the program hours.</p>
      ) : (
        <div className="mt-3 overflow-x-auto rounded-lg border border-slate-200">
          <table className="min-w-full text-left text-sm">
            <caption className="sr-only">Payment periods of the saved policy</caption>
            <thead className="bg-slate-50 text-xs font-semibold tracking-wide text-slate-600 uppercase">
              <tr>
                <th scope="col" className="px-3 py-2">
                  Period
                </th>
                <th scope="col" className="px-3 py-2">
                  Credited hours
                </th>
                <th scope="col" className="px-3 py-2 text-right">
                  Hours
                </th>
                <th scope="col" className="px-3 py-2 text-right">
                  Weeks
                </th>
                <th scope="col" className="px-3 py-2 text-right">
                  Through week
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {policy.paymentPeriods.map((p, i) => {
                return (
                  <tr key={p.number}>
                    <th scope="row" className="px-3 py-2 font-medium text-slate-900">
                      Period {p.number}
                    </th>
                    <td className="px-3 py-2 tabular-nums">
                      {fmt(p.startHours)} – {fmt(p.endHours)}
                    </td>
                    <td className="px-3 py-2 text-right tabular-nums">{fmt(p.endHours - p.startHours)}</td>
                    <td className="px-3 py-2 text-right tabular-nums">{fmt(p.weeks)}</td>
                    <td className="px-3 py-2 text-right tabular-nums">{fmt(throughWeeks[i]!)}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
