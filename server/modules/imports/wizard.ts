import { IMPORT_TYPES } from '../../../common/import-columns.ts';
import { WIZARD_STEP_LOCKED, type WizardState } from '../../../common/upload-wizard.ts';
import type { Db, DbOrTx } from '../../db/client.ts';
import { AppError } from '../../lib/errors.ts';
import { recordAudit } from '../audit-logs/service.ts';
import {
  adoptWizardProgress,
  insertWizardProgress,
  selectWizardProgress,
  selectWizardUntouched,
  typeRowCounts,
  updateWizardProgress,
  type WizardProgressRow,
} from './queries.ts';

/** SPEC §4: completed, then current, then available when every prerequisite is completed, else locked. */
function wizardState(currentStep: number, completedSteps: readonly number[]): WizardState {
  const done = new Set(completedSteps);
  return {
    currentStep,
    completedSteps: [...done].sort((a, b) => a - b),
    steps: IMPORT_TYPES.map((t) => ({
      step: t.step,
      type: t.type,
      label: t.label,
      prerequisites: [...t.prerequisites],
      status: done.has(t.step) ? 'completed' : t.step === currentStep ? 'current' : t.prerequisites.every((p) => done.has(p)) ? 'available' : 'locked',
    })),
  };
}

function isStepLocked(step: number, completedSteps: readonly number[]): boolean {
  const def = IMPORT_TYPES.find((t) => t.step === step);
  return !def || !def.prerequisites.every((p) => completedSteps.includes(p));
}

type Ctx = { actorId: number; ip: string | null };

async function readProgress(db: DbOrTx, lock = false): Promise<WizardProgressRow> {
  const row = await selectWizardProgress(db, lock);
  // Migration 0001 creates the row; recreate it should someone have deleted it.
  if (!row) {
    await insertWizardProgress(db);
    return { currentStep: 1, completedSteps: [] };
  }
  return row;
}

/**
 * A school that added records by hand (or before the wizard) opens a wizard that
 * already counts them. Only an untouched wizard adopts, in step order with prerequisites, so a
 * Reset Wizard or any move stays as the person left it.
 */
async function adoptExistingData(db: DbOrTx): Promise<void> {
  if (!(await selectWizardUntouched(db))) return;
  const counts = await typeRowCounts(db);
  const completed: number[] = [];
  for (const t of IMPORT_TYPES) {
    if (counts[t.type] > 0 && t.prerequisites.every((p) => completed.includes(p))) completed.push(t.step);
  }
  if (completed.length === 0) return;
  const open = IMPORT_TYPES.find((t) => !completed.includes(t.step) && !isStepLocked(t.step, completed));
  await adoptWizardProgress(db, { currentStep: open?.step ?? IMPORT_TYPES.length, completedSteps: completed });
}

/** The upload wizard of SPEC §4, stored once per school so every admin sees the same progress. */
export async function getWizard(db: DbOrTx): Promise<WizardState> {
  await adoptExistingData(db);
  const p = await readProgress(db);
  return wizardState(p.currentStep, p.completedSteps);
}

/** Move to a step (Previous / Next / a step's button). A locked step is refused. */
export async function setWizardStep(db: Db, step: number, ctx: Ctx): Promise<WizardState> {
  return db.transaction(async (tx) => {
    const p = await readProgress(tx, true);
    if (isStepLocked(step, p.completedSteps))
      throw new AppError(400, 'STEP_LOCKED', WIZARD_STEP_LOCKED, { errors: [{ field: 'currentStep', message: WIZARD_STEP_LOCKED }] });
    if (step !== p.currentStep) {
      await updateWizardProgress(tx, { ...p, currentStep: step }, ctx.actorId);
      await recordAudit(tx, {
        userId: ctx.actorId,
        action: 'Update',
        tableName: 'wizard_progress',
        ipAddress: ctx.ip,
        oldValues: { currentStep: p.currentStep },
        newValues: { currentStep: step },
      });
    }
    return wizardState(step, p.completedSteps);
  });
}

/** Reset Wizard: back to step 1 with nothing completed (imported data stays). */
export async function resetWizard(db: Db, ctx: Ctx): Promise<WizardState> {
  return db.transaction(async (tx) => {
    const p = await readProgress(tx, true);
    await updateWizardProgress(tx, { currentStep: 1, completedSteps: [] }, ctx.actorId);
    await recordAudit(tx, {
      userId: ctx.actorId,
      action: 'Update',
      tableName: 'wizard_progress',
      ipAddress: ctx.ip,
      oldValues: { currentStep: p.currentStep, completedSteps: p.completedSteps },
      newValues: { currentStep: 1, completedSteps: [], reset: true },
    });
    return wizardState(1, []);
  });
}

/**
 * A successful import of a step's type completes the step (in the import's transaction). When it
 * was the current step, the wizard moves to the next step unless that one is still locked, in
 * which case it moves to the first open step not yet completed.
 */
export async function completeWizardStep(tx: DbOrTx, step: number, actorId: number | null): Promise<WizardState> {
  const p = await readProgress(tx, true);
  const completed = [...new Set([...p.completedSteps, step])].sort((a, b) => a - b);
  let current = p.currentStep;
  if (step === p.currentStep && step < IMPORT_TYPES.length) {
    const open = (s: number) => !completed.includes(s) && !isStepLocked(s, completed);
    const next = step + 1;
    current = !isStepLocked(next, completed) ? next : (IMPORT_TYPES.map((t) => t.step).find(open) ?? step);
  }
  await updateWizardProgress(tx, { currentStep: current, completedSteps: completed }, actorId);
  return wizardState(current, completed);
}
