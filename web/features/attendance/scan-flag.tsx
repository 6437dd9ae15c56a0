import { TriangleAlert } from 'lucide-react';
import type { AttendanceRow } from '../../../common/attendance.ts';
import type { CheckInFlag } from '../../../common/check-in-flags.ts';
import { ATTENDANCE_STATUS_LABELS } from '../../../common/constants.ts';
import { Button } from '../../components/ui/button.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { formatClock, formatLocalTime } from '../../lib/format.ts';
import { useReviewFlag } from './attendance-api.ts';

// A student marked absent (or excused) who came and scanned anyway (decision 004): the record stood and
// the student was told to see the instructor; the roster row says when they scanned, with one click
// to record the scan as it would have been, or to dismiss it.

/** The row's scan made while marked absent, still to review. */
export const openScanFlag = (row: AttendanceRow): CheckInFlag | null =>
  row.flags.find((f) => f.reason === 'scanned_after_override' && f.status === 'flagged') ?? null;

export function ScanFlagNotice({ row, scheduleId }: { row: AttendanceRow; scheduleId: number }) {
  const review = useReviewFlag();
  const flag = openScanFlag(row);
  if (!flag) return null;
  const e = flag.evidence;
  // The school's clock (the server wrote it down), else this browser's.
  const at = e.localTime ? formatClock(e.localTime) : formatLocalTime(e.checkedInAt);
  const standing = ATTENDANCE_STATUS_LABELS[e.standingStatus ?? 'absent'];
  const result = e.scanStatus ?? 'present';
  const pending = review.isPending ? review.variables?.decision : null;
  const studentName = `${row.firstName} ${row.lastName}`;
  const textId = `scan-flag-${flag.id}`;
  const decide = (decision: 'accept_scan' | 'cleared') => {
    if (!review.isPending) review.mutate({ flag, scheduleId, decision, studentName });
  };
  return (
    <div role="group" aria-labelledby={textId} className="mt-1.5 max-w-[16rem] rounded-md bg-amber-50 px-2.5 py-2 ring-1 ring-amber-600/30 ring-inset">
      <p id={textId} className="flex items-start gap-1.5 text-xs font-semibold text-amber-900">
        <TriangleAlert aria-hidden="true" className="mt-px size-3.5 shrink-0" />
        Scanned at {at ?? 'an unknown time'} while marked {standing}
      </p>
      <div className="mt-1.5 flex flex-wrap gap-1.5">
        <Button size="sm" variant="secondary" aria-describedby={textId} onClick={() => decide('accept_scan')}>
          {pending === 'accept_scan' ? <Spinner className="size-3.5" /> : null}
          {result === 'late' ? 'Mark late' : 'Mark present'}
        </Button>
        <Button size="sm" variant="ghost" aria-describedby={textId} onClick={() => decide('cleared')}>
          {pending === 'cleared' ? <Spinner className="size-3.5" /> : null}
          Dismiss
        </Button>
      </div>
    </div>
  );
}
