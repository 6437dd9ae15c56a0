import { CREDENTIAL_TYPES, PROGRAM_HOURS, PROGRAM_STATUSES } from '../../../common/constants.ts';
import { formatHours, programFormSchema, programHoursProblem, programHoursWarning, type Program } from '../../../common/programs.ts';
import { FormDialog, FormDialogBody } from '../../components/ui/form-dialog.tsx';
import { SelectField } from '../../components/ui/select-field.tsx';
import { TextareaField } from '../../components/ui/textarea-field.tsx';
import { TextField } from '../../components/ui/text-field.tsx';
import { numberOrNull, textValues, useRecordForm } from '../../components/ui/use-record-form.ts';
import { useCreateProgram, useUpdateProgram } from './programs-api.ts';
import { PROGRAM_STATUS_LABELS } from './program-status.ts';

type Props = {
  /** null: closed; 'new': Add Program; a program: Edit Program. */
  target: Program | 'new' | null;
  onClose: () => void;
};

export function ProgramFormDialog({ target, onClose }: Props) {
  return (
    <FormDialog target={target} onClose={onClose} titles={{ add: 'Add Program', edit: 'Edit Program' }} description="Program name is required." size="lg">
      {(program) => <ProgramForm program={program} onDone={onClose} />}
    </FormDialog>
  );
}

const FIELDS = ['programName', 'programCode', 'sisProgramId', 'credentialType', 'durationHours', 'status', 'startDate', 'endDate', 'description'] as const;

/**
 * The fields this form does not show (imports and the SIS fill them): PUT replaces the whole
 * program, so an edit sends them back as they are.
 */
function keptFields(p: Program | null) {
  if (!p) return {};
  const { accreditationBody, programDirector, tuitionCost, capacity, campusLocation, externalProgramId, regulatoryCode } = p;
  return { accreditationBody, programDirector, tuitionCost, capacity, campusLocation, externalProgramId, regulatoryCode };
}

function ProgramForm({ program, onDone }: { program: Program | null; onDone: () => void }) {
  const { bind, values, errorOf, submitSave } = useRecordForm({
    defaultValues: { ...textValues(program, FIELDS), status: program?.status ?? 'active' },
    // The hours rule of decision 040: a program keeps the hours it has; entered hours are 1–10,000 in steps of 0.5.
    schema: programFormSchema(program?.durationHours),
    toCandidate: (v) => ({ ...keptFields(program), ...v, durationHours: numberOrNull(v.durationHours), credentialType: v.credentialType || null }),
  });
  const create = useCreateProgram();
  const update = useUpdateProgram();
  // Hours stored before the steps rule stay valid as they are (and the browser must not refuse them).
  const keptHours = program?.durationHours != null && programHoursProblem(program.durationHours) ? program.durationHours : null;
  // Outside SPEC's documented range: a note, never a refusal.
  const typedHours = numberOrNull(values.durationHours);
  const hoursNote = typedHours != null && Number.isFinite(typedHours) ? programHoursWarning(typedHours) : null;
  const saving = submitSave({
    id: program?.id ?? null,
    create,
    update,
    savedTitle: program ? 'Program updated' : 'Program created',
    failureText: program ? 'Failed to update program' : 'Failed to create program',
    onDone,
  });

  return (
    <FormDialogBody {...saving} label={program ? 'Edit program' : 'Add program'} submitLabel={program ? 'Save changes' : 'Create program'}>
      <TextField label="Program name" autoComplete="off" required {...bind('programName')} error={errorOf('programName')} className="sm:col-span-2" />
      <TextField label="Program code" autoComplete="off" {...bind('programCode')} error={errorOf('programCode')} />
      <TextField label="SIS program ID" autoComplete="off" {...bind('sisProgramId')} error={errorOf('sisProgramId')} />
      <SelectField label="Credential" {...bind('credentialType')} error={errorOf('credentialType')}>
        <option value="">Not set</option>
        {CREDENTIAL_TYPES.map((c) => (
          <option key={c} value={c}>
            {c}
          </option>
        ))}
      </SelectField>
      <TextField
        label="Duration hours"
        type="number"
        inputMode="decimal"
        min={PROGRAM_HOURS.min}
        max={PROGRAM_HOURS.max}
        step={keptHours == null ? PROGRAM_HOURS.step : 'any'}
        {...bind('durationHours')}
        error={errorOf('durationHours')}
        hint={
          hoursNote ??
          `Optional. ${PROGRAM_HOURS.min} to ${formatHours(PROGRAM_HOURS.max)}, in steps of ${PROGRAM_HOURS.step}: the hours the clock-hour ledger counts, the same figure as the program's policy. Blank: its active courses' hours.`
        }
      />
      <SelectField label="Status" {...bind('status')} error={errorOf('status')}>
        {PROGRAM_STATUSES.map((s) => (
          <option key={s} value={s}>
            {PROGRAM_STATUS_LABELS[s]}
          </option>
        ))}
      </SelectField>
      <div className="hidden sm:block" aria-hidden="true" />
      <TextField label="Start date" type="date" {...bind('startDate')} error={errorOf('startDate')} />
      <TextField label="End date" type="date" {...bind('endDate')} error={errorOf('endDate')} />
      <TextareaField label="Description" {...bind('description')} error={errorOf('description')} className="sm:col-span-2" />
    </FormDialogBody>
  );
}
