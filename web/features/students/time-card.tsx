import { FileDown } from 'lucide-react';
import { useState } from 'react';
import type { LedgerDay } from '../../../common/hours.ts';
import { daysBetween } from '../../../common/dates.ts';
import type { Student } from '../../../common/students.ts';
import { sumTimeClock, timeClockLinesShown } from '../../components/time-clock-lines.ts';
import { Button } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { ScrollBox } from '../../components/ui/scroll-box.tsx';
import { TextField } from '../../components/ui/text-field.tsx';
import { notifyFailure, notifySuccess } from '../../components/ui/notify.ts';
import { downloadFile } from '../../lib/download.ts';
import { formatDate, formatHm } from '../../lib/format.ts';
import { monthLabel, monthRange, timeClockDays } from './ledger-view.ts';
import { useStudentHours } from './students-api.ts';

/**
 * "Download time card (PDF)": the days of a date range with in/out times, minutes, status, make-up
 * and totals, made by the server; below it, the range's days the time-clock rules changed. The range starts as the month shown in the calendar (up to the
 * as-of date); it can be changed for any other.
 */
export function TimeCard({ student, month, asOf }: { student: Student; month: string; asOf: string }) {
  const range = monthRange(month);
  const [from, setFrom] = useState(range.from);
  const [to, setTo] = useState(range.to < asOf ? range.to : asOf);
  const [busy, setBusy] = useState(false);
  const reversed = Boolean(from && to && to < from);
  const missing = !from || !to;
  // The days of the range as the card prints them (never after the as-of date, at most the card's two years).
  const last = to && to < asOf ? to : asOf;
  const readable = !missing && !reversed && from <= last && daysBetween(from, last) <= 731;
  const hours = useStudentHours(student.id, { asOf: last, from, to: last }, readable);

  const download = async () => {
    setBusy(true);
    try {
      const q = new URLSearchParams({ from, to });
      const name = await downloadFile(`/api/students/${student.id}/time-card.pdf?${q.toString()}`, {
        fallbackName: `time-card-${student.sisStudentId ?? student.id}-${from}-${to}.pdf`,
      });
      notifySuccess('Time card downloaded', name);
    } catch (e) {
      notifyFailure(e, 'Failed to download the time card. Please try again.');
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card className="p-5 sm:p-6">
      <section aria-labelledby="time-card-heading">
        <h2 id="time-card-heading" className="text-lg font-semibold text-slate-900">
          Time card
        </h2>
        <p className="mt-1 text-sm text-slate-600">
          A printable PDF of each day with in and out times, status, make-up, corrections, the minutes as punched, rounded, deducted and capped by the
          time-clock rules, and totals. It starts as {monthLabel(month)}.
        </p>
        <div className="mt-4 flex flex-col gap-4 sm:flex-row sm:items-end">
          <TextField label="From" name="timeCardFrom" type="date" value={from} onChange={(e) => setFrom(e.target.value)} className="sm:w-48" />
          <TextField
            label="To"
            name="timeCardTo"
            type="date"
            value={to}
            onChange={(e) => setTo(e.target.value)}
            error={reversed ? 'The end date must not be before the start date' : undefined}
            className="sm:w-48"
          />
          <Button onClick={() => void download()} disabled={busy || reversed || missing} className="sm:mb-0">
            {busy ? <Spinner className="size-4" /> : <FileDown aria-hidden="true" className="size-4" />}
            Download time card (PDF)
          </Button>
        </div>
        {readable && hours.data ? <TimeClockDays days={hours.data.days} /> : null}
      </section>
    </Card>
  );
}

/**
 * The time-clock lines of the card's days where the program's rules changed the minutes, as the PDF
 * prints them: a column only for the lines that are not zero in the range.
 */
function TimeClockDays({ days }: { days: LedgerDay[] }) {
  const changed = timeClockDays(days);
  const lines = timeClockLinesShown(changed);
  if (lines.length === 0) return null;
  const total = sumTimeClock(changed);
  const cell = 'px-3 py-2 text-right tabular-nums';
  return (
    <div className="mt-5">
      <h3 id="time-clock-days-heading" className="text-sm font-semibold text-slate-900">
        Time-clock lines
      </h3>
      <p className="mt-1 text-sm text-slate-600">
        The days of these dates on which the program’s time-clock rules changed the minutes, in hours and minutes. Attended = rounded − meal deduction − over
        the cap.
      </p>
      <ScrollBox label="Time-clock lines" className="mt-3">
        <table className="min-w-full text-left text-sm" aria-labelledby="time-clock-days-heading">
          <thead className="border-y border-slate-200 bg-slate-50/80 text-xs font-semibold tracking-wide text-slate-600 uppercase">
            <tr>
              <th scope="col" className="px-3 py-2">
                Date
              </th>
              {lines.map((l) => (
                <th key={l.key} scope="col" className="px-3 py-2 text-right">
                  {l.label}
                </th>
              ))}
              <th scope="col" className="px-3 py-2 text-right">
                Attended
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {changed.map((d) => (
              <tr key={d.date}>
                <th scope="row" className="px-3 py-2 font-medium whitespace-nowrap text-slate-900">
                  {formatDate(d.date)}
                </th>
                {lines.map((l) => (
                  <td key={l.key} className={cell}>
                    {formatHm(d[l.key])}
                  </td>
                ))}
                <td className={cell}>{formatHm(d.attendedMinutes)}</td>
              </tr>
            ))}
          </tbody>
          <tfoot className="border-t border-slate-300 font-semibold text-slate-900">
            <tr>
              <th scope="row" className="px-3 py-2">
                Total of these days
              </th>
              {lines.map((l) => (
                <td key={l.key} className={cell}>
                  {formatHm(total[l.key])}
                </td>
              ))}
              <td className={cell}>{formatHm(total.attendedMinutes)}</td>
            </tr>
          </tfoot>
        </table>
      </ScrollBox>
      <dl className="mt-3 space-y-1 text-xs text-slate-600">
        {lines.map((l) => (
          <div key={l.key}>
            <dt className="inline font-semibold text-slate-700">{l.label}:</dt> <dd className="inline">{l.description}</dd>
          </div>
        ))}
      </dl>
    </div>
  );
}
