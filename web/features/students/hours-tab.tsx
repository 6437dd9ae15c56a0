import { useState } from 'react';
import type { LedgerTotals, StudentHours } from '../../../common/hours.ts';
import { addDays } from '../../../common/dates.ts';
import type { Student } from '../../../common/students.ts';
import { Alert } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { timeClockLinesShown } from '../../components/time-clock-lines.ts';
import { TextField } from '../../components/ui/text-field.tsx';
import { ApiError } from '../../lib/api.ts';
import { formatDate, formatHm, formatPercent } from '../../lib/format.ts';
import { AttendanceCalendar } from './attendance-calendar.tsx';
import { PACE_DAYS, monthOf } from './ledger-view.ts';
import { MakeUpSessions } from './make-up-sessions.tsx';
import { Leaves } from './leaves.tsx';
import { PaymentPeriods, SapCheckpoints } from './period-progress.tsx';
import { useStudentHours } from './students-api.ts';
import { TimeCard } from './time-card.tsx';
import { serverToday } from '../../lib/server-clock.ts';
import { OpeningBalanceCard } from './opening-balance.tsx';

/**
 * The Hours tab: the ledger as of a date (today unless one is chosen). The summary query also
 * brings the days of the last month, from which the projection takes the recent pace; the month
 * calendar asks for its own month.
 */
export function HoursTab({ student }: { student: Student }) {
  const [asOf, setAsOf] = useState('');
  // With no date the server answers as of today in the school's time zone (and the last 31 days).
  const hours = useStudentHours(student.id, asOf ? { asOf, from: addDays(asOf, -(PACE_DAYS + 2)), to: asOf } : {});
  const ledger = hours.data;

  return (
    <div className="space-y-6">
      <Card className="flex flex-col gap-3 p-4 sm:flex-row sm:items-end sm:justify-between sm:p-5">
        <div className="flex flex-wrap items-end gap-3">
          <TextField
            label="As of"
            name="asOf"
            type="date"
            max={serverToday()}
            value={asOf}
            onChange={(e) => setAsOf(e.target.value)}
            hint={asOf ? 'The ledger as it stood at the end of this day' : 'Today; choose a past date to see the ledger as it stood then'}
            className="w-56 max-w-full"
          />
          {asOf ? (
            <Button variant="secondary" onClick={() => setAsOf('')} className="mb-6">
              Back to today
            </Button>
          ) : null}
        </div>
        {hours.isFetching && !hours.isLoading ? (
          <span role="status" className="inline-flex items-center gap-2 text-sm text-slate-600">
            <Spinner className="size-4 text-blue-700" /> Updating…
          </span>
        ) : null}
      </Card>

      {hours.isLoading ? (
        <div role="status" className="flex items-center gap-2 py-8 text-sm text-slate-600">
          <Spinner className="size-5 text-blue-700" /> Loading hours…
        </div>
      ) : hours.isError || !ledger ? (
        <Alert>{hoursErrorText(hours.error)}</Alert>
      ) : (
        // Keyed by the date: a new as-of date starts the calendar and time card on its month.
        <LedgerView key={ledger.asOf} student={student} ledger={ledger} />
      )}
    </div>
  );
}

function hoursErrorText(error: unknown): string {
  if (error instanceof ApiError && error.status === 403) return 'You can see the hours of the students on your own class rosters only.';
  if (error instanceof ApiError && error.status === 400) return 'That date cannot be used. Choose a valid date.';
  return 'The hours could not be loaded. Reload the page to try again.';
}

function LedgerView({ student, ledger }: { student: Student; ledger: StudentHours }) {
  const [month, setMonth] = useState(() => monthOf(ledger.asOf));
  const t = ledger.totals;
  return (
    <>
      {ledger.programId == null ? (
        <Alert variant="info">This student has no program: hours are counted, but there are no payment periods or progress checkpoints.</Alert>
      ) : null}
      <section aria-labelledby="totals-heading">
        <h2 id="totals-heading" className="sr-only">
          Totals as of {formatDate(ledger.asOf, 'medium')}
        </h2>
        <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-6">
          <Stat
            label="Credited"
            value={formatHm(t.creditedMinutes)}
            unit="h"
            note={
              t.openingCreditedMinutes > 0 ? `Includes ${formatHm(t.openingCreditedMinutes)} h before Muster` : 'Attended, make-up and excused within the cap'
            }
            emphasis
          />
          <Stat label="Scheduled" value={formatHm(t.scheduledMinutes)} unit="h" />
          <Stat label="Attendance" value={formatPercent(ledger.attendancePercent)} note="Credited ÷ scheduled" emphasis />
          <Stat label="Attended" value={formatHm(t.attendedMinutes)} unit="h" />
          <Stat label="Make-up" value={formatHm(t.makeUpMinutes)} unit="h" />
          <Stat
            label="Excused"
            value={formatHm(t.excusedMinutes)}
            unit="h"
            note={`${formatHm(t.excusedCreditedMinutes)} counted, ${formatHm(t.excusedUncreditedMinutes)} to make up`}
          />
        </dl>
        <p className="mt-3 text-sm text-slate-700">
          As of <strong>{formatDate(ledger.asOf, 'medium')}</strong> · Last date of attendance:{' '}
          <strong>{ledger.lastDateOfAttendance ? formatDate(ledger.lastDateOfAttendance, 'medium') : 'none yet'}</strong>
          {ledger.enrollmentDate ? <> · Enrolled {formatDate(ledger.enrollmentDate, 'medium')}</> : null}
          {ledger.expectedEndDate ? <> · Expected to finish {formatDate(ledger.expectedEndDate, 'medium')}</> : null}
        </p>
        {ledger.withdrawalDate ? (
          <Alert variant="info" className="mt-3">
            Withdrawn on {formatDate(ledger.withdrawalDate, 'medium')}: nothing is scheduled after it, and the last date of attendance stays as recorded then.
          </Alert>
        ) : null}
        {t.excusedUncreditedMinutes > 0 ? (
          <Alert variant="info" className="mt-3">
            {formatHm(t.excusedUncreditedMinutes)} h of excused absence went past the cap of its payment period: they count for nothing until made up.
          </Alert>
        ) : null}
      </section>

      <TimeClockTotals totals={t} />
      <PaymentPeriods ledger={ledger} />
      <OpeningBalanceCard student={student} />
      <SapCheckpoints checkpoints={ledger.sapCheckpoints} />
      <AttendanceCalendar student={student} asOf={ledger.asOf} enrollmentDate={ledger.enrollmentDate} month={month} onMonthChange={setMonth} />
      <MakeUpSessions student={student} />
      <Leaves student={student} />
      <TimeCard key={month} student={student} month={month} asOf={ledger.asOf} />
    </>
  );
}

/**
 * How the program's time-clock rules turned the punches into attended minutes since the student's
 * start: shown only when they changed something, each line with the rule that explains it.
 */
function TimeClockTotals({ totals }: { totals: LedgerTotals }) {
  const lines = timeClockLinesShown([totals]);
  if (lines.length === 0) return null;
  return (
    <Card className="p-5 sm:p-6">
      <section aria-labelledby="time-clock-heading">
        <h2 id="time-clock-heading" className="text-lg font-semibold text-slate-900">
          Time clock
        </h2>
        <p className="mt-1 text-sm text-slate-600">
          How the program’s time-clock rules counted the punches since the student’s start. Attended = rounded − meal deduction − over the cap.
        </p>
        <dl className="mt-4 grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
          {lines.map((l) => (
            <div key={l.key} className="min-w-0 rounded-lg border border-slate-200 p-3">
              <dt className="text-sm font-semibold text-slate-800">{l.label}</dt>
              <dd className="mt-1">
                <span className="text-lg font-semibold text-slate-900 tabular-nums">{formatHm(totals[l.key])}</span>
                <span className="ml-1 text-sm text-slate-600">h</span>
                <span className="mt-1 block text-xs text-slate-600">{l.description}</span>
              </dd>
            </div>
          ))}
        </dl>
      </section>
    </Card>
  );
}

function Stat({ label, value, unit, note, emphasis = false }: { label: string; value: string; unit?: string; note?: string; emphasis?: boolean }) {
  return (
    <Card className="min-w-0 p-4">
      <dt className="text-xs font-semibold tracking-wide text-slate-600 uppercase">{label}</dt>
      <dd className="mt-1">
        <span className={emphasis ? 'text-2xl font-bold text-slate-900 tabular-nums' : 'text-xl font-semibold text-slate-900 tabular-nums'}>{value}</span>
        {unit ? <span className="ml-1 text-sm text-slate-600">{unit}</span> : null}
        {note ? <span className="mt-1 block text-xs text-slate-600">{note}</span> : null}
      </dd>
    </Card>
  );
}
