import type { PROGRAM_STATUSES } from '../../../common/constants.ts';
import type { BadgeTone } from '../../components/ui/badge.tsx';

type ProgramStatus = (typeof PROGRAM_STATUSES)[number];

export const PROGRAM_STATUS_LABELS: Record<ProgramStatus, string> = { active: 'Active', inactive: 'Inactive', suspended: 'Suspended' };
const PROGRAM_STATUS_TONES: Record<ProgramStatus, BadgeTone> = { active: 'green', inactive: 'slate', suspended: 'amber' };

export const programStatusLabel = (status: string) => PROGRAM_STATUS_LABELS[status as ProgramStatus] ?? status;
export const programStatusTone = (status: string): BadgeTone => PROGRAM_STATUS_TONES[status as ProgramStatus] ?? 'slate';
