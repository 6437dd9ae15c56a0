import type { SapStatus } from '../../common/hours.ts';
import type { BadgeTone } from './ui/badge.tsx';

/** Satisfactory academic progress as the student page and the Hours view show it. */
export const SAP_STATUS: Record<SapStatus, { label: string; tone: BadgeTone }> = {
  pending: { label: 'Pending', tone: 'slate' },
  met: { label: 'Met', tone: 'green' },
  not_met: { label: 'Not met', tone: 'red' },
};
