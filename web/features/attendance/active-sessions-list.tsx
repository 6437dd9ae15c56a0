import { Radio } from 'lucide-react';
import type { QrSession } from '../../../common/attendance.ts';
import { Button } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { cn } from '../../lib/cn.ts';
import { shortId } from './format.ts';
import { useSessionCountdown } from './use-session-countdown.ts';

/** SPEC §2: the list of active sessions (an instructor's own; administrators see the school's). */
export function ActiveSessionsList({
  sessions,
  selectedScheduleId,
  showInstructor,
  onShow,
  onEnd,
  endingId,
}: {
  sessions: QrSession[];
  selectedScheduleId: number | null;
  showInstructor: boolean;
  onShow: (session: QrSession) => void;
  onEnd: (session: QrSession) => void;
  endingId: string | null;
}) {
  return (
    <Card className="p-5 sm:p-6">
      <div className="flex items-center justify-between gap-2">
        <h2 className="text-base font-semibold text-slate-900">Active Sessions</h2>
        <span className="rounded-full bg-slate-100 px-2 py-0.5 text-xs font-semibold text-slate-700">{sessions.length}</span>
      </div>
      {sessions.length === 0 ? (
        <p className="mt-3 flex items-center gap-2 text-sm text-slate-600">
          <Radio aria-hidden="true" className="size-4 text-slate-400" />
          No sessions are running.
        </p>
      ) : (
        <ul className="mt-3 divide-y divide-slate-100" aria-label="Active sessions">
          {sessions.map((s) => (
            <ActiveSessionItem
              key={s.sessionId}
              session={s}
              current={s.scheduleId === selectedScheduleId}
              showInstructor={showInstructor}
              onShow={() => onShow(s)}
              onEnd={() => onEnd(s)}
              ending={endingId === s.sessionId}
            />
          ))}
        </ul>
      )}
    </Card>
  );
}

function ActiveSessionItem({
  session,
  current,
  showInstructor,
  onShow,
  onEnd,
  ending,
}: {
  session: QrSession;
  current: boolean;
  showInstructor: boolean;
  onShow: () => void;
  onEnd: () => void;
  ending: boolean;
}) {
  const countdown = useSessionCountdown(session);
  return (
    <li className="py-3 first:pt-1 last:pb-0">
      <div className="flex items-start justify-between gap-3">
        <div className="min-w-0">
          <p className="truncate text-sm font-semibold text-slate-900">{session.courseName}</p>
          <p className="text-xs text-slate-600">
            {session.courseCode}
            {session.roomNumber ? ` · Room ${session.roomNumber}` : ''}
            {showInstructor && session.instructorName ? ` · ${session.instructorName}` : ''}
          </p>
          <p className="mt-0.5 text-xs text-slate-500">
            Session <span className="font-mono">{shortId(session.sessionId)}</span>
          </p>
        </div>
        <div className="shrink-0 text-right">
          <p className={cn('font-mono text-sm font-semibold tabular-nums', countdown.expiring ? 'text-amber-700' : 'text-slate-900')}>
            {countdown.expired ? 'Expired' : countdown.text}
          </p>
          <p className="text-xs text-slate-600">{countdown.label}</p>
        </div>
      </div>
      <div className="mt-2 flex gap-2">
        {current ? (
          <span className="inline-flex h-8 items-center px-1 text-xs font-medium text-blue-700">Showing</span>
        ) : (
          <Button size="sm" variant="secondary" onClick={onShow} aria-label={`Show session for ${session.courseName}`}>
            Show
          </Button>
        )}
        <Button
          size="sm"
          variant="ghost"
          className="text-red-700! hover:bg-red-50!"
          onClick={onEnd}
          disabled={ending}
          aria-label={`End session for ${session.courseName}`}
        >
          End
        </Button>
      </div>
    </li>
  );
}
