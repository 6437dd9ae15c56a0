import { History } from 'lucide-react';
import { useState } from 'react';
import type { StudentRecord } from '../../../common/hours.ts';
import type { Student } from '../../../common/students.ts';
import { Alert } from '../../components/ui/alert.tsx';
import { Badge } from '../../components/ui/badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { SwitchField } from '../../components/ui/switch-field.tsx';
import { TextField } from '../../components/ui/text-field.tsx';
import { Toolbar } from '../../components/ui/toolbar.tsx';
import { ApiError } from '../../lib/api.ts';
import { formatDate, formatHm } from '../../lib/format.ts';
import { BreakPunchList } from '../../components/break-punches.tsx';
import { RecordHistoryDialog } from '../../components/record-history-dialog.tsx';
import { RecordStatusBadge, SOURCE_LABELS, usePunchFormat } from '../../components/record-format.tsx';
import { useStudentRecords } from './students-api.ts';

/** The History tab: the student's attendance records in a date range, each with its history (original entry and every correction). */
export function HistoryTab({ student }: { student: Student }) {
  // Empty dates: every record of the student (a program's worth is hundreds, not thousands).
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [correctedOnly, setCorrectedOnly] = useState(false);
  const [open, setOpen] = useState<StudentRecord | null>(null);
  const formatPunch = usePunchFormat();
  const reversed = Boolean(from && to && to < from);
  const records = useStudentRecords(student.id, { from: from || undefined, to: to || undefined }, !reversed);
  const rows = (records.data ?? [])
    .filter((r) => !correctedOnly || r.corrected)
    .sort((a, b) => b.sessionDate.localeCompare(a.sessionDate) || a.courseCode.localeCompare(b.courseCode));
  const correctedCount = (records.data ?? []).filter((r) => r.corrected).length;

  return (
    <Card className="overflow-hidden">
      <section aria-labelledby="records-heading">
        <div className="px-5 pt-5 sm:px-6">
          <h2 id="records-heading" className="text-lg font-semibold text-slate-900">
            Attendance records
          </h2>
          <p className="mt-1 text-sm text-slate-600">
            Every record keeps the entry as first captured; History shows it next to each correction, with who made it, when and why.
          </p>
        </div>
        <Toolbar className="mt-4 border-t sm:items-end">
          <div className="flex flex-col gap-3 sm:flex-row">
            <TextField
              label="From"
              name="recordsFrom"
              type="date"
              value={from}
              onChange={(e) => setFrom(e.target.value)}
              hint="Empty: the first record"
              className="sm:w-44"
            />
            <TextField
              label="To"
              name="recordsTo"
              type="date"
              value={to}
              onChange={(e) => setTo(e.target.value)}
              hint="Empty: the latest record"
              error={reversed ? 'The end date must not be before the start date' : undefined}
              className="sm:w-44"
            />
          </div>
          <SwitchField
            label="Corrected only"
            description={records.data ? `${correctedCount} of ${records.data.length} corrected` : undefined}
            checked={correctedOnly}
            onCheckedChange={setCorrectedOnly}
            className="py-0 sm:min-w-56"
          />
        </Toolbar>
        {records.isError ? <Alert className="mx-5 my-4 sm:mx-6">{recordsErrorText(records.error)}</Alert> : null}
        <div className="relative overflow-x-auto">
          <table className="min-w-full text-left text-sm" aria-busy={records.isFetching || undefined}>
            <caption className="sr-only">
              Attendance records of {student.firstName} {student.lastName}
            </caption>
            <thead className="border-b border-slate-200 bg-slate-50/80 text-xs font-semibold tracking-wide text-slate-600 uppercase">
              <tr>
                <th scope="col" className="px-3 py-2 pl-5 sm:pl-6">
                  Date
                </th>
                <th scope="col" className="px-3 py-2">
                  Course
                </th>
                <th scope="col" className="px-3 py-2">
                  Status
                </th>
                <th scope="col" className="px-3 py-2">
                  In
                </th>
                <th scope="col" className="px-3 py-2">
                  Out
                </th>
                <th scope="col" className="px-3 py-2">
                  Hours
                </th>
                <th scope="col" className="px-3 py-2">
                  Source
                </th>
                <th scope="col" className="px-3 py-2 pr-5 sm:pr-6">
                  <span className="sr-only">History</span>
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {rows.length === 0 ? (
                <tr>
                  <td colSpan={8} className="px-5 py-10 text-center text-sm text-slate-600">
                    {records.isLoading ? (
                      <span role="status" className="inline-flex items-center gap-2">
                        <Spinner className="size-4 text-blue-700" /> Loading…
                      </span>
                    ) : correctedOnly ? (
                      'No corrected records.'
                    ) : (
                      'No attendance records.'
                    )}
                  </td>
                </tr>
              ) : (
                rows.map((r) => (
                  <tr key={r.id}>
                    <th scope="row" className="px-3 py-2.5 pl-5 font-medium whitespace-nowrap text-slate-900 sm:pl-6">
                      {formatDate(r.sessionDate, 'medium')}
                    </th>
                    <td className="px-3 py-2.5">
                      <span className="font-mono text-xs whitespace-nowrap">{r.courseCode}</span>
                      <span className="block text-xs text-slate-600">{r.courseName}</span>
                    </td>
                    <td className="px-3 py-2.5">
                      <span className="flex flex-wrap gap-1">
                        <RecordStatusBadge status={r.status} />
                        {r.corrected ? <Badge tone="amber">Corrected</Badge> : null}
                      </span>
                    </td>
                    <td className="px-3 py-2.5 whitespace-nowrap tabular-nums">
                      {formatPunch(r.scanInTime)}
                      {r.breaks.length > 0 ? <BreakPunchList breaks={r.breaks} label={`Breaks on ${formatDate(r.sessionDate, 'medium')}`} /> : null}
                    </td>
                    <td className="px-3 py-2.5 whitespace-nowrap tabular-nums">{formatPunch(r.scanOutTime)}</td>
                    <td className="px-3 py-2.5 tabular-nums">{r.minutesAttended == null ? '—' : formatHm(r.minutesAttended)}</td>
                    <td className="px-3 py-2.5 whitespace-nowrap">{SOURCE_LABELS[r.source] ?? r.source}</td>
                    <td className="px-3 py-2.5 pr-5 text-right sm:pr-6">
                      <Button
                        variant="secondary"
                        size="sm"
                        icon={History}
                        onClick={() => setOpen(r)}
                        aria-label={`History of ${r.courseCode} on ${formatDate(r.sessionDate, 'medium')}`}
                      >
                        History
                      </Button>
                    </td>
                  </tr>
                ))
              )}
            </tbody>
          </table>
        </div>
      </section>
      <RecordHistoryDialog
        record={open ? { id: open.id, description: `${open.courseCode} ${open.courseName} · ${formatDate(open.sessionDate, 'medium')}` } : null}
        onClose={() => setOpen(null)}
      />
    </Card>
  );
}

function recordsErrorText(error: unknown): string {
  if (error instanceof ApiError && error.status === 403) return 'You can see the records of the students on your own class rosters only.';
  return 'The records could not be loaded. Reload the page to try again.';
}
