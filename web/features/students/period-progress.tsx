import { useId } from 'react';
import type { PaymentPeriodProgress, PeriodStatus, SapCheckpoint, StudentHours } from '../../../common/hours.ts';
import { SAP_STATUS } from '../../components/sap-status.ts';
import { Badge, type BadgeTone } from '../../components/ui/badge.tsx';
import { Card } from '../../components/ui/card.tsx';
import { cn } from '../../lib/cn.ts';
import { formatDate, formatHm, formatHours, formatPercent } from '../../lib/format.ts';
import { periodMinutes, projectedCompletion, recentPace, PACE_DAYS } from './ledger-view.ts';
import { ScrollBox } from '../../components/ui/scroll-box.tsx';

const PERIOD_STATUS: Record<PeriodStatus, { label: string; tone: BadgeTone }> = {
  not_started: { label: 'Not started', tone: 'slate' },
  in_progress: { label: 'In progress', tone: 'blue' },
  completed: { label: 'Completed', tone: 'green' },
};

/** Payment periods as progress bars: credited against needed hours, the weeks, the excused cap used, and when it completed or should. */
export function PaymentPeriods({ ledger }: { ledger: StudentHours }) {
  const pace = recentPace(ledger.days, ledger.asOf);
  // Only the period under way is projected: the later ones wait for its completion date.
  const current = ledger.paymentPeriods.find((p) => p.status !== 'completed');
  return (
    <Card className="p-5 sm:p-6">
      <section aria-labelledby="periods-heading">
        <h2 id="periods-heading" className="text-lg font-semibold text-slate-900">
          Payment periods
        </h2>
        <p className="mt-1 text-sm text-slate-600">
          A period is complete when its hours are credited and its weeks have passed. Recent pace: {formatHm(Math.round(pace * 7))} h a week (last {PACE_DAYS}{' '}
          days).
        </p>
        {ledger.paymentPeriods.length === 0 ? (
          <p className="mt-4 text-sm text-slate-600">No payment periods: the student&apos;s program has no hours set.</p>
        ) : (
          <ol className="mt-5 space-y-6">
            {ledger.paymentPeriods.map((p) => (
              <PeriodRow key={p.number} period={p} projected={p === current ? projectedCompletion(p, pace, ledger.asOf) : null} />
            ))}
          </ol>
        )}
      </section>
    </Card>
  );
}

function PeriodRow({ period: p, projected }: { period: PaymentPeriodProgress; projected: string | null }) {
  const id = useId();
  const needed = periodMinutes(p);
  const credited = Math.min(p.creditedMinutes, needed);
  const percent = needed > 0 ? (credited / needed) * 100 : 0;
  const status = PERIOD_STATUS[p.status];
  const capUsed = p.excusedCapMinutes > 0 ? Math.min(100, (p.excusedCreditedMinutes / p.excusedCapMinutes) * 100) : 0;
  return (
    <li>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 id={`${id}-name`} className="text-sm font-semibold text-slate-900">
          Payment period {p.number}
        </h3>
        <Badge tone={status.tone}>{status.label}</Badge>
      </div>
      <p className="mt-0.5 text-xs text-slate-600">
        Hours {formatHours(p.startHours)}–{formatHours(p.endHours)} · {formatHours(p.weeks)} weeks
        {p.startedOn ? <> · started {formatDate(p.startedOn, 'medium')}</> : null}
        {p.weeksEndOn ? <> · weeks elapse {formatDate(p.weeksEndOn, 'medium')}</> : null}
      </p>
      <div
        role="progressbar"
        aria-labelledby={`${id}-name`}
        aria-valuemin={0}
        aria-valuemax={needed}
        aria-valuenow={credited}
        aria-valuetext={`${formatHm(credited)} of ${formatHm(needed)} hours credited`}
        className="mt-2 h-3 w-full overflow-hidden rounded-full bg-slate-200"
      >
        <div className={cn('h-full rounded-full', p.status === 'completed' ? 'bg-emerald-600' : 'bg-blue-700')} style={{ width: `${percent}%` }} />
      </div>
      <div className="mt-2 flex flex-col gap-1 text-sm text-slate-700 sm:flex-row sm:flex-wrap sm:justify-between sm:gap-x-6">
        <span>
          <strong className="tabular-nums">{formatHm(credited)}</strong> of {formatHm(needed)} h credited
          {p.status !== 'completed' ? <> · {formatHours(p.hoursRemaining)} h to go</> : null}
        </span>
        <span>{completionText(p, projected)}</span>
      </div>
      <p className="mt-1 text-xs text-slate-600">
        Excused absence counted: {formatHm(p.excusedCreditedMinutes)} of the {formatHm(p.excusedCapMinutes)} h cap ({Math.round(capUsed)}% used)
      </p>
    </li>
  );
}

function completionText(p: PaymentPeriodProgress, projected: string | null): string {
  if (p.status === 'completed' && p.completedOn) return `Completed on ${formatDate(p.completedOn, 'medium')}`;
  if (projected) return `Projected ${formatDate(projected, 'medium')} at the recent pace`;
  if (p.status === 'in_progress') return 'No projection: no hours credited in the last four weeks';
  return 'Starts when the previous period is completed';
}

/** Satisfactory academic progress: each checkpoint's status, the day it was evaluated, and the attendance then. */
export function SapCheckpoints({ checkpoints }: { checkpoints: SapCheckpoint[] }) {
  return (
    <Card className="overflow-hidden">
      <section aria-labelledby="sap-heading">
        <div className="px-5 pt-5 sm:px-6">
          <h2 id="sap-heading" className="text-lg font-semibold text-slate-900">
            Satisfactory academic progress
          </h2>
          <p className="mt-1 text-sm text-slate-600">Evaluated when the credited hours reach each checkpoint: credited ÷ scheduled hours up to that day.</p>
        </div>
        {checkpoints.length === 0 ? (
          <p className="px-5 py-4 text-sm text-slate-600 sm:px-6">No checkpoints: the student&apos;s program has no hours set.</p>
        ) : (
          <ScrollBox label="SAP checkpoints" className="mt-3">
            <table className="min-w-full text-left text-sm">
              <caption className="sr-only">SAP checkpoints</caption>
              <thead className="border-y border-slate-200 bg-slate-50/80 text-xs font-semibold tracking-wide text-slate-600 uppercase">
                <tr>
                  <th scope="col" className="px-3 py-2 pl-5 sm:pl-6">
                    Checkpoint
                  </th>
                  <th scope="col" className="px-3 py-2">
                    Status
                  </th>
                  <th scope="col" className="px-3 py-2">
                    Evaluated on
                  </th>
                  <th scope="col" className="px-3 py-2 pr-5 sm:pr-6">
                    Attendance
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {checkpoints.map((c) => (
                  <tr key={c.atHours}>
                    <th scope="row" className="px-3 py-2.5 pl-5 font-medium whitespace-nowrap text-slate-900 sm:pl-6">
                      {formatHours(c.atHours)} h
                    </th>
                    <td className="px-3 py-2.5">
                      <Badge tone={SAP_STATUS[c.status].tone}>{SAP_STATUS[c.status].label}</Badge>
                    </td>
                    <td className="px-3 py-2.5 whitespace-nowrap">{c.evaluatedOn ? formatDate(c.evaluatedOn, 'medium') : '—'}</td>
                    <td className="px-3 py-2.5 pr-5 tabular-nums sm:pr-6">{formatPercent(c.attendancePercent)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </ScrollBox>
        )}
      </section>
    </Card>
  );
}
