import { BellOff, BellRing, CheckCircle2, ChevronRight, CircleCheck } from 'lucide-react';
import { useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { Link, useLocation } from 'react-router';
import { can } from '../../../common/permissions.ts';
import { Alert } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Modal, ModalCancel, ModalFooter } from '../../components/ui/dialog.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { TextareaField } from '../../components/ui/textarea-field.tsx';
import { readErrorBody } from '../../lib/api.ts';
import { useSignedInUser } from '../../lib/use-auth.ts';
import { alertFigures, formatWhen } from './format.ts';
import { useAcknowledgeAlert, type AcknowledgedLiveAlert, type LiveAlert, type RealTime } from './dashboard-api.ts';
import { LevelBadge, Panel } from './widgets.tsx';

const linkClass = 'inline-flex items-center gap-0.5 font-medium text-blue-700 underline underline-offset-2 hover:text-blue-800';

/**
 * Live Alerts (SPEC §2): the open low-attendance alerts, each linked to its student (or its
 * course's figures) and acknowledgeable by whoever sees it; the acknowledged ones below, kept, not
 * lost (docs/decisions/048). The heading's figures are the dashboard's one count of alerts.
 */
export function AlertsPanel({ data, pending }: { data: RealTime | undefined; pending: ReactNode }) {
  const [acknowledging, setAcknowledging] = useState<LiveAlert | null>(null);
  const ref = useRef<HTMLDivElement>(null);
  const { hash } = useLocation();
  // Resolve Alerts (Overview) opens this tab at #alerts: bring the list into view on a phone too.
  useEffect(() => {
    if (hash === '#alerts' && data) ref.current?.scrollIntoView({ block: 'start' });
  }, [hash, data]);

  const counts = data?.alertCounts;
  return (
    <div ref={ref} id="alerts" className="scroll-mt-4">
      <Panel
        title="Live Alerts"
        icon={BellRing}
        description={data?.alertsOn && counts ? <span data-testid="alert-figures">{alertFigures(counts)}</span> : undefined}
      >
        {!data ? (
          pending
        ) : !data.alertsOn ? (
          // Alerts are each viewer's own choice (decision 013): an empty list then is not calm.
          <div className="flex flex-col items-center py-10 text-center" data-testid="alerts-off">
            <BellOff aria-hidden="true" className="size-10 text-slate-400" />
            <p className="mt-3 text-sm font-semibold text-slate-900">Low-attendance alerts are off for you.</p>
            <p className="mt-1 text-sm text-slate-600">
              Turn them on in{' '}
              <Link to="/settings?tab=notifications" className="font-medium text-blue-700 underline underline-offset-2 hover:text-blue-800">
                Settings › Notifications
              </Link>
              .
            </p>
          </div>
        ) : (
          <>
            {data.alerts.length === 0 ? (
              <div className="flex flex-col items-center py-10 text-center">
                <CheckCircle2 aria-hidden="true" className="size-10 text-emerald-600" />
                <p className="mt-3 text-sm font-semibold text-slate-900">All systems running smoothly</p>
                <p className="mt-1 text-sm text-slate-600">No open low-attendance alerts right now.</p>
              </div>
            ) : (
              // A long list scrolls inside the panel; focusable so keyboard users can scroll it too.
              <ul tabIndex={0} aria-label="Live alerts" className="-mx-2 grid max-h-[30rem] gap-2 overflow-y-auto px-2 py-1">
                {data.alerts.map((a) => (
                  <AlertItem key={a.id} alert={a} onAcknowledge={() => setAcknowledging(a)} />
                ))}
              </ul>
            )}
            {counts && counts.open > data.alerts.length ? (
              <p className="mt-2 text-xs text-slate-600">
                Showing the {data.alerts.length} most serious of {counts.open} open alerts; acknowledge some to see the rest.
              </p>
            ) : null}
            {data.acknowledgedAlerts.length > 0 ? <AcknowledgedList alerts={data.acknowledgedAlerts} /> : null}
          </>
        )}
      </Panel>
      <AcknowledgeDialog alert={acknowledging} onClose={() => setAcknowledging(null)} />
    </div>
  );
}

/** Where an alert leads: its student's page, else its course's figures (Analytics' course table). */
function AlertLink({ alert: a }: { alert: LiveAlert }) {
  const { role } = useSignedInUser();
  if (a.studentId != null && can(role, 'hours:view')) {
    return (
      <Link to={`/students/${a.studentId}`} className={linkClass}>
        {a.studentName ?? 'Student'}’s record
        <ChevronRight aria-hidden="true" className="size-4" />
      </Link>
    );
  }
  return (
    <Link to="/?tab=analytics" className={linkClass}>
      {a.courseCode} course figures
      <ChevronRight aria-hidden="true" className="size-4" />
    </Link>
  );
}

function AlertItem({ alert: a, onAcknowledge }: { alert: LiveAlert; onAcknowledge: () => void }) {
  return (
    <li className="rounded-lg border border-slate-200 p-3" data-testid="live-alert">
      <div className="flex items-center justify-between gap-2">
        <LevelBadge level={a.severity} kind="severity" />
        <time dateTime={a.timestamp} className="text-xs text-slate-600">
          {formatWhen(a.timestamp)}
        </time>
      </div>
      <p className="mt-2 text-sm font-semibold text-slate-900">
        {a.courseName} <span className="font-normal text-slate-600">({a.courseCode})</span>
      </p>
      <p className="mt-0.5 text-sm text-slate-700">{a.message}</p>
      <div className="mt-2 flex flex-wrap items-center justify-between gap-2 text-sm">
        <AlertLink alert={a} />
        <Button variant="secondary" size="sm" icon={CircleCheck} onClick={onAcknowledge} aria-label={`Acknowledge: ${a.message}`}>
          Acknowledge
        </Button>
      </div>
    </li>
  );
}

function AcknowledgedList({ alerts }: { alerts: AcknowledgedLiveAlert[] }) {
  return (
    <details className="mt-4 rounded-lg border border-slate-200" data-testid="acknowledged-alerts">
      <summary className="cursor-pointer px-3 py-2 text-sm font-semibold text-slate-800">Acknowledged ({alerts.length})</summary>
      <ul className="divide-y divide-slate-100 border-t border-slate-200">
        {alerts.map((a) => (
          <li key={a.id} className="px-3 py-2 text-sm">
            <p className="text-slate-800">{a.message}</p>
            <p className="mt-0.5 text-xs text-slate-600">
              Acknowledged by {a.acknowledgedBy ?? 'a former user'}, <time dateTime={a.acknowledgedAt}>{formatWhen(a.acknowledgedAt)}</time>
              {a.note ? ` · “${a.note}”` : ''}
            </p>
            <p className="mt-1 text-xs">
              <AlertLink alert={a} />
            </p>
          </li>
        ))}
      </ul>
    </details>
  );
}

function AcknowledgeDialog({ alert, onClose }: { alert: LiveAlert | null; onClose: () => void }) {
  const acknowledge = useAcknowledgeAlert();
  const [note, setNote] = useState('');
  const close = () => {
    acknowledge.reset();
    setNote('');
    onClose();
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (alert) acknowledge.mutate({ alert, note }, { onSuccess: close });
  };
  const refusal = acknowledge.isError
    ? (readErrorBody(acknowledge.error).fieldErrors.note ??
      readErrorBody(acknowledge.error).message ??
      'The alert could not be acknowledged. Please try again.')
    : null;
  return (
    <Modal
      open={alert !== null}
      onOpenChange={(open) => !open && close()}
      focusFirstField
      size="md"
      title="Acknowledge alert"
      description={
        alert ? `${alert.message}. It leaves the open alerts and their counts until it fires for a new reason (for a student, a new absence).` : undefined
      }
    >
      <form onSubmit={submit} noValidate>
        {refusal ? <Alert className="mb-4">{refusal}</Alert> : null}
        <TextareaField
          label="Note (optional)"
          name="note"
          maxLength={500}
          value={note}
          onChange={(e) => setNote(e.target.value)}
          placeholder="What was done, e.g. called the student"
        />
        <ModalFooter>
          <ModalCancel />
          <Button type="submit" disabled={acknowledge.isPending}>
            {acknowledge.isPending ? <Spinner className="size-4" /> : null}
            Acknowledge
          </Button>
        </ModalFooter>
      </form>
    </Modal>
  );
}
