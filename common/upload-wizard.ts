import { z } from 'zod';
import { UPLOAD_TYPES } from './constants.ts';
import { IMPORT_TYPES } from './import-columns.ts';

// The upload wizard of SPEC §4 as the API answers it and the Data Management screen shows it; the
// state machine that moves through it is the server's (server/modules/imports/wizard.ts).

export const WIZARD_STEP_LOCKED = 'Step Locked - Complete the required dependencies first';
export const stepCompletedMessage = (step: number) =>
  step < IMPORT_TYPES.length ? `Upload Successful: Step ${step} completed successfully! Moving to next step.` : 'All steps completed!';

const WIZARD_STEP_STATUSES = ['locked', 'available', 'current', 'completed'] as const;
export type WizardStepStatus = (typeof WIZARD_STEP_STATUSES)[number];
export const wizardSchema = z.object({
  currentStep: z.number().int(),
  completedSteps: z.array(z.number().int()),
  steps: z.array(
    z.object({
      step: z.number().int(),
      type: z.enum(UPLOAD_TYPES),
      label: z.string(),
      status: z.enum(WIZARD_STEP_STATUSES),
      prerequisites: z.array(z.number().int()),
    }),
  ),
});
export type WizardState = z.infer<typeof wizardSchema>;
