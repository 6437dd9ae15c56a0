import { ChevronLeft, ChevronRight } from 'lucide-react';
import type { Closure } from '../../../common/calendar.ts';
import { Button } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { cn } from '../../lib/cn.ts';
import { localDate } from '../../lib/download.ts';
import { dateRange, monthLabel, monthOf, monthWeeks, shiftMonth, type Month } from './calendar-dates.ts';

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/**
 * One month as a real table (a caption, a column header per weekday), closed days marked with the
 * closures' names; the buttons move a month back or forward and the new month is announced. The
 * seven columns share the card's width, whatever it is (the grid was once 722 px wide on a
 * 390 px phone): on a phone a closed day shows a mark (its name stays for screen readers) and the
 * month's closures are listed under the grid.
 */
export function MonthView({ month, onMonthChange, closures }: { month: Month; onMonthChange: (m: Month) => void; closures: Closure[] }) {
  const today = localDate();
  const label = monthLabel(month);
  const closing = (date: string) => closures.filter((c) => c.startDate <= date && date <= c.endDate);
  return (
    <Card className="p-4 sm:p-6">
      <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
        <h2 className="text-lg font-semibold text-slate-900" aria-live="polite">
          {label}
        </h2>
        <div className="flex flex-wrap gap-2">
          <Button variant="secondary" size="sm" icon={ChevronLeft} onClick={() => onMonthChange(shiftMonth(month, -1))}>
            Previous month
          </Button>
          <Button variant="secondary" size="sm" onClick={() => onMonthChange(monthOf(today))} disabled={monthOf(today) === month}>
            This month
          </Button>
          <Button variant="secondary" size="sm" onClick={() => onMonthChange(shiftMonth(month, 1))}>
            Next month
            <ChevronRight aria-hidden="true" className="size-4" />
          </Button>
        </div>
      </div>
      <div>
        <table className="w-full table-fixed border-collapse text-sm">
          <caption className="sr-only">Closures in {label}</caption>
          <thead>
            <tr>
              {WEEKDAYS.map((day) => (
                <th key={day} scope="col" className="pb-2 text-xs font-semibold tracking-wide text-slate-600 uppercase">
                  <span aria-hidden="true">{day.slice(0, 3)}</span>
                  <span className="sr-only">{day}</span>
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {monthWeeks(month).map((week) => (
              <tr key={week.find(Boolean)}>
                {week.map((date, i) => {
                  if (!date) return <td key={`pad-${i}`} className="h-14 border border-slate-100 bg-slate-50/60 sm:h-24" />;
                  const closed = closing(date);
                  return (
                    <td
                      key={date}
                      aria-current={date === today ? 'date' : undefined}
                      className={cn('h-14 border border-slate-200 p-0.5 align-top sm:h-24 sm:p-1.5', closed.length ? 'bg-amber-50' : 'bg-white')}
                    >
                      <time
                        dateTime={date}
                        className={cn(
                          'inline-flex size-6 items-center justify-center rounded-full text-xs font-semibold',
                          date === today ? 'bg-blue-700 text-white' : 'text-slate-700',
                        )}
                      >
                        {Number(date.slice(8))}
                      </time>
                      {closed.length ? (
                        <ul className="mt-1 space-y-0.5">
                          {closed.map((c) => (
                            <li
                              key={c.id}
                              className="rounded bg-amber-100 px-1 py-0.5 text-xs leading-tight [overflow-wrap:anywhere] text-amber-950 max-sm:h-1.5 max-sm:bg-amber-500 max-sm:p-0"
                            >
                              <span className="sr-only">Closed: </span>
                              <span className="max-sm:sr-only">
                                {c.name}
                                {c.programName ? <span className="block text-[0.7rem] text-amber-900">{c.programName} only</span> : null}
                              </span>
                            </li>
                          ))}
                        </ul>
                      ) : null}
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <MonthClosures month={month} closures={closures} />
    </Card>
  );
}

/** On a phone, where the grid only marks closed days: this month's closures by name, under it. */
function MonthClosures({ month, closures }: { month: Month; closures: Closure[] }) {
  const first = `${month}-01`;
  const last = `${month}-31`;
  const inMonth = closures.filter((c) => c.startDate <= last && c.endDate >= first);
  if (inMonth.length === 0) return null;
  return (
    <ul aria-label={`Closed in ${monthLabel(month)}`} className="mt-3 space-y-1 text-sm sm:hidden">
      {inMonth.map((c) => (
        <li key={c.id} className="flex gap-2">
          <span aria-hidden="true" className="mt-1.5 size-2 shrink-0 rounded-full bg-amber-500" />
          <span>
            <span className="font-medium text-slate-900">{dateRange(c.startDate, c.endDate)}</span> · {c.name}
            {c.programName ? ` (${c.programName} only)` : ''}
          </span>
        </li>
      ))}
    </ul>
  );
}
