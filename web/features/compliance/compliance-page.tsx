import { FileDown } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import type { ComplianceOverview, WatchRow, WatchState } from '../../../common/compliance.ts';
import { can } from '../../../common/permissions.ts';
import { Alert } from '../../components/ui/alert.tsx';
import { Badge, type BadgeTone } from '../../components/ui/badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { notifyFailure, notifySuccess } from '../../components/ui/notify.ts';
import { PageHeader } from '../../components/ui/page-header.tsx';
import { PageTabPanel, PageTabs } from '../../components/ui/page-tabs.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { ProgramFilter } from '../../components/pickers/program-select.tsx';
import { RecomputingHoursNotice } from '../../components/recomputing-hours-notice.tsx';
import { Toolbar } from '../../components/ui/toolbar.tsx';
import { downloadFile } from '../../lib/download.ts';
import { formatDate, formatHm } from '../../lib/format.ts';
import { useSignedInUser } from '../../lib/use-auth.ts';
import { useTabParam } from '../../lib/use-tab-param.ts';
import { useComplianceOverview, useWithdrawalWatch, type ComplianceFilter } from './compliance-api.ts';
import { ExceptionRates } from './exception-rates.tsx';
import { WithdrawalDialog } from './withdrawal-dialog.tsx';
import { serverToday } from '../../lib/server-clock.ts';

type TabKey = 'watch' | 'sap' | 'excused-cap' | 'make-up' | 'monthly';
const STATE_TONES: Record<WatchState, BadgeTone> = { watch: 'amber', due: 'red', overdue: 'red' };
const STATE_LABELS: Record<WatchState, string> = { watch: 'Watch', due: 'Due', overdue: 'Overdue' };

const cell = 'px-3 py-2.5';
const head = 'px-3 py-2 text-left text-xs font-semibold tracking-wide text-slate-600 uppercase';

/** A plain table with a caption, headers, and a message when empty. */
function ListTable({ caption, headers, empty, children, count }: { caption: string; headers: string[]; empty: string; children: ReactNode; count: number }) {
  return (
    <div className="overflow-x-auto">
      <table className="min-w-full text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead className="border-b border-slate-200 bg-slate-50/80">
          <tr>
            {headers.map((h) => (
              <th key={h} scope="col" className={head}>
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {count === 0 ? (
            <tr>
              <td colSpan={headers.length} className="px-5 py-8 text-center text-slate-600">
                {empty}
              </td>
            </tr>
          ) : (
            children
          )}
        </tbody>
      </table>
    </div>
  );
}

const StudentLink = ({ r }: { r: { studentId: number; firstName: string; lastName: string; sisStudentId: string | null } }) => (
  <th scope="row" className={`${cell} text-left font-medium whitespace-nowrap`}>
    {/* Underlined: beside the SIS ID, colour alone would not mark it as a link (axe link-in-text-block). */}
    <Link to={`/students/${r.studentId}`} className="text-blue-800 underline underline-offset-2 hover:decoration-2">
      {r.lastName}, {r.firstName}
    </Link>
    {r.sisStudentId ? <span className="ml-2 font-mono text-xs text-slate-500">{r.sisStudentId}</span> : null}
  </th>
);

function WatchTab({ rows, canWithdraw, onWithdraw }: { rows: WatchRow[]; canWithdraw: boolean; onWithdraw: (r: WatchRow) => void }) {
  return (
    <ListTable
      caption="Withdrawal watch, most urgent first"
      headers={['Student', 'Program', 'State', 'Last attended', 'Days without attendance', 'Determination due by', ...(canWithdraw ? ['Actions'] : [])]}
      empty="No enrolled student has been away long enough to watch."
      count={rows.length}
    >
      {rows.map((r) => (
        <tr key={r.studentId}>
          <StudentLink r={r} />
          <td className={cell}>{r.programName ?? '—'}</td>
          <td className={cell}>
            <Badge tone={STATE_TONES[r.state]}>{STATE_LABELS[r.state]}</Badge>
          </td>
          <td className={`${cell} whitespace-nowrap`}>{r.lastDateOfAttendance ? formatDate(r.lastDateOfAttendance, 'medium') : 'Never attended'}</td>
          <td className={`${cell} tabular-nums`}>{r.daysWithoutAttendance}</td>
          <td className={`${cell} whitespace-nowrap`}>{formatDate(r.determinationDueBy, 'medium')}</td>
          {canWithdraw ? (
            <td className={cell}>
              <Button size="sm" variant="secondary" onClick={() => onWithdraw(r)} aria-label={`Record withdrawal of ${r.firstName} ${r.lastName}`}>
                Record withdrawal
              </Button>
            </td>
          ) : null}
        </tr>
      ))}
    </ListTable>
  );
}

function SapTab({ rows }: { rows: ComplianceOverview['sap'] }) {
  return (
    <ListTable
      caption="SAP checkpoints not met, and those coming up in the next 30 days"
      headers={['Student', 'Program', 'Checkpoint', 'Status', 'Evaluated or projected', 'Attendance']}
      empty="No checkpoint not met and none coming up in 30 days."
      count={rows.length}
    >
      {rows.map((r) => (
        <tr key={`${r.studentId}-${r.atHours}`}>
          <StudentLink r={r} />
          <td className={cell}>{r.programName ?? '—'}</td>
          <td className={`${cell} tabular-nums`}>{r.atHours} h</td>
          <td className={cell}>{r.status === 'not_met' ? <Badge tone="red">Not met</Badge> : <Badge tone="blue">Coming up</Badge>}</td>
          <td className={`${cell} whitespace-nowrap`}>
            {r.evaluatedOn ? formatDate(r.evaluatedOn, 'medium') : r.projectedOn ? `about ${formatDate(r.projectedOn, 'medium')}` : '—'}
          </td>
          <td className={`${cell} tabular-nums`}>{r.attendancePercent == null ? '—' : `${r.attendancePercent}%`}</td>
        </tr>
      ))}
    </ListTable>
  );
}

function ExcusedCapTab({ rows }: { rows: ComplianceOverview['excusedCap'] }) {
  return (
    <ListTable
      caption="Students who have used 80% or more of a payment period's excused cap"
      headers={['Student', 'Program', 'Payment period', 'Excused credited', 'Cap', 'Past the cap']}
      empty="No student is near the excused cap."
      count={rows.length}
    >
      {rows.map((r) => (
        <tr key={`${r.studentId}-${r.paymentPeriod}`}>
          <StudentLink r={r} />
          <td className={cell}>{r.programName ?? '—'}</td>
          <td className={`${cell} tabular-nums`}>{r.paymentPeriod}</td>
          <td className={`${cell} tabular-nums`}>{formatHm(r.excusedCreditedMinutes)}</td>
          <td className={`${cell} tabular-nums`}>{formatHm(r.excusedCapMinutes)}</td>
          <td className={`${cell} tabular-nums`}>{formatHm(r.excusedUncreditedMinutes)}</td>
        </tr>
      ))}
    </ListTable>
  );
}

function MakeUpTab({ rows }: { rows: ComplianceOverview['makeUpOwed'] }) {
  return (
    <ListTable
      caption="Missed time past the make-up deadline, less make-up done"
      headers={['Student', 'Program', 'Owed (h:mm)', 'Oldest missed day', 'Make up by']}
      empty="Nobody owes make-up time past the deadline."
      count={rows.length}
    >
      {rows.map((r) => (
        <tr key={r.studentId}>
          <StudentLink r={r} />
          <td className={cell}>{r.programName ?? '—'}</td>
          <td className={`${cell} tabular-nums`}>{formatHm(r.owedMinutes)}</td>
          <td className={`${cell} whitespace-nowrap`}>{r.oldestMissedOn ? formatDate(r.oldestMissedOn, 'medium') : '—'}</td>
          <td className={`${cell} whitespace-nowrap`}>{r.dueBy ? formatDate(r.dueBy, 'medium') : `${r.makeUpDeadlineDays} days`}</td>
        </tr>
      ))}
    </ListTable>
  );
}

function lastMonth(): string {
  const d = new Date();
  d.setDate(1);
  d.setMonth(d.getMonth() - 1);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}`;
}

function MonthlyTab({ programId }: { programId: string }) {
  const [month, setMonth] = useState(lastMonth());
  const [busy, setBusy] = useState<string | null>(null);
  const download = async (kind: 'csv' | 'pdf' | 'sap') => {
    setBusy(kind);
    try {
      const q = new URLSearchParams();
      if (kind !== 'sap') q.set('month', month);
      if (programId) q.set('programId', programId);
      if (kind === 'pdf') q.set('format', 'pdf');
      const url = kind === 'sap' ? `/api/reports/sap?${q}` : `/api/reports/monthly-hours?${q}`;
      await downloadFile(url, { fallbackName: kind === 'sap' ? 'sap-report.csv' : `monthly-hours-${month}.${kind}` });
      notifySuccess('Report downloaded', kind === 'sap' ? 'The SAP report has been downloaded.' : `The hours of ${month} have been downloaded.`);
    } catch (e) {
      notifyFailure(e, 'The report could not be made. Please try again.', 'Report failed');
    } finally {
      setBusy(null);
    }
  };
  return (
    <div className="space-y-4 p-5 sm:p-6">
      <p className="text-sm text-slate-700">
        Each student enrolled during the month: the month's scheduled, attended, make-up and credited hours and the cumulative hours since enrolment, for the
        state board.
      </p>
      <div className="flex flex-wrap items-end gap-3">
        <label className="flex flex-col gap-1 text-sm font-medium text-slate-700">
          Month
          <input
            type="month"
            value={month}
            onChange={(e) => setMonth(e.target.value)}
            className="h-10 rounded-lg border border-slate-300 bg-white px-3 text-sm shadow-sm"
          />
        </label>
        <Button variant="secondary" onClick={() => void download('csv')} disabled={busy != null || !month}>
          {busy === 'csv' ? <Spinner className="size-4" /> : <FileDown aria-hidden="true" className="size-4" />}
          Download CSV
        </Button>
        <Button variant="secondary" onClick={() => void download('pdf')} disabled={busy != null || !month}>
          {busy === 'pdf' ? <Spinner className="size-4" /> : <FileDown aria-hidden="true" className="size-4" />}
          Download PDF
        </Button>
        <Button variant="secondary" onClick={() => void download('sap')} disabled={busy != null}>
          {busy === 'sap' ? <Spinner className="size-4" /> : <FileDown aria-hidden="true" className="size-4" />}
          SAP report (CSV)
        </Button>
      </div>
    </div>
  );
}

/**
 * /compliance: what regulators and the financial aid office ask about every morning: who is
 * approaching or past the 14-day withdrawal determination, SAP, the excused cap, make-up owed,
 * and the monthly hours report.
 */
export function CompliancePage() {
  const user = useSignedInUser();
  const [programId, setProgramId] = useState('');
  const [asOf, setAsOf] = useState('');
  const filter: ComplianceFilter = { programId: programId ? Number(programId) : undefined, asOf: asOf || undefined };
  const watch = useWithdrawalWatch(filter);
  const overview = useComplianceOverview(filter);
  const [withdrawing, setWithdrawing] = useState<WatchRow | null>(null);
  const counts = overview.data?.counts;
  const n = (v: number | undefined) => (v == null ? '' : ` (${v})`);
  const tabs = [
    { value: 'watch', label: `Withdrawal watch${n(watch.data?.length)}` },
    { value: 'sap', label: `SAP${n(counts ? counts.sapNotMet + counts.sapUpcoming : undefined)}` },
    { value: 'excused-cap', label: `Excused cap${n(counts?.excusedCap)}` },
    { value: 'make-up', label: `Make-up owed${n(counts?.makeUpOwed)}` },
    { value: 'monthly', label: 'Monthly report' },
  ] as const satisfies readonly { value: TabKey; label: string }[];
  const [tab, setTab] = useTabParam(tabs);
  const loading = (q: { isLoading: boolean }) =>
    q.isLoading ? (
      <p role="status" className="flex items-center gap-2 px-5 py-8 text-sm text-slate-600">
        <Spinner className="size-4 text-blue-700" /> Loading…
      </p>
    ) : null;

  return (
    <>
      <PageHeader title="Compliance" subtitle="Withdrawal watch, satisfactory academic progress, the excused cap, make-up owed and the state-board report" />
      <Card className="mb-6">
        <Toolbar className="flex-wrap">
          <ProgramFilter id="compliance-program" value={programId} onChange={setProgramId} />
          <div className="flex items-center gap-2 text-sm">
            <label htmlFor="compliance-as-of" className="text-slate-700">
              As of
            </label>
            <input
              id="compliance-as-of"
              type="date"
              max={serverToday()}
              value={asOf}
              onChange={(e) => setAsOf(e.target.value)}
              className="h-10 rounded-lg border border-slate-300 bg-white px-3 text-sm shadow-sm"
            />
          </div>
        </Toolbar>
      </Card>
      <RecomputingHoursNotice className="mb-6" />
      {watch.isError || overview.isError ? <Alert className="mb-6">The compliance lists could not be loaded. Reload the page to try again.</Alert> : null}
      <PageTabs label="Compliance lists" tabs={tabs} value={tab} onValueChange={setTab}>
        <PageTabPanel value="watch">
          <Card className="overflow-hidden">
            {loading(watch) ?? <WatchTab rows={watch.data ?? []} canWithdraw={can(user.role, 'withdrawals:manage')} onWithdraw={setWithdrawing} />}
          </Card>
        </PageTabPanel>
        <PageTabPanel value="sap">
          <Card className="overflow-hidden">{loading(overview) ?? <SapTab rows={overview.data?.sap ?? []} />}</Card>
        </PageTabPanel>
        <PageTabPanel value="excused-cap">
          <Card className="overflow-hidden">{loading(overview) ?? <ExcusedCapTab rows={overview.data?.excusedCap ?? []} />}</Card>
        </PageTabPanel>
        <PageTabPanel value="make-up">
          <Card className="overflow-hidden">{loading(overview) ?? <MakeUpTab rows={overview.data?.makeUpOwed ?? []} />}</Card>
        </PageTabPanel>
        <PageTabPanel value="monthly">
          <Card>
            <MonthlyTab programId={programId} />
          </Card>
        </PageTabPanel>
      </PageTabs>
      <ExceptionRates programId={programId} />
      <WithdrawalDialog row={withdrawing} onClose={() => setWithdrawing(null)} />
    </>
  );
}
