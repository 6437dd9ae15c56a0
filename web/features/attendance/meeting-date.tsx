import { CalendarDays } from 'lucide-react';
import type { Schedule } from '../../../common/schedules.ts';
import { Alert } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { TextField } from '../../components/ui/text-field.tsx';
import { formatDate } from '../../lib/format.ts';
import { dayName } from '../../lib/schedule-format.ts';

/**
 * Why the class has no meeting on a date, from what the screen knows (its weekday and course
 * dates); holidays and closures are the server's to say when a change is refused.
 */
function offDayNote(schedule: Pick<Schedule, 'courseName' | 'dayOfWeek' | 'courseStartDate' | 'courseEndDate'>, date: string): string | null {
  if (date < schedule.courseStartDate || date > schedule.courseEndDate) {
    return `${schedule.courseName} runs from ${formatDate(schedule.courseStartDate, 'medium')} to ${formatDate(schedule.courseEndDate, 'medium')}.`;
  }
  const weekday = new Date(`${date}T00:00:00Z`).getUTCDay();
  return weekday === schedule.dayOfWeek
    ? null
    : `${schedule.courseName} meets on ${dayName(schedule.dayOfWeek)}s; ${formatDate(date, 'long')} is a ${dayName(weekday)}.`;
}

/**
 * The roster's meeting date: today by default, or a past meeting to review and correct (kept in
 * the URL by the page). Future dates are not offered: nothing can be recorded for them.
 */
export function MeetingDateBar({
  schedule,
  date,
  today,
  onPickDate,
}: {
  schedule: Schedule;
  date: string;
  today: string | null;
  onPickDate: (date: string | null) => void;
}) {
  const past = today != null && date < today;
  const note = date ? offDayNote(schedule, date) : null;
  return (
    <div className="space-y-3 border-b border-slate-200 px-5 py-4 sm:px-6">
      <div className="flex flex-wrap items-end gap-3">
        <TextField
          label="Meeting date"
          name="meetingDate"
          type="date"
          className="w-48"
          value={date}
          min={schedule.courseStartDate}
          max={today ?? undefined}
          onChange={(e) => onPickDate(e.target.value && e.target.value !== today ? e.target.value : null)}
        />
        {past ? (
          <Button variant="secondary" icon={CalendarDays} onClick={() => onPickDate(null)}>
            Back to today
          </Button>
        ) : null}
      </div>
      {past ? (
        <Alert variant="info">
          Reviewing the meeting of {formatDate(date, 'long')}. Each correction needs a reason and is kept in the record’s history; records older than your
          program allows can be changed only by a super admin.
        </Alert>
      ) : null}
      {note ? <Alert variant="info">{note} No attendance can be recorded for this date.</Alert> : null}
    </div>
  );
}
