import { ATTENDANCE_STATUS_LABELS, type AttendanceStatus } from '../../common/constants.ts';
import { Badge, type BadgeTone } from './ui/badge.tsx';
import { formatClock, formatLocalTime } from '../lib/format.ts';
import { useSettings } from '../lib/shared-queries.ts';
import { schoolClock } from '../lib/zoned-time.ts';

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

/**
 * How the student page writes a check-in or check-out: on the school's clock (as the roster's
 * corrections are typed), or in this browser's zone until the school's time zone is known.
 */
export function usePunchFormat(): (value: string | null) => string {
  const timeZone = useSettings().data?.attendance.timeZone;
  return (value) => {
    if (!value) return '—';
    if (/^\d{2}:\d{2}(:\d{2})?$/.test(value)) return formatClock(value.slice(0, 5));
    if (timeZone) return formatClock(schoolClock(value, timeZone));
    return formatLocalTime(value) ?? value;
  };
}
