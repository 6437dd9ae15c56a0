import { CalendarClock, DoorOpen, Play, Radio, Users } from 'lucide-react';
import { Link, useNavigate } from 'react-router';
import { cohortLabel, type TodayClass } from '../../common/schedules.ts';
import { formatClockRange, formatDate } from '../lib/format.ts';
import { sessionPath, startSessionPath, useTodaysClasses } from '../lib/todays-classes.ts';
import { useNowAfter } from '../lib/server-clock.ts';
import { Alert } from './ui/alert.tsx';
import { Badge } from './ui/badge.tsx';
import { Button, buttonClasses } from './ui/button.tsx';
import { Card } from './ui/card.tsx';
import { Spinner } from './ui/spinner.tsx';

/**
 * "Today's classes": where an instructor starts the day (their dashboard, the top of Take
 * Attendance). Each meeting of today with its time, room and roster, and one click to start its
 * QR session or go back to the one running. Administrators see every class of the day.
 */
export function TodaysClassesCard({ showInstructor = false }: { showInstructor?: boolean }) {
  const today = useTodaysClasses();
  const classes = today.data?.classes ?? [];
  // Redraw when an open session's time runs out, so it stops saying "Session open".
  const now = useNowAfter(classes.flatMap((c) => (c.openSession ? [c.openSession.expiresAt] : [])));

  return (
    <Card className="mb-6 overflow-hidden" data-testid="todays-classes">
      <section aria-labelledby="todays-classes-title">
        <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1 border-b border-slate-200 px-5 py-4 sm:px-6">
          <h2 id="todays-classes-title" className="text-base font-semibold text-slate-900">
            Today’s classes
          </h2>
          {today.data ? <p className="text-sm text-slate-600">{formatDate(today.data.date, 'long')}</p> : null}
        </div>
        {today.isPending ? (
          <div role="status" aria-label="Loading today’s classes" className="flex justify-center py-6">
            <Spinner className="size-5 text-blue-700" />
          </div>
        ) : today.isError ? (
          <div className="p-5 sm:p-6">
            <Alert>Today’s classes could not be loaded. Reload the page to try again.</Alert>
          </div>
        ) : classes.length === 0 ? (
          <p className="flex items-center gap-2 px-5 py-5 text-sm text-slate-600 sm:px-6">
            <CalendarClock aria-hidden="true" className="size-4 text-slate-400" />
            No classes meet today.
          </p>
        ) : (
          <ul className="divide-y divide-slate-100">
            {classes.map((c) => (
              <TodayClassItem key={c.id} cls={c} open={c.openSession != null && Date.parse(c.openSession.expiresAt) > now} showInstructor={showInstructor} />
            ))}
          </ul>
        )}
      </section>
    </Card>
  );
}

function TodayClassItem({ cls, open, showInstructor }: { cls: TodayClass; open: boolean; showInstructor: boolean }) {
  const navigate = useNavigate();
  const name = `${cls.courseName} (${cls.courseCode})`;
  return (
    <li className="flex flex-col gap-3 px-5 py-4 sm:flex-row sm:items-center sm:justify-between sm:px-6" data-schedule-id={cls.id}>
      <div className="min-w-0">
        <p className="flex flex-wrap items-center gap-2">
          <span className="font-semibold text-slate-900">{cls.courseName}</span>
          <span className="text-xs text-slate-600">
            {cls.courseCode} · Cohort {cohortLabel(cls)}
          </span>
          {open ? (
            <Badge tone="green">
              <Radio aria-hidden="true" className="mr-1 size-3" />
              Session open
            </Badge>
          ) : cls.sessionsToday > 0 ? (
            <Badge tone="slate">Session ended</Badge>
          ) : null}
        </p>
        <p className="mt-1 flex flex-wrap gap-x-4 gap-y-1 text-sm text-slate-700">
          <span className="inline-flex items-center gap-1.5">
            <CalendarClock aria-hidden="true" className="size-4 text-slate-500" />
            {formatClockRange(cls.startTime, cls.endTime)}
          </span>
          {cls.roomNumber ? (
            <span className="inline-flex items-center gap-1.5">
              <DoorOpen aria-hidden="true" className="size-4 text-slate-500" />
              Room {cls.roomNumber}
            </span>
          ) : null}
          <span className="inline-flex items-center gap-1.5">
            <Users aria-hidden="true" className="size-4 text-slate-500" />
            {cls.rosterCount} {cls.rosterCount === 1 ? 'student' : 'students'}
          </span>
          {showInstructor ? <span>{cls.instructorName ?? 'No instructor'}</span> : null}
        </p>
      </div>
      {open ? (
        <Link to={sessionPath(cls.id)} className={buttonClasses('secondary', 'md', 'w-full shrink-0 sm:w-auto')} aria-label={`Go to the session of ${name}`}>
          Go to session
        </Link>
      ) : (
        <Button
          icon={Play}
          className="w-full shrink-0 sm:w-auto"
          onClick={() => void navigate(startSessionPath(cls.id))}
          aria-label={`Start Session for ${name}`}
        >
          Start Session
        </Button>
      )}
    </li>
  );
}
