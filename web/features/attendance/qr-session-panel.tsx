import { useQueryClient } from '@tanstack/react-query';
import { Coffee, Copy, Download, MonitorPlay, QrCode, TimerOff, UserCheck } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import type { QrSession } from '../../../common/attendance.ts';
import { RECHECK_DEFAULT_MINUTES, type MeetingBreak } from '../../../common/qr-sessions.ts';
import { Button, buttonClasses } from '../../components/ui/button.tsx';
import { Alert } from '../../components/ui/alert.tsx';
import { Card } from '../../components/ui/card.tsx';
import { ConfirmDialog } from '../../components/ui/confirm-dialog.tsx';
import { EmptyState } from '../../components/ui/empty-state.tsx';
import { notifyFailure, notifySuccess } from '../../components/ui/notify.ts';
import { Spinner } from '../../components/ui/spinner.tsx';
import { cn } from '../../lib/cn.ts';
import { ACTIVE_SESSIONS_KEY, isGone, useQrImage } from './attendance-api.ts';
import { copyText } from './copy-text.ts';
import { formatClockRange, formatCountdown, formatLocalTime } from '../../lib/format.ts';
import { useServerNow } from '../../lib/server-clock.ts';
import { shortId } from './format.ts';
import { useSessionCountdown } from './use-session-countdown.ts';
import { PanelClosingWarning } from './session-closing.tsx';
import { useEndBreak, useSession, useStartBreak } from './session-api.ts';

/** '482913' → '482 913': easier to read off a screen at the back of the room. */
export const spacedCode = (code: string): string => (code.length === 6 ? `${code.slice(0, 3)} ${code.slice(3)}` : code);

/** Where a student types the code: this server's /attendance/scan, written without the scheme. */
export function codeEntryAddress(attendanceUrl: string | undefined): string {
  const origin = attendanceUrl ? new URL(attendanceUrl) : window.location;
  return `${origin.host}/attendance/scan`;
}

/** SPEC §2 live QR session panel, or its empty state 'No Active QR Session'. */
export function QrSessionPanel({ session, hasSchedule }: { session: QrSession | null; hasSchedule: boolean }) {
  if (!session) {
    return (
      <EmptyState icon={QrCode} title="No Active QR Session">
        {hasSchedule
          ? 'Start a session to show a QR code your students scan to check in. It changes every 15 seconds, so a photo sent to a friend stops working.'
          : 'Choose one of your class schedules, then start a session to show the QR code students scan to check in.'}
      </EmptyState>
    );
  }
  return <LiveSession key={session.sessionId} session={session} />;
}

function LiveSession({ session }: { session: QrSession }) {
  const queryClient = useQueryClient();
  const countdown = useSessionCountdown(session);
  const image = useQrImage(countdown.expired ? null : session.sessionId);
  const urlRef = useRef<HTMLInputElement>(null);
  const gone = image.isError && isGone(image.error);

  // The server says the session is over while our countdown still runs: it was ended elsewhere
  // (another tab, another administrator). Refresh the list so the screen shows the truth.
  useEffect(() => {
    if (gone && !countdown.expired) void queryClient.invalidateQueries({ queryKey: ACTIVE_SESSIONS_KEY });
  }, [gone, countdown.expired, queryClient]);

  const over = countdown.expired || gone;
  const data = over ? undefined : image.data;

  const copyUrl = async () => {
    if (!data) return;
    if (await copyText(data.attendanceUrl)) {
      notifySuccess('URL Copied', 'Students who open it are asked for the code on the screen.');
    } else {
      urlRef.current?.select();
      notifyFailure(null, 'Your browser refused the clipboard. Select the link and copy it yourself.', 'Copy Failed');
    }
  };

  return (
    <Card className="overflow-hidden">
      <div className="flex flex-wrap items-start justify-between gap-4 border-b border-slate-200 px-5 py-4 sm:px-6">
        <div className="min-w-0">
          <p className="text-xs font-semibold tracking-wide text-blue-700 uppercase">Live QR session</p>
          <h2 className="mt-0.5 text-lg font-semibold text-slate-900">{session.courseName}</h2>
          <p className="text-sm text-slate-600">
            {session.courseCode} · {session.roomNumber ? `Room ${session.roomNumber} · ` : ''}
            {formatClockRange(session.startTime, session.endTime)}
          </p>
        </div>
        <div className="flex items-center gap-3">
          <StatusLabel expired={over} />
          <div className="text-right">
            <p className="text-xs font-medium text-slate-600" id={`left-${session.sessionId}`}>
              Time left
            </p>
            <p
              role="timer"
              aria-labelledby={`left-${session.sessionId}`}
              className={cn('font-mono text-2xl font-bold tabular-nums', over ? 'text-slate-400' : countdown.expiring ? 'text-amber-700' : 'text-slate-900')}
            >
              {countdown.text}
            </p>
          </div>
        </div>
      </div>

      <div className="grid items-start gap-6 px-5 py-5 sm:px-6 md:grid-cols-[auto_1fr]">
        <div className="flex justify-center">
          <div className="rounded-xl border border-slate-200 bg-white p-2.5">
            {data ? (
              <img src={data.qrCode} width={192} height={192} className="block size-48" alt={`QR code to check in to ${session.courseName}`} />
            ) : over ? (
              <div className="flex size-48 flex-col items-center justify-center gap-2 text-center text-sm text-slate-600">
                <TimerOff aria-hidden="true" className="size-8 text-slate-400" />
                {countdown.expired ? 'This session has expired' : 'This session has ended'}
              </div>
            ) : (
              <div role="status" aria-label="Loading QR code" className="flex size-48 items-center justify-center rounded-lg bg-slate-50">
                <Spinner className="size-7 text-blue-700" />
              </div>
            )}
          </div>
        </div>

        <div className="min-w-0 space-y-5">
          {countdown.expiring && !over ? <PanelClosingWarning session={session} /> : null}
          {data?.loopback && !over ? <LoopbackWarning host={new URL(data.attendanceUrl).hostname} networkUrls={data.networkUrls} /> : null}
          {over ? (
            <p className="rounded-lg bg-slate-50 px-4 py-3 text-sm text-slate-700">
              Students can no longer check in to this session. Start a new session to take attendance again; the roster below keeps today’s records.
            </p>
          ) : (
            <div>
              <p className="text-sm font-medium text-slate-700" id={`code-${session.sessionId}`}>
                Can’t scan? Go to {codeEntryAddress(data?.attendanceUrl)} and enter this code
              </p>
              <p aria-labelledby={`code-${session.sessionId}`} className="mt-1 font-mono text-4xl font-bold tracking-widest text-slate-900 tabular-nums">
                {data ? spacedCode(data.shortCode) : '––– –––'}
              </p>
              <p className="mt-1 text-xs text-slate-600">The QR code and this code change every 15 seconds.</p>
            </div>
          )}

          {!over ? (
            <div>
              <label htmlFor={`url-${session.sessionId}`} className="block text-sm font-medium text-slate-800">
                Attendance URL
              </label>
              <div className="mt-1.5 flex gap-2">
                <input
                  ref={urlRef}
                  id={`url-${session.sessionId}`}
                  readOnly
                  value={data?.attendanceUrl ?? ''}
                  onFocus={(e) => e.currentTarget.select()}
                  className="block h-10 min-w-0 flex-1 rounded-lg border border-slate-300 bg-slate-50 px-3 font-mono text-xs text-slate-700"
                />
                <Button variant="secondary" onClick={() => void copyUrl()} disabled={!data} className="disabled:opacity-50" icon={Copy}>
                  Copy
                </Button>
              </div>
            </div>
          ) : null}

          <ClassBreak session={session} over={over} />

          <div className="flex flex-wrap gap-2">
            {data ? (
              <a href={data.qrCode} download={`attendance-qr-${session.sessionId}.png`} className={buttonClasses('secondary', 'md')}>
                <Download aria-hidden="true" className="size-4" />
                Download QR
              </a>
            ) : null}
            {!over ? (
              <Link to={`/attendance/present?session=${encodeURIComponent(session.sessionId)}`} className={buttonClasses('secondary', 'md')}>
                <MonitorPlay aria-hidden="true" className="size-4" />
                Projector view
              </Link>
            ) : null}
          </div>
        </div>
      </div>

      <dl className="flex flex-wrap gap-x-6 gap-y-1 border-t border-slate-200 bg-slate-50 px-5 py-3 text-xs text-slate-600 sm:px-6">
        <div className="flex gap-1">
          <dt>Session ID</dt>
          <dd className="font-mono text-slate-800" title={session.sessionId}>
            {shortId(session.sessionId)}
          </dd>
        </div>
        <div className="flex gap-1">
          <dt>Started</dt>
          <dd className="text-slate-800">{formatLocalTime(session.createdAt)}</dd>
        </div>
        <div className="flex gap-1">
          <dt>{over ? 'Closed' : 'Closes'}</dt>
          <dd className="text-slate-800">{formatLocalTime(session.expiresAt)}</dd>
        </div>
      </dl>
    </Card>
  );
}

/** Where a class's break stands at `now`: none (or over), on break, or back with the re-check-in window open. */
function breakState(b: MeetingBreak | null | undefined, now: number): 'none' | 'on_break' | 'recheck' {
  if (!b) return 'none';
  if (b.endedAt == null) return 'on_break';
  return b.recheckUntil != null && Date.parse(b.recheckUntil) > now ? 'recheck' : 'none';
}

/**
 * "Break for everyone" (asked first: everyone checked in is checked out), then "End break", then the
 * re-check-in window's countdown (docs/decisions/052). The break is the meeting's: the session read
 * brings it back after a reload or from another screen. Its state is said in a live region.
 */
function ClassBreak({ session, over }: { session: QrSession; over: boolean }) {
  const read = useSession(session.sessionId);
  const start = useStartBreak();
  const end = useEndBreak();
  const now = useServerNow();
  const [asking, setAsking] = useState(false);
  const current = read.data?.meetingBreak;
  const state = breakState(current, now);
  // A closed session takes no break, but one left open can still be ended.
  if (over && state !== 'on_break') return null;

  const since = formatLocalTime(current?.startedAt ?? null);
  const until = formatLocalTime(current?.recheckUntil ?? null);
  return (
    <div className="rounded-lg bg-slate-50 px-4 py-3 ring-1 ring-slate-200 ring-inset">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p role="status" className="flex items-center gap-2 text-sm font-medium text-slate-800">
          {state === 'on_break' ? (
            <>
              <Coffee aria-hidden="true" className="size-4 shrink-0 text-amber-700" />
              On break since {since}
            </>
          ) : state === 'recheck' ? (
            <>
              <UserCheck aria-hidden="true" className="size-4 shrink-0 text-emerald-700" />
              Re-check-in open until {until}
            </>
          ) : (
            <>Class in session</>
          )}
        </p>
        {state === 'recheck' && current?.recheckUntil ? (
          <p role="timer" aria-label="Re-check-in closes in" className="font-mono text-lg font-bold text-emerald-800 tabular-nums">
            {formatCountdown(Date.parse(current.recheckUntil) - now)}
          </p>
        ) : null}
        {state === 'on_break' ? (
          <Button variant="primary" size="sm" icon={UserCheck} onClick={() => end.mutate(session)} disabled={end.isPending} className="disabled:opacity-60">
            {end.isPending ? 'Ending break…' : 'End break'}
          </Button>
        ) : (
          <Button
            variant="secondary"
            size="sm"
            icon={Coffee}
            onClick={() => setAsking(true)}
            disabled={start.isPending || read.isPending}
            className="disabled:opacity-60"
          >
            Break for everyone
          </Button>
        )}
      </div>
      {state === 'recheck' ? (
        <p className="mt-1 text-xs text-slate-600">Students scan the code again to check back in; those who scan later count from when they scan.</p>
      ) : null}
      <ConfirmDialog
        open={asking}
        onOpenChange={setAsking}
        title="Send the class on a break?"
        confirmLabel="Start break"
        pendingLabel="Starting…"
        isPending={start.isPending}
        destructive={false}
        onConfirm={() => start.mutate(session, { onSettled: () => setAsking(false) })}
      >
        Everyone checked in to {session.courseName} is checked out now, and the break is not counted as class time. When you end the break, students scan the
        code again within {RECHECK_DEFAULT_MINUTES} minutes to be counted back from its end.
      </ConfirmDialog>
    </div>
  );
}

/** The scan address names this computer only: phones would open their own loopback, not Muster (the panel and the projector). */
export function LoopbackWarning({ host, networkUrls }: { host: string; networkUrls: string[] }) {
  const first = networkUrls[0];
  return (
    <Alert variant="info" className="border-amber-300 bg-amber-50 text-amber-900">
      <p className="font-semibold">Phones can’t reach {host}.</p>
      <p className="mt-1">
        Set PUBLIC_URL (see README) to an address phones can reach
        {first ? (
          <>
            , or open Muster at <span className="font-mono">{first}</span> on this computer
          </>
        ) : (
          ', or open Muster at this computer’s network address'
        )}
        .
      </p>
      {networkUrls.length > 1 ? <p className="mt-1">Other addresses of this computer: {networkUrls.slice(1).join(', ')}</p> : null}
    </Alert>
  );
}

export function StatusLabel({ expired, className }: { expired: boolean; className?: string }) {
  return (
    <span
      className={cn(
        'inline-flex items-center gap-1.5 rounded-full px-2.5 py-1 text-xs font-semibold ring-1 ring-inset',
        expired ? 'bg-slate-100 text-slate-700 ring-slate-500/20' : 'bg-emerald-50 text-emerald-800 ring-emerald-600/20',
        className,
      )}
    >
      <span aria-hidden="true" className={cn('size-2 rounded-full', expired ? 'bg-slate-400' : 'animate-pulse bg-emerald-500')} />
      {expired ? 'Expired' : 'Active'}
    </span>
  );
}
