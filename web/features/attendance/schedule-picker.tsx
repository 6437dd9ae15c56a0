import { CalendarDays, Clock, DoorOpen, Play, Square, UserRound, Users } from 'lucide-react';
import type { ReactNode } from 'react';
import { cohortLabel, type Schedule } from '../../../common/schedules.ts';
import { Button } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { SelectField } from '../../components/ui/select-field.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { cn } from '../../lib/cn.ts';
import { formatClockRange } from '../../lib/format.ts';
import { dayName } from '../../lib/schedule-format.ts';

export const PICKER_NAME = 'scheduleId';

const optionLabel = (s: Schedule) =>
  `${s.courseName} (${s.courseCode}) — ${dayName(s.dayOfWeek).slice(0, 3)} ${s.startTime}–${s.endTime}${s.roomNumber ? ` · Room ${s.roomNumber}` : ''} · Cohort ${cohortLabel(s)}`;

/**
 * The schedule picker, the selected schedule's summary and the Start/End Session buttons.
 * Start is disabled while the chosen class has an open session. With no class chosen it only
 * looks disabled (aria-disabled): a click then says why (SPEC §5 'No Schedule Selected').
 */
export function SchedulePicker({
  schedules,
  loading,
  selected,
  onSelect,
  showInstructor,
  sessionOpen,
  starting,
  ending,
  onStart,
  onEnd,
}: {
  schedules: Schedule[];
  loading: boolean;
  selected: Schedule | null;
  onSelect: (id: number) => void;
  showInstructor: boolean;
  sessionOpen: boolean;
  starting: boolean;
  ending: boolean;
  onStart: () => void;
  onEnd: () => void;
}) {
  const today = new Date().getDay();
  const todays = schedules.filter((s) => s.dayOfWeek === today);
  const others = schedules.filter((s) => s.dayOfWeek !== today);
  const noneChosen = selected == null;

  return (
    <Card className="p-5 sm:p-6">
      <h2 className="text-base font-semibold text-slate-900">Class</h2>
      {loading ? (
        <div role="status" aria-label="Loading class schedules" className="flex justify-center py-8">
          <Spinner className="size-6 text-blue-700" />
        </div>
      ) : schedules.length === 0 ? (
        <p className="mt-3 text-sm text-slate-600">No class schedules are assigned to you yet. An administrator assigns classes on the Schedules screen.</p>
      ) : (
        <SelectField
          label="Class schedule"
          name={PICKER_NAME}
          className="mt-3"
          value={selected ? String(selected.id) : ''}
          onChange={(e) => onSelect(Number(e.target.value))}
        >
          <option value="" disabled>
            Choose a class…
          </option>
          {todays.length > 0 ? (
            <optgroup label="Today">
              {todays.map((s) => (
                <option key={s.id} value={s.id}>
                  {optionLabel(s)}
                </option>
              ))}
            </optgroup>
          ) : null}
          {others.length > 0 ? (
            <optgroup label={todays.length > 0 ? 'Other days' : 'All classes'}>
              {others.map((s) => (
                <option key={s.id} value={s.id}>
                  {optionLabel(s)}
                </option>
              ))}
            </optgroup>
          ) : null}
        </SelectField>
      )}

      {selected ? (
        <section aria-label="Selected schedule" className="mt-5 rounded-lg border border-slate-200 bg-slate-50 p-4">
          <p className="text-sm font-semibold text-slate-900">{selected.courseName}</p>
          <p className="text-xs text-slate-600">
            {selected.courseCode} · Cohort {cohortLabel(selected)} · Term {selected.termNumber}
          </p>
          <dl className="mt-3 grid gap-2 text-sm text-slate-700">
            <Fact icon={<DoorOpen className="size-4" />} label="Room" value={selected.roomNumber ?? 'Not set'} />
            <Fact icon={<CalendarDays className="size-4" />} label="Day" value={dayName(selected.dayOfWeek)} />
            <Fact icon={<Clock className="size-4" />} label="Time" value={formatClockRange(selected.startTime, selected.endTime)} />
            <Fact icon={<Users className="size-4" />} label="Roster" value={`${selected.rosterCount} ${selected.rosterCount === 1 ? 'student' : 'students'}`} />
            {showInstructor ? <Fact icon={<UserRound className="size-4" />} label="Instructor" value={selected.instructorName ?? 'Unassigned'} /> : null}
          </dl>
          {selected.dayOfWeek !== today ? (
            <p className="mt-3 text-xs text-amber-800">
              This class meets on {dayName(selected.dayOfWeek)}s. A session started now records attendance for today.
            </p>
          ) : null}
        </section>
      ) : null}

      <div className="mt-5 grid grid-cols-2 gap-2">
        <Button
          onClick={onStart}
          disabled={sessionOpen || starting}
          aria-disabled={noneChosen || undefined}
          className={cn('px-3 whitespace-nowrap', noneChosen && 'cursor-not-allowed bg-blue-700/60 hover:bg-blue-700/60')}
        >
          {starting ? <Spinner className="size-4" /> : <Play aria-hidden="true" className="size-4" />}
          Start Session
        </Button>
        <Button variant="secondary" onClick={onEnd} disabled={!sessionOpen || ending} className="px-3 whitespace-nowrap disabled:opacity-50">
          {ending ? <Spinner className="size-4" /> : <Square aria-hidden="true" className="size-4" />}
          End Session
        </Button>
      </div>
    </Card>
  );
}

function Fact({ icon, label, value }: { icon: ReactNode; label: string; value: string }) {
  return (
    <div className="flex items-center gap-2">
      <span aria-hidden="true" className="text-slate-500">
        {icon}
      </span>
      <dt className="w-20 shrink-0 text-slate-600">{label}</dt>
      <dd className="font-medium text-slate-900">{value}</dd>
    </div>
  );
}
