import { ShieldAlert, ShieldCheck, ShieldX } from 'lucide-react';
import type { ReactNode } from 'react';
import { type AttendanceRow } from '../../../common/attendance.ts';
import { FLAG_STATUS_AFTER, isProxyFlagReason, type CheckInFlag, type CheckInFlagReason, type FlagDecision } from '../../../common/check-in-flags.ts';
import { Button } from '../../components/ui/button.tsx';
import { Modal, ModalFooter } from '../../components/ui/dialog.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { cn } from '../../lib/cn.ts';
import { useReviewFlag } from './attendance-api.ts';
import { proxyFlagExplanation } from './proxy-evidence.ts';
import { formatDate, formatLocalTime } from '../../lib/format.ts';

// "Possible proxy" flags on the roster (docs/decisions/006-proxy-check-ins.md): a badge on the row,
// the evidence in a dialog, and the instructor's Confirm or Clear. A scan made while marked absent
// is another kind of flag, shown on the row itself (scan-flag.tsx).

const REASON_TITLES: Record<CheckInFlagReason, string> = {
  shared_browser: 'Same browser as another student’s check-in',
  dropped_cookie: 'The browser dropped its device cookie',
  scanned_after_override: 'Scanned while marked absent',
};

type Standing = 'flagged' | 'confirmed' | 'cleared';

/** The row's "possible proxy" flags (not its scans made while marked absent). */
const proxyFlags = (row: AttendanceRow): CheckInFlag[] => row.flags.filter((f) => isProxyFlagReason(f.reason));

/** The row's proxy standing: any flag still to review; else any confirmed; else all cleared. */
export function flagStanding(row: AttendanceRow): Standing | null {
  const flags = proxyFlags(row);
  if (flags.length === 0) return null;
  if (flags.some((f) => f.status === 'flagged')) return 'flagged';
  return flags.some((f) => f.status === 'confirmed') ? 'confirmed' : 'cleared';
}

const BADGES: Record<Standing, { label: string; icon: typeof ShieldAlert; tone: string }> = {
  flagged: { label: 'Possible proxy', icon: ShieldAlert, tone: 'bg-amber-50 text-amber-900 ring-amber-600/30 hover:bg-amber-100' },
  confirmed: { label: 'Proxy confirmed', icon: ShieldX, tone: 'bg-red-50 text-red-800 ring-red-600/25 hover:bg-red-100' },
  cleared: { label: 'Proxy flag cleared', icon: ShieldCheck, tone: 'bg-slate-50 text-slate-600 ring-slate-500/20 hover:bg-slate-100' },
};

/** A badge that is a button: it opens the evidence. Text carries the meaning; colour only supports it. */
export function ProxyFlagBadge({ row, onOpen }: { row: AttendanceRow; onOpen: () => void }) {
  const standing = flagStanding(row);
  if (!standing) return null;
  const { label, icon: Icon, tone } = BADGES[standing];
  return (
    <button
      type="button"
      onClick={onOpen}
      aria-haspopup="dialog"
      aria-label={`${label}: see the evidence for ${row.firstName} ${row.lastName}`}
      className={cn(
        'mt-1 inline-flex items-center gap-1 rounded-full px-2 py-0.5 text-xs font-semibold whitespace-nowrap ring-1 ring-inset',
        'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600',
        tone,
      )}
    >
      <Icon aria-hidden="true" className="size-3.5" />
      {label}
    </button>
  );
}

export function ProxyFlagDialog({ row, scheduleId, onClose }: { row: AttendanceRow | null; scheduleId: number; onClose: () => void }) {
  return (
    <Modal
      open={row != null && proxyFlags(row).length > 0}
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      title="Possible proxy check-in"
      description={row ? `${row.firstName} ${row.lastName} · ${formatDate(row.sessionDate)}` : undefined}
      size="lg"
    >
      {row ? <FlagList row={row} scheduleId={scheduleId} /> : null}
    </Modal>
  );
}

function FlagList({ row, scheduleId }: { row: AttendanceRow; scheduleId: number }) {
  return (
    <div className="space-y-5">
      <p className="text-sm leading-6 text-slate-700">
        A web page cannot prove which phone it runs on, so this check-in was accepted and flagged for you to judge. Confirm it if the student was not in class
        (then override the status), or clear it if they were.
      </p>
      {proxyFlags(row).map((flag) => (
        <FlagSection key={flag.id} flag={flag} row={row} scheduleId={scheduleId} />
      ))}
    </div>
  );
}

function FlagSection({ flag, row, scheduleId }: { flag: CheckInFlag; row: AttendanceRow; scheduleId: number }) {
  const review = useReviewFlag();
  const studentName = `${row.firstName} ${row.lastName}`;
  const e = flag.evidence;
  const headingId = `flag-${flag.id}-title`;
  const decide = (decision: FlagDecision) => review.mutate({ flag, scheduleId, decision, studentName });
  const pending = review.isPending ? (review.variables?.decision ?? null) : null;
  return (
    <section aria-labelledby={headingId} className="rounded-lg border border-slate-200 p-4">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <h3 id={headingId} className="text-sm font-semibold text-slate-900">
          {REASON_TITLES[flag.reason]}
        </h3>
        <ReviewState flag={flag} />
      </div>
      <p className="mt-1 text-sm text-slate-700">{proxyFlagExplanation(flag)}</p>
      <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1.5 text-sm">
        <Fact label="Checked in">{formatLocalTime(e.checkedInAt) ?? '—'}</Fact>
        <Fact label="Network address">
          <span className="font-mono text-xs">{e.ipAddress ?? 'unknown'}</span>
        </Fact>
        <Fact label="Browser signature">
          <span className="font-mono text-xs">{e.signature || '—'}</span>
        </Fact>
        {e.passIssuedAt ? <Fact label="Check-in page opened">{formatLocalTime(e.passIssuedAt)}</Fact> : null}
        {flag.otherStudents.length > 0 ? (
          <Fact label="Same browser as">
            <ul className="space-y-0.5">
              {flag.otherStudents.map((o) => {
                const at = e.otherRecordIds?.indexOf(o.recordId) ?? -1;
                const time = at >= 0 ? formatLocalTime(e.otherCheckedInAt?.[at] ?? null) : null;
                return (
                  <li key={o.recordId}>
                    {o.name}
                    {time ? <span className="text-slate-500"> · {time}</span> : null}
                  </li>
                );
              })}
            </ul>
          </Fact>
        ) : null}
      </dl>
      <ModalFooter className="mt-4 pt-4">
        <DecisionButton decision="cleared" flag={flag} pending={pending} onDecide={decide}>
          Clear flag
        </DecisionButton>
        <DecisionButton decision="confirmed" flag={flag} pending={pending} onDecide={decide}>
          Confirm proxy
        </DecisionButton>
      </ModalFooter>
    </section>
  );
}

/**
 * The decision already taken stays focusable (aria-disabled, not disabled), so a keyboard user who
 * just pressed it keeps their place and hears that it is now unavailable.
 */
function DecisionButton({
  decision,
  flag,
  pending,
  onDecide,
  children,
}: {
  decision: FlagDecision;
  flag: CheckInFlag;
  pending: FlagDecision | null;
  onDecide: (d: FlagDecision) => void;
  children: ReactNode;
}) {
  const unavailable = pending != null || flag.status === FLAG_STATUS_AFTER[decision];
  return (
    <Button
      variant={decision === 'confirmed' ? 'destructive' : 'secondary'}
      aria-disabled={unavailable}
      onClick={() => {
        if (!unavailable) onDecide(decision);
      }}
      className="aria-disabled:cursor-not-allowed aria-disabled:opacity-60"
    >
      {pending === decision ? <Spinner className="size-4" /> : null}
      {children}
    </Button>
  );
}

function ReviewState({ flag }: { flag: CheckInFlag }) {
  if (flag.status === 'flagged') return <span className="text-xs font-medium text-amber-900">Not reviewed yet</span>;
  const by = flag.reviewedBy ? ` by ${flag.reviewedBy}` : '';
  const at = flag.reviewedAt ? ` at ${formatLocalTime(flag.reviewedAt)}` : '';
  return (
    <span className={cn('text-xs font-medium', flag.status === 'confirmed' ? 'text-red-800' : 'text-slate-600')}>
      {flag.status === 'confirmed' ? 'Confirmed' : 'Cleared'}
      {by}
      {at}
    </span>
  );
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <>
      <dt className="font-medium text-slate-600">{label}</dt>
      <dd className="text-slate-900">{children}</dd>
    </>
  );
}
