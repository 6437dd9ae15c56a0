import type { TimeZoneImpact } from '../../../common/settings.ts';
import { Alert } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Modal, ModalCancel, ModalFooter } from '../../components/ui/dialog.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { formatCount } from '../../lib/format.ts';
import { timeZoneLabel } from '../../lib/time-zones.ts';
import { useTimeZoneImpact } from './settings-api.ts';

/** "7 hours later", "30 minutes earlier", "at the same time". */
function moveText(minutes: number): string {
  if (minutes === 0) return 'at the same moment as it does now';
  const abs = Math.abs(minutes);
  const h = Math.floor(abs / 60);
  const m = abs % 60;
  const amount = [h ? `${h} ${h === 1 ? 'hour' : 'hours'}` : '', m ? `${m} minutes` : ''].filter(Boolean).join(' ');
  return `${amount} ${minutes > 0 ? 'later' : 'earlier'} than it does now`;
}

const count = (n: number, one: string, many: string) => `${formatCount(n)} ${n === 1 ? one : many}`;

/** "4 → 23", or "stays 4". */
const change = ({ now, after }: { now: number; after: number }) =>
  now === after ? `stays ${formatCount(now)}` : `${formatCount(now)} → ${formatCount(after)}`;

/**
 * Before a new school time zone is saved (decision 046): what the change recounts, from the
 * server's preview, and an explicit confirmation. The save happens only on "Change time zone".
 */
export function TimeZoneChangeDialog({
  timeZone,
  saving,
  onConfirm,
  onCancel,
}: {
  /** The zone about to be saved; null: closed. */
  timeZone: string | null;
  saving: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const impact = useTimeZoneImpact(timeZone);
  return (
    <Modal
      open={timeZone != null}
      onOpenChange={(open) => !open && onCancel()}
      title="Change the school time zone?"
      description="Class times are school clock times: on a new clock every class of the past and the future happens at another moment, so all history is counted again."
      size="md"
    >
      {impact.isPending ? (
        <p role="status" className="flex items-center gap-2 text-sm text-slate-600">
          <Spinner className="size-4 text-blue-700" /> Counting what changes…
        </p>
      ) : impact.isError ? (
        <Alert>What the change recounts could not be worked out. You can still change the zone; every day of history is counted again on the new clock.</Alert>
      ) : (
        <ImpactSummary impact={impact.data} />
      )}
      <ModalFooter>
        <ModalCancel />
        <Button variant="destructive" onClick={onConfirm} disabled={saving || impact.isPending}>
          {saving ? <Spinner className="size-4" /> : null}
          {saving ? 'Saving…' : 'Change time zone and recount'}
        </Button>
      </ModalFooter>
    </Modal>
  );
}

function ImpactSummary({ impact }: { impact: TimeZoneImpact }) {
  return (
    <div className="space-y-3 text-sm text-slate-700" data-testid="time-zone-impact">
      <p>
        From <span className="font-semibold text-slate-900">{timeZoneLabel(impact.from)}</span> to{' '}
        <span className="font-semibold text-slate-900">{timeZoneLabel(impact.to)}</span>: a class at 08:00 happens {moveText(impact.classTimesMoveMinutes)}.
      </p>
      <ul className="list-disc space-y-1 pl-5">
        <li>
          {count(impact.schedules, 'class schedule is', 'class schedules are')} read on the new clock, and {count(impact.checkIns, 'check-in', 'check-ins')} (
          {count(impact.attendanceRecords, 'attendance record', 'attendance records')} in all) are measured again against the moved class times: hours,
          lateness, SAP and make-up owed can all change.
        </li>
        <li>
          Overdue withdrawals: <span className="font-semibold text-slate-900">{change(impact.overdueWithdrawals)}</span>; students on the withdrawal watch:{' '}
          <span className="font-semibold text-slate-900">{change(impact.onWithdrawalWatch)}</span>.
        </li>
        {impact.openSessions > 0 ? <li>{count(impact.openSessions, 'QR session is', 'QR sessions are')} open now.</li> : null}
      </ul>
      {impact.classTimesMoveMinutes !== 0 ? (
        <p className="font-medium text-amber-900">Change the zone only if the school&apos;s clock really is the new one (the zone was set wrong).</p>
      ) : null}
    </div>
  );
}
