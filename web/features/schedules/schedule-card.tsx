import { CalendarRange, Clock, Coffee, DoorOpen, Hash, Pencil, User, Users } from 'lucide-react';
import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { cohortLabel, type Schedule } from '../../../common/schedules.ts';
import { Badge } from '../../components/ui/badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { formatClock, formatClockRange, formatDate } from '../../lib/format.ts';
import { dayName, scheduleLabel } from '../../lib/schedule-format.ts';

function Detail({ icon: Icon, term, children }: { icon: LucideIcon; term: string; children: ReactNode }) {
  return (
    <div className="flex items-start gap-2.5">
      <dt className="pt-0.5">
        <Icon aria-hidden="true" className="size-4 text-slate-500" />
        <span className="sr-only">{term}</span>
      </dt>
      <dd className="min-w-0 text-slate-700">{children}</dd>
    </div>
  );
}

/** One class meeting pattern: course, cohort and term, when and where, who teaches, how many students. */
export function ScheduleCard({ schedule: s, onEdit, onRoster }: { schedule: Schedule; onEdit: () => void; onRoster: () => void }) {
  const label = scheduleLabel(s);
  return (
    <Card className="flex h-full flex-col p-5 transition-shadow hover:shadow-md">
      <div className="flex items-start justify-between gap-3">
        <div className="min-w-0">
          <p className="font-mono text-xs font-semibold tracking-wide text-blue-800">{s.courseCode}</p>
          <h2 className="mt-0.5 text-base leading-snug font-semibold text-slate-900">{s.courseName}</h2>
          <p className="mt-1 text-sm text-slate-600">
            Cohort {cohortLabel(s)} · Term {s.termNumber}
          </p>
        </div>
        <Badge tone={s.isActive ? 'green' : 'slate'}>{s.isActive ? 'Active' : 'Inactive'}</Badge>
      </div>
      <dl className="mt-4 space-y-2 text-sm">
        <Detail icon={Clock} term="Meets">
          {dayName(s.dayOfWeek)}, {formatClock(s.startTime)} – {formatClock(s.endTime)}
        </Detail>
        {s.breaks.length > 0 ? (
          <Detail icon={Coffee} term="Breaks">
            {s.breaks.length === 1 ? 'Break' : 'Breaks'} {s.breaks.map((b) => formatClockRange(b.start, b.end)).join(', ')}
          </Detail>
        ) : null}
        <Detail icon={DoorOpen} term="Room">
          {s.roomNumber ? `Room ${s.roomNumber}` : <span className="text-slate-500">No room set</span>}
        </Detail>
        <Detail icon={User} term="Instructor">
          {s.instructorName ?? <span className="text-slate-500">No instructor assigned</span>}
        </Detail>
        <Detail icon={CalendarRange} term="Course dates">
          {formatDate(s.courseStartDate, 'medium')} – {formatDate(s.courseEndDate, 'medium')}
        </Detail>
        {s.sisScheduleId ? (
          <Detail icon={Hash} term="SIS schedule ID">
            <span className="font-mono text-xs">{s.sisScheduleId}</span>
          </Detail>
        ) : null}
      </dl>
      <div className="mt-auto flex items-center justify-between gap-3 border-t border-slate-100 pt-4">
        <span className="inline-flex items-center gap-1.5 text-sm text-slate-700">
          <Users aria-hidden="true" className="size-4 text-slate-500" />
          {s.rosterCount} {s.rosterCount === 1 ? 'student' : 'students'}
        </span>
        <div className="flex gap-2">
          <Button variant="secondary" size="sm" onClick={onRoster} icon={Users}>
            Roster<span className="sr-only"> of {label}</span>
          </Button>
          <Button variant="ghost" size="sm" onClick={onEdit} icon={Pencil}>
            Edit<span className="sr-only"> {label}</span>
          </Button>
        </div>
      </div>
    </Card>
  );
}
