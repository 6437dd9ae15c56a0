import type { STUDENT_STATUSES } from '../../common/constants.ts';
import type { BadgeTone } from './ui/badge.tsx';

type StudentStatus = (typeof STUDENT_STATUSES)[number];

export const STUDENT_STATUS_LABELS: Record<StudentStatus, string> = {
  enrolled: 'Enrolled',
  active: 'Active',
  loa: 'On leave (LOA)',
  suspended: 'Suspended',
  withdrawn: 'Withdrawn',
  graduated: 'Graduated',
  inactive: 'Inactive',
};

const TONES: Record<StudentStatus, BadgeTone> = {
  enrolled: 'blue',
  active: 'green',
  loa: 'amber',
  suspended: 'red',
  withdrawn: 'slate',
  graduated: 'violet',
  inactive: 'slate',
};

export function studentStatusLabel(status: string): string {
  return STUDENT_STATUS_LABELS[status as StudentStatus] ?? status;
}

export function studentStatusTone(status: string): BadgeTone {
  return TONES[status as StudentStatus] ?? 'slate';
}
