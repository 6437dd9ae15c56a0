import { FileDown } from 'lucide-react';
import { useState } from 'react';
import type { Student } from '../../../common/students.ts';
import { Button } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { TextField } from '../../components/ui/text-field.tsx';
import { notifyFailure, notifySuccess } from '../../components/ui/notify.ts';
import { downloadFile } from '../../lib/download.ts';
import { monthLabel, monthRange } from './ledger-view.ts';

/**
 * "Download time card (PDF)": the days of a date range with in/out times, minutes, status, make-up
 * and totals, made by the server. The range starts as the month shown in the calendar (up to the
 * as-of date); it can be changed for any other.
 */
export function TimeCard({ student, month, asOf }: { student: Student; month: string; asOf: string }) {
  const range = monthRange(month);
  const [from, setFrom] = useState(range.from);
  const [to, setTo] = useState(range.to < asOf ? range.to : asOf);
  const [busy, setBusy] = useState(false);
  const reversed = Boolean(from && to && to < from);
  const missing = !from || !to;

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
          A printable PDF of each day with in and out times, minutes, status, make-up, corrections and totals. It starts as {monthLabel(month)}.
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
      </section>
    </Card>
  );
}
