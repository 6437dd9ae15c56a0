import { ATTENDANCE_STATUS_LABELS, type AttendanceStatus } from '../../../common/constants.ts';
import { Badge, type BadgeTone } from '../../components/ui/badge.tsx';
import { formatClock, formatLocalTime } from '../../lib/format.ts';

const STATUS_TONES: Record<AttendanceStatus, BadgeTone> = {
  present: 'green',
  late: 'amber',
  absent: 'red',
  incomplete: 'violet',
  excused: 'blue',
};

export function RecordStatusBadge({ status }: { status: AttendanceStatus }) {
  return <Badge tone={STATUS_TONES[status]}>{ATTENDANCE_STATUS_LABELS[status]}</Badge>;
}

export const SOURCE_LABELS: Record<string, string> = { qr: 'QR scan', manual: 'Entered by staff', auto: 'Automatic absence' };

/** A check-in or check-out time: an instant (shown in this browser's zone, as the roster does) or a wall time 'HH:MM'. */
export function formatPunch(value: string | null): string {
  if (!value) return '—';
  if (/^\d{2}:\d{2}(:\d{2})?$/.test(value)) return formatClock(value.slice(0, 5));
  return formatLocalTime(value) ?? value;
}
