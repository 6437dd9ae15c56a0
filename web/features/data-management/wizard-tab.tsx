import { Check, ChevronLeft, ChevronRight, Download, Lock, RotateCcw } from 'lucide-react';
import { IMPORT_TYPES } from '../../../common/import-columns.ts';
import { WIZARD_STEP_LOCKED, type WizardState, type WizardStepStatus } from '../../../common/upload-wizard.ts';
import { Alert } from '../../components/ui/alert.tsx';
import { Badge, type BadgeTone } from '../../components/ui/badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { notifyFailure, notifySuccess } from '../../components/ui/notify.ts';
import { Spinner } from '../../components/ui/spinner.tsx';
import { readErrorBody } from '../../lib/api.ts';
import { cn } from '../../lib/cn.ts';
import { toast } from '../../lib/toast.ts';
import { FileUploader } from './file-uploader.tsx';
import { RecentUploads } from './recent-uploads.tsx';
import { downloadTemplate } from './templates-tab.tsx';
import { useResetWizard, useSetWizardStep, useWizard } from './data-management-api.ts';

const STATUS_TONE: Record<WizardStepStatus, BadgeTone> = { completed: 'green', current: 'blue', available: 'slate', locked: 'amber' };
const STATUS_LABEL: Record<WizardStepStatus, string> = { completed: 'Completed', current: 'Current', available: 'Available', locked: 'Locked' };

/** Upload Wizard (SPEC §2, §4): five steps, their status from the server, and the current step's uploader. */
export function WizardTab() {
  const wizard = useWizard();
  const setStep = useSetWizardStep();
  const reset = useResetWizard();

  if (wizard.isLoading) {
    return (
      <p role="status" className="flex items-center gap-2 text-sm text-slate-600">
        <Spinner className="size-4 text-blue-700" /> Loading the wizard…
      </p>
    );
  }
  if (!wizard.data) return <Alert>The upload wizard could not be loaded. Reload the page to try again.</Alert>;
  const state = wizard.data;
  const current = state.steps.find((s) => s.step === state.currentStep)!;
  const next = state.steps.find((s) => s.step === state.currentStep + 1);
  const def = IMPORT_TYPES.find((t) => t.step === current.step)!;
  const nameOf = (step: number) => state.steps.find((s) => s.step === step)?.label ?? String(step);

  const goTo = (step: number) => {
    const target = state.steps.find((s) => s.step === step);
    if (target?.status === 'locked') {
      toast({ title: 'Step Locked', description: 'Complete the required dependencies first', variant: 'destructive' });
      return;
    }
    setStep.mutate(step, {
      onError: (e) => notifyFailure(e, readErrorBody(e).message ?? 'The step could not be changed. Please try again.', 'Step Locked'),
    });
  };
  const doReset = () =>
    reset.mutate(undefined, {
      onSuccess: () => notifySuccess('Wizard Reset', 'The wizard is back at step 1. Imported data was kept.'),
      onError: (e) => notifyFailure(e, 'The wizard could not be reset. Please try again.'),
    });

  const allDone = state.completedSteps.length === IMPORT_TYPES.length;
  return (
    <div className="grid gap-6">
      <Card className="p-5 sm:p-6">
        <div className="flex flex-col gap-1 sm:flex-row sm:items-baseline sm:justify-between">
          <h2 className="text-lg font-semibold text-slate-900">Upload sequence</h2>
          <p className="text-sm text-slate-600">
            {state.completedSteps.length} of {IMPORT_TYPES.length} steps completed{allDone ? ': all steps completed!' : ''}
          </p>
        </div>
        <ol className="mt-4 grid gap-3 sm:grid-cols-5" aria-label="Wizard steps">
          {state.steps.map((s) => (
            <li key={s.step}>
              <StepButton step={s} isCurrent={s.step === state.currentStep} prerequisites={s.prerequisites.map(nameOf)} onSelect={() => goTo(s.step)} />
            </li>
          ))}
        </ol>
        <div className="mt-5 flex flex-wrap items-center gap-2 border-t border-slate-100 pt-4">
          <Button variant="secondary" onClick={() => goTo(state.currentStep - 1)} disabled={state.currentStep <= 1 || setStep.isPending} icon={ChevronLeft}>
            Previous Step
          </Button>
          <Button variant="secondary" onClick={() => goTo(state.currentStep + 1)} disabled={!next || next.status === 'locked' || setStep.isPending}>
            Next Step
            <ChevronRight aria-hidden="true" className="size-4" />
          </Button>
          <Button variant="ghost" className="sm:ml-auto" onClick={doReset} disabled={reset.isPending} icon={RotateCcw}>
            Reset Wizard
          </Button>
        </div>
      </Card>

      <Card className="p-5 sm:p-6">
        <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
          <div>
            <h2 className="text-lg font-semibold text-slate-900">
              Step {current.step}: {current.label}
            </h2>
            <p className="mt-1 text-sm text-slate-600">
              {current.prerequisites.length > 0 ? `Requires ${current.prerequisites.map(nameOf).join(', ')}. ` : 'No prerequisites. '}
              Required columns:{' '}
              {def.columns
                .filter((c) => c.required)
                .map((c) => c.name)
                .join(', ')}
              .
            </p>
          </div>
          <Button variant="secondary" size="sm" onClick={() => void downloadTemplate(def.type, def.templateFile)} icon={Download}>
            {def.templateFile}
          </Button>
        </div>
        <ul className="mt-3 list-disc space-y-1 pl-5 text-sm text-slate-700">
          {def.notes.map((n) => (
            <li key={n}>{n}</li>
          ))}
        </ul>
        <div className="mt-5">
          {current.status === 'locked' ? (
            <Alert variant="info">{WIZARD_STEP_LOCKED}</Alert>
          ) : (
            <FileUploader key={current.step} type={current.type} step={current.step} label={current.label} />
          )}
        </div>
      </Card>

      <RecentUploads />
    </div>
  );
}

function StepButton({
  step,
  isCurrent,
  prerequisites,
  onSelect,
}: {
  step: WizardState['steps'][number];
  isCurrent: boolean;
  prerequisites: string[];
  onSelect: () => void;
}) {
  const locked = step.status === 'locked';
  return (
    <button
      type="button"
      onClick={onSelect}
      aria-current={isCurrent ? 'step' : undefined}
      aria-disabled={locked || undefined}
      className={cn(
        'flex h-full w-full flex-col items-start gap-2 rounded-xl border p-3 text-left transition-colors',
        'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600',
        isCurrent ? 'border-blue-600 bg-blue-50 ring-1 ring-blue-600' : 'border-slate-200 bg-white hover:bg-slate-50',
        locked && 'cursor-not-allowed bg-slate-50',
      )}
    >
      <span className="flex w-full items-center justify-between gap-2">
        <span
          className={cn(
            'flex size-7 items-center justify-center rounded-full text-sm font-bold',
            step.status === 'completed' ? 'bg-emerald-700 text-white' : isCurrent ? 'bg-blue-700 text-white' : 'bg-slate-200 text-slate-800',
          )}
          aria-hidden="true"
        >
          {step.status === 'completed' ? <Check className="size-4" /> : locked ? <Lock className="size-3.5" /> : step.step}
        </span>
        <Badge tone={STATUS_TONE[step.status]}>{STATUS_LABEL[step.status]}</Badge>
      </span>
      <span className="text-sm font-semibold text-slate-900">
        <span className="sr-only">Step {step.step}: </span>
        {step.label}
      </span>
      <span className="text-xs text-slate-600">{prerequisites.length > 0 ? `Needs ${prerequisites.join(', ')}` : 'No prerequisites'}</span>
      {locked ? <span className="text-xs font-medium text-amber-900">{WIZARD_STEP_LOCKED}</span> : null}
    </button>
  );
}
