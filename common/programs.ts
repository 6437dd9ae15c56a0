import { z } from 'zod';
import { CREDENTIAL_TYPES, PROGRAM_STATUSES } from './constants.ts';
import { int32, optionalIsoDate, optionalText, requiredText } from './validation.ts';

const num = (label: string, min: number, max: number) =>
  z.number({ error: `${label} must be a number` }).min(min, `${label} must be at least ${min}`).max(max, `${label} must be at most ${max}`);

export const programSchema = z.object({
  id: z.number().int(),
  programName: z.string(),
  programCode: z.string().nullable(),
  sisProgramId: z.string().nullable(),
  durationHours: z.number().nullable(),
  credentialType: z.string().nullable(),
  description: z.string().nullable(),
  status: z.string(),
  startDate: z.string().nullable(),
  endDate: z.string().nullable(),
  accreditationBody: z.string().nullable(),
  programDirector: z.string().nullable(),
  tuitionCost: z.number().nullable(),
  capacity: z.number().nullable(),
  campusLocation: z.string().nullable(),
  externalProgramId: z.string().nullable(),
  regulatoryCode: z.string().nullable(),
  syncStatus: z.string(),
});
export type Program = z.infer<typeof programSchema>;

export const programInputSchema = z
  .object({
    programName: requiredText('Program name'),
    programCode: optionalText(50),
    sisProgramId: optionalText(100),
    durationHours: num('Duration hours', 50, 350).nullish().transform((v) => v ?? null),
    credentialType: z.enum(CREDENTIAL_TYPES, { error: `Credential type must be one of ${CREDENTIAL_TYPES.join(', ')}` }).nullish().transform((v) => v ?? null),
    description: optionalText(2000),
    status: z.enum(PROGRAM_STATUSES, { error: `Status must be one of ${PROGRAM_STATUSES.join(', ')}` }).default('active'),
    startDate: optionalIsoDate('Start date'),
    endDate: optionalIsoDate('End date'),
    accreditationBody: optionalText(200),
    programDirector: optionalText(200),
    tuitionCost: num('Tuition cost', 0, 10_000_000).nullish().transform((v) => v ?? null),
    capacity: int32('Capacity').nullish().transform((v) => v ?? null),
    campusLocation: optionalText(200),
    externalProgramId: optionalText(100),
    regulatoryCode: optionalText(100),
  })
  .refine((p) => !p.startDate || !p.endDate || p.endDate >= p.startDate, { path: ['endDate'], message: 'End date must not be before the start date' });
