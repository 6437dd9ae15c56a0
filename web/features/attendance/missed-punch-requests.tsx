import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { MessageSquareWarning } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { missedPunchPageSchema, missedPunchRequestSchema, type MissedPunchRequest } from '../../../common/missed-punches.ts';
import { Alert } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Modal, ModalCancel, ModalFooter } from '../../components/ui/dialog.tsx';
import { notifyFailure, notifySuccess } from '../../components/ui/notify.ts';
import { Spinner } from '../../components/ui/spinner.tsx';
import { TextField } from '../../components/ui/text-field.tsx';
import { TextareaField } from '../../components/ui/textarea-field.tsx';
import { apiParse, readErrorBody } from '../../lib/api.ts';
import { formatClock, formatDate } from '../../lib/format.ts';
import { useSettings } from '../../lib/shared-queries.ts';
import { schoolClock, schoolInstantIso } from '../../lib/zoned-time.ts';
import { refusalOf, rosterKey } from './attendance-api.ts';

/** Every missed-punch list query, for invalidation after a decision (the student page's counts too). */
const REQUESTS_KEY = ['/api/missed-punch-requests'] as const;
const meetingRequestsKey = (scheduleId: number, date: string) => [...REQUESTS_KEY, { scheduleId, date, status: 'pending' }] as const;

function useMeetingRequests(scheduleId: number, date: string | null) {
  return useQuery({
    queryKey: meetingRequestsKey(scheduleId, date ?? ''),
    queryFn: () =>
      apiParse(
        missedPunchPageSchema,
        'GET',
        `/api/missed-punch-requests?${new URLSearchParams({ status: 'pending', scheduleId: String(scheduleId), date: date ?? '', pageSize: '100' })}`,
      ),
    enabled: date != null,
  });
}

type Decision = { request: MissedPunchRequest; kind: 'approve' | 'decline'; body: { reason: string; checkInAt?: string; checkOutAt?: string } };

function useDecide(scheduleId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ request, kind, body }: Decision) => apiParse(missedPunchRequestSchema, 'POST', `/api/missed-punch-requests/${request.id}/${kind}`, body),
    onSuccess: (decided) => {
      void queryClient.invalidateQueries({ queryKey: REQUESTS_KEY });
      void queryClient.invalidateQueries({ queryKey: rosterKey(scheduleId) });
      notifySuccess(
        decided.status === 'approved' ? 'Missed punch approved' : 'Missed punch declined',
        decided.status === 'approved'
          ? `${decided.studentName}'s record is corrected; the correction is flagged as an exception.`
          : `${decided.studentName}'s record stays as it was.`,
      );
    },
    onError: (error) => notifyFailure(error, refusalOf(error) ?? 'The request could not be decided. Please try again.', 'Not saved'),
  });
}

/** "Forgot to check out · left at 11:55 AM", in the school's time. */
function whatTheyAsk(r: MissedPunchRequest, timeZone: string | undefined): string {
  const clock = (iso: string | null) => (iso && timeZone ? formatClock(schoolClock(iso, timeZone)) : null);
  const arrived = clock(r.checkInAt);
  const left = clock(r.checkOutAt);
  if (arrived) return `Forgot to check in · says they came at ${arrived}${left ? ` and left at ${left}` : ''}`;
  return `Forgot to check out · says they left at ${left ?? '—'}`;
}

/**
 * The open missed-punch requests of the meeting on the roster (decision 053): a student who forgot to
 * check in or out asked, from the scan page or their hours link. Approve (with a reason, the times
 * editable) writes the correction, flagged as an exception; Decline (with a reason) leaves the
 * record. Shown only when there are some.
 */
export function MissedPunchRequests({ scheduleId, date }: { scheduleId: number; date: string | null }) {
  const requests = useMeetingRequests(scheduleId, date);
  const timeZone = useSettings().data?.attendance.timeZone;
  const [deciding, setDeciding] = useState<{ request: MissedPunchRequest; kind: Decision['kind'] } | null>(null);
  const items = requests.data?.items ?? [];
  if (items.length === 0) return null;
  return (
    <section aria-labelledby={`missed-punches-${scheduleId}`} className="border-t border-slate-200 px-5 py-4 sm:px-6">
      <h3 id={`missed-punches-${scheduleId}`} className="flex items-center gap-2 text-sm font-semibold text-slate-900">
        <MessageSquareWarning aria-hidden="true" className="size-4 text-amber-700" />
        Missed-punch requests ({items.length})
      </h3>
      <p className="mt-1 text-sm text-slate-600">
        Students who forgot to check in or out at this class. An approved request corrects the record and stays flagged as an exception.
      </p>
      <ul className="mt-3 divide-y divide-slate-100 border-t border-slate-200">
        {items.map((r) => (
          <li key={r.id} className="flex flex-col gap-2 py-3 sm:flex-row sm:items-start sm:justify-between">
            <div className="min-w-0 text-sm">
              <p className="font-semibold text-slate-900">
                {r.studentName}
                {r.sisStudentId ? <span className="ml-2 font-mono text-xs font-normal text-slate-500">{r.sisStudentId}</span> : null}
              </p>
              <p className="text-slate-700">{whatTheyAsk(r, timeZone)}</p>
              <p className="text-slate-600">
                “{r.reason}” <span className="text-xs text-slate-500">· asked {r.source === 'scan_page' ? 'from the scan page' : 'from the hours link'}</span>
              </p>
            </div>
            <div className="flex shrink-0 gap-2">
              <Button size="sm" onClick={() => setDeciding({ request: r, kind: 'approve' })} aria-label={`Approve the missed punch of ${r.studentName}`}>
                Approve
              </Button>
              <Button
                size="sm"
                variant="secondary"
                onClick={() => setDeciding({ request: r, kind: 'decline' })}
                aria-label={`Decline the missed punch of ${r.studentName}`}
              >
                Decline
              </Button>
            </div>
          </li>
        ))}
      </ul>
      {deciding ? (
        <DecisionDialog
          key={`${deciding.kind}-${deciding.request.id}`}
          scheduleId={scheduleId}
          timeZone={timeZone}
          {...deciding}
          onClose={() => setDeciding(null)}
        />
      ) : null}
    </section>
  );
}

function DecisionDialog({
  request,
  kind,
  scheduleId,
  timeZone,
  onClose,
}: {
  request: MissedPunchRequest;
  kind: Decision['kind'];
  scheduleId: number;
  timeZone: string | undefined;
  onClose: () => void;
}) {
  const decide = useDecide(scheduleId);
  const asked = {
    in: request.checkInAt && timeZone ? schoolClock(request.checkInAt, timeZone) : '',
    out: request.checkOutAt && timeZone ? schoolClock(request.checkOutAt, timeZone) : '',
  };
  const [arrived, setArrived] = useState(asked.in);
  const [left, setLeft] = useState(asked.out);
  const [reason, setReason] = useState('');
  const [attempted, setAttempted] = useState(false);
  const failure = decide.isError ? readErrorBody(decide.error) : null;
  const approving = kind === 'approve';
  const reasonMissing = attempted && reason.trim() === '';

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setAttempted(true);
    if (reason.trim() === '') return;
    // Only the times staff changed are sent: the rest are the student's, as asked.
    const adjusted =
      approving && timeZone
        ? {
            ...(arrived && arrived !== asked.in ? { checkInAt: schoolInstantIso(request.sessionDate, arrived, timeZone) } : {}),
            ...(left && left !== asked.out ? { checkOutAt: schoolInstantIso(request.sessionDate, left, timeZone) } : {}),
          }
        : {};
    decide.mutate({ request, kind, body: { reason: reason.trim(), ...adjusted } }, { onSuccess: onClose });
  };

  return (
    <Modal
      open
      onOpenChange={(open) => (open ? undefined : onClose())}
      title={approving ? 'Approve missed punch' : 'Decline missed punch'}
      description={`${request.studentName} · ${request.courseName} · ${formatDate(request.sessionDate, 'medium')}`}
      size="sm"
      focusFirstField
    >
      <form noValidate onSubmit={onSubmit} aria-label={approving ? 'Approve the missed punch' : 'Decline the missed punch'}>
        <p className="text-sm text-slate-700">“{request.reason}”</p>
        {failure?.message ? <Alert className="mt-4">{failure.message}</Alert> : null}
        <div className="mt-4 space-y-4">
          {approving ? (
            <fieldset className="grid grid-cols-2 gap-3">
              <legend className="mb-1 text-sm font-medium text-slate-700">Times to record (school time; change them if you know better)</legend>
              {request.checkInAt ? (
                <TextField
                  label="Arrived at"
                  name="checkInAt"
                  type="time"
                  value={arrived}
                  onChange={(e) => setArrived(e.target.value)}
                  error={failure?.fieldErrors.checkInAt}
                />
              ) : null}
              <TextField
                label="Left at"
                name="checkOutAt"
                type="time"
                value={left}
                onChange={(e) => setLeft(e.target.value)}
                error={failure?.fieldErrors.checkOutAt}
              />
            </fieldset>
          ) : null}
          <TextareaField
            label={approving ? 'Reason for approving' : 'Reason for declining (the student sees it)'}
            name="reason"
            value={reason}
            onChange={(e) => setReason(e.target.value)}
            maxLength={500}
            required
            error={reasonMissing ? 'Give a reason' : failure?.fieldErrors.reason}
            placeholder={approving ? 'e.g. I saw the student leave at the end of class' : 'e.g. You left at 10:00; see me about make-up time'}
          />
        </div>
        <ModalFooter>
          <ModalCancel />
          <Button type="submit" variant={approving ? 'primary' : 'destructive'} disabled={decide.isPending}>
            {decide.isPending ? <Spinner className="size-4" /> : null}
            {approving ? 'Approve' : 'Decline'}
          </Button>
        </ModalFooter>
      </form>
    </Modal>
  );
}
