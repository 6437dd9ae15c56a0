import { ChevronLeft, ChevronRight } from 'lucide-react';
import type { LedgerDay } from '../../../common/hours.ts';
import type { Student } from '../../../common/students.ts';
import { Alert } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { cn } from '../../lib/cn.ts';
import { formatDate, formatHm } from '../../lib/format.ts';
import { DAY_KINDS, dayKind, monthLabel, monthOf, monthRange, monthWeeks, shiftMonth, type DayKind } from './ledger-view.ts';
import { useStudentHours } from './students-api.ts';

const KIND_CLASSES: Record<DayKind, string> = {
  outside: 'bg-slate-50 text-slate-600',
  closed: 'bg-slate-100 text-slate-700 ring-1 ring-inset ring-slate-300',
  leave: 'bg-teal-50 text-teal-900 ring-1 ring-inset ring-teal-200',
  'no-class': 'bg-white text-slate-700',
  present: 'bg-emerald-50 text-emerald-900 ring-1 ring-inset ring-emerald-200',
  partial: 'bg-amber-50 text-amber-950 ring-1 ring-inset ring-amber-300',
  excused: 'bg-blue-50 text-blue-900 ring-1 ring-inset ring-blue-200',
  absent: 'bg-red-50 text-red-900 ring-1 ring-inset ring-red-200',
  'make-up': 'bg-violet-50 text-violet-900 ring-1 ring-inset ring-violet-200',
  'in-progress': 'bg-white text-slate-800 border border-dashed border-slate-400',
  unrecorded: 'bg-slate-50 text-slate-800 border border-dashed border-amber-500',
};

const WEEKDAYS = [
  ['Sun', 'Sunday'],
  ['Mon', 'Monday'],
  ['Tue', 'Tuesday'],
  ['Wed', 'Wednesday'],
  ['Thu', 'Thursday'],
  ['Fri', 'Friday'],
  ['Sat', 'Saturday'],
] as const;

type Props = { student: Student; asOf: string; enrollmentDate: string | null; month: string; onMonthChange: (month: string) => void };

/**
 * A month of the ledger as a table (a week a row), each day coloured by how it was attended and
 * also saying so in words and letters: the colour is never the only signal. Days after the as-of
 * date are not part of the ledger, so the month is asked for up to it.
 */
export function AttendanceCalendar({ student, asOf, enrollmentDate, month, onMonthChange }: Props) {
  const range = monthRange(month);
  const to = range.to < asOf ? range.to : asOf;
  const hours = useStudentHours(student.id, { asOf, from: range.from, to }, range.from <= asOf);
  const byDate = new Map<string, LedgerDay>((hours.data?.days ?? []).map((d) => [d.date, d]));
  const label = monthLabel(month);
  const canGoBack = !enrollmentDate || month > monthOf(enrollmentDate);
  const canGoOn = month < monthOf(asOf);

  let scheduled = 0;
  let attended = 0;
  for (const d of byDate.values()) {
    if (d.date < range.from || d.date > to) continue;
    scheduled += d.scheduledMinutes;
    attended += d.attendedMinutes + d.makeUpMinutes;
  }

  return (
    <Card className="p-4 sm:p-6">
      <section aria-labelledby="calendar-heading">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <h2 id="calendar-heading" className="text-lg font-semibold text-slate-900">
            Attendance calendar
          </h2>
          <div className="flex items-center gap-1">
            <Button variant="secondary" size="sm" aria-label="Previous month" disabled={!canGoBack} onClick={() => onMonthChange(shiftMonth(month, -1))}>
              <ChevronLeft aria-hidden="true" className="size-4" />
            </Button>
            <p aria-live="polite" className="min-w-36 text-center text-sm font-semibold text-slate-900">
              {label}
            </p>
            <Button variant="secondary" size="sm" aria-label="Next month" disabled={!canGoOn} onClick={() => onMonthChange(shiftMonth(month, 1))}>
              <ChevronRight aria-hidden="true" className="size-4" />
            </Button>
          </div>
        </div>
        <p className="mt-1 text-sm text-slate-600">
          {hours.data && !hours.isPlaceholderData ? (
            <>
              {label}: <strong className="tabular-nums">{formatHm(scheduled)}</strong> h scheduled,{' '}
              <strong className="tabular-nums">{formatHm(attended)}</strong> h attended (make-up included).
            </>
          ) : (
            'Scheduled and attended hours of each day.'
          )}
        </p>

        {hours.isError ? <Alert className="mt-4">This month could not be loaded. Reload the page to try again.</Alert> : null}
        <div className="relative mt-4">
          {hours.isFetching ? (
            <span role="status" className="absolute top-1 right-1 inline-flex items-center gap-1 text-xs text-slate-600">
              <Spinner className="size-3.5 text-blue-700" /> Loading…
            </span>
          ) : null}
          <table className="w-full table-fixed border-separate border-spacing-0.5 text-[10px] sm:border-spacing-1 sm:text-xs">
            <caption className="sr-only">Attendance in {label}: each day&apos;s scheduled and attended hours</caption>
            <thead>
              <tr>
                {WEEKDAYS.map(([short, long]) => (
                  <th key={short} scope="col" className="pb-1 text-center text-xs font-semibold text-slate-600">
                    <abbr title={long} className="no-underline">
                      {short}
                    </abbr>
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {monthWeeks(month).map((week) => (
                <tr key={week.find(Boolean) ?? ''}>
                  {week.map((date, i) => (date ? <DayCell key={date} date={date} day={byDate.get(date)} /> : <td key={`pad-${i}`} />))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <Legend />
      </section>
    </Card>
  );
}

function DayCell({ date, day }: { date: string; day: LedgerDay | undefined }) {
  const kind = dayKind(day);
  const { label, code } = DAY_KINDS[kind];
  const lines: [string, string, number][] = [];
  if (day) {
    // Scheduled and attended on class days; otherwise only what was done (make-up on a free day).
    if (day.scheduledMinutes > 0) lines.push(['S', 'scheduled', day.scheduledMinutes]);
    if (day.scheduledMinutes > 0 || day.attendedMinutes > 0) lines.push(['A', 'attended', day.attendedMinutes]);
    if (day.makeUpMinutes > 0) lines.push(['M', 'make-up', day.makeUpMinutes]);
    if (day.excusedMinutes > 0) lines.push(['E', 'excused', day.excusedMinutes]);
  }
  const spoken = `${formatDate(date, 'long')}: ${label}${lines.map(([, word, m]) => `, ${formatHm(m)} ${word}`).join('')}`;
  return (
    <td className={cn('h-16 rounded-md p-1 align-top sm:h-20 sm:p-1.5', KIND_CLASSES[kind])} data-kind={kind}>
      <span className="sr-only">{spoken}</span>
      <span aria-hidden="true" className="flex h-full flex-col leading-tight">
        <span className="flex items-baseline justify-between gap-0.5">
          <span className="font-semibold">{Number(date.slice(8))}</span>
          {code ? <span className="font-bold">{code}</span> : null}
        </span>
        {lines.map(([letter, , m]) => (
          <span key={letter} className="tabular-nums whitespace-nowrap">
            {letter} {formatHm(m)}
          </span>
        ))}
      </span>
    </td>
  );
}

function Legend() {
  const kinds: DayKind[] = ['present', 'partial', 'excused', 'absent', 'make-up', 'leave', 'closed', 'no-class'];
  return (
    <div className="mt-4 text-xs text-slate-700">
      <h3 className="sr-only">Legend</h3>
      <ul className="flex flex-wrap gap-x-4 gap-y-1.5">
        {kinds.map((k) => (
          <li key={k} className="inline-flex items-center gap-1.5">
            <span
              aria-hidden="true"
              className={cn(
                'inline-flex size-5 items-center justify-center rounded text-[10px] font-bold',
                KIND_CLASSES[k],
                k === 'no-class' && 'ring-1 ring-slate-300 ring-inset',
              )}
            >
              {DAY_KINDS[k].code}
            </span>
            {DAY_KINDS[k].label}
          </li>
        ))}
      </ul>
      <p className="mt-2">
        In each day: S scheduled, A attended, M make-up and E excused time (hours:minutes). Days before enrolment or after the as-of date are left plain.
      </p>
    </div>
  );
}
