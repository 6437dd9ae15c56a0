import { ClipboardList } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import type { MeetingToReview } from '../../../common/attendance.ts';
import { buttonClasses, Button } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { Alert } from '../../components/ui/alert.tsx';
import { Modal, ModalCancel, ModalFooter } from '../../components/ui/dialog.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { notifySuccess } from '../../components/ui/notify.ts';
import { TextareaField } from '../../components/ui/textarea-field.tsx';
import { readErrorBody } from '../../lib/api.ts';
import { formatClockRange, formatDate } from '../../lib/format.ts';
import { useCancelMeeting, useMeetingsToReview } from './attendance-api.ts';

/**
 * Classes that ended with nothing recorded for anyone (no session ran, no sheet was entered): they
 * count as nobody's absence until the instructor takes attendance for them or cancels the meeting
 * (decision 043). Shown only when there are some.
 */
export function MeetingsToReview() {
  const meetings = useMeetingsToReview();
  const [cancelling, setCancelling] = useState<MeetingToReview | null>(null);
  const list = meetings.data ?? [];
  if (list.length === 0) return null;
  return (
    <Card className="mb-6 p-5 sm:p-6">
      <section aria-labelledby="review-heading">
        <h2 id="review-heading" className="flex items-center gap-2 text-lg font-semibold text-slate-900">
          <ClipboardList aria-hidden="true" className="size-5 text-amber-700" /> Classes with no attendance taken
        </h2>
        <p className="mt-1 text-sm text-slate-600">
          Nothing was recorded at these classes, so nobody is counted absent for them yet. Take attendance from your sheet, or cancel the class if it did not
          meet.
        </p>
        <ul className="mt-4 divide-y divide-slate-100 border-t border-slate-200">
          {list.map((m) => (
            <li key={`${m.scheduleId}-${m.date}`} className="flex flex-col gap-2 py-3 sm:flex-row sm:items-center sm:justify-between">
              <p className="text-sm text-slate-900">
                <span className="font-semibold">{m.courseCode}</span> {m.courseName} · {formatDate(m.date, 'medium')},{' '}
                {formatClockRange(m.startTime, m.endTime)}
              </p>
              <div className="flex gap-2">
                <Link
                  to={`/attendance?schedule=${m.scheduleId}&date=${m.date}`}
                  className={buttonClasses('secondary', 'sm')}
                  aria-label={`Take attendance for ${m.courseCode} on ${formatDate(m.date, 'medium')}`}
                >
                  Take attendance
                </Link>
                <Button size="sm" variant="ghost" onClick={() => setCancelling(m)} aria-label={`Cancel ${m.courseCode} on ${formatDate(m.date, 'medium')}`}>
                  Cancel class
                </Button>
              </div>
            </li>
          ))}
        </ul>
      </section>
      {cancelling ? <CancelMeetingDialog meeting={cancelling} onClose={() => setCancelling(null)} /> : null}
    </Card>
  );
}

function CancelMeetingDialog({ meeting, onClose }: { meeting: MeetingToReview; onClose: () => void }) {
  const cancel = useCancelMeeting();
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const confirm = () => {
    if (!reason.trim()) {
      setError('Give the reason the class did not meet.');
      return;
    }
    cancel.mutate(
      { scheduleId: meeting.scheduleId, date: meeting.date, reason: reason.trim() },
      {
        onSuccess: () => {
          notifySuccess('Class cancelled', `${meeting.courseCode} on ${formatDate(meeting.date, 'medium')} is no longer scheduled.`);
          onClose();
        },
        onError: (e) => setError(readErrorBody(e).message ?? 'The class could not be cancelled. Please try again.'),
      },
    );
  };
  return (
    <Modal
      open
      onOpenChange={(open) => (open ? undefined : onClose())}
      title={`Cancel ${meeting.courseCode} on ${formatDate(meeting.date, 'medium')}?`}
      description="The class will not count as scheduled for anyone, and nobody is absent. The reason is kept in the audit log."
      size="sm"
      focusFirstField
    >
      {error ? <Alert>{error}</Alert> : null}
      <TextareaField
        label="Reason"
        name="reason"
        required
        value={reason}
        onChange={(e) => setReason(e.target.value)}
        className="mt-3"
        placeholder="e.g. Instructor sick, no substitute"
      />
      <ModalFooter>
        <ModalCancel>Keep the class</ModalCancel>
        <Button variant="destructive" onClick={confirm} disabled={cancel.isPending}>
          {cancel.isPending ? <Spinner className="size-4" /> : null}
          Cancel class
        </Button>
      </ModalFooter>
    </Modal>
  );
}
