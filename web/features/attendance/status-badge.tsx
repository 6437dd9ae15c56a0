import { ATTENDANCE_STATUS_LABELS as STATUS_LABELS, type AttendanceStatus } from '../../../common/constants.ts';
import { Badge, type BadgeTone } from '../../components/ui/badge.tsx';

const TONES: Record<AttendanceStatus, BadgeTone> = {
  present: 'green',
  late: 'amber',
  absent: 'red',
  incomplete: 'violet',
  excused: 'blue',
};

/** A roster row's status; a student with no record yet reads 'Not checked in'. */
export function AttendanceStatusBadge({ status }: { status: AttendanceStatus | null }) {
  if (!status) return <Badge tone="slate">Not checked in</Badge>;
  return <Badge tone={TONES[status]}>{STATUS_LABELS[status]}</Badge>;
}
