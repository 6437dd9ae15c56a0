import { ArrowLeft, Maximize, Minimize, TimerOff } from 'lucide-react';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import type { QrSessionAnswer, SessionClosing } from '../../../common/qr-sessions.ts';
import { buttonClasses } from '../../components/ui/button.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { cn } from '../../lib/cn.ts';
import { useDocumentTitle } from '../../lib/document-title.ts';
import { isGone, useQrImage, useRoster } from './attendance-api.ts';
import { formatClockRange, formatCount, formatLocalTime } from '../../lib/format.ts';
import { codeEntryAddress, LoopbackWarning, spacedCode, StatusLabel } from './qr-session-panel.tsx';
import { STUDENT_TEXTS } from '../../../common/student-texts.ts';
import { isAttendedStatus } from '../../../common/constants.ts';
import { ProjectorQr } from './projector-qr.tsx';
import { useSessionCountdown } from './use-session-countdown.ts';
import { sessionKey, useSession } from './session-api.ts';
import { ExtendButton, ProjectorClosingWarning } from './session-closing.tsx';

// What students read on the projector, in English and Spanish at once: the room reads both.
const { en: EN, es: ES } = STUDENT_TEXTS;

/**
 * Projector view (/attendance/present?session={sessionId}): the class's QR code as large as the
 * screen allows, the course and room (so students know they scan the right class), the typed
 * fallback code and the countdown. It covers the app's frame and rotates with the token. It follows
 * its one session (an extension or End Session from another screen shows here), warns the room in
 * the session's last minutes and offers the instructor Extend (docs/decisions/042).
 */
export function ProjectorPage() {
  const [params] = useSearchParams();
  const sessionId = params.get('session');
  const read = useSession(sessionId);
  const session = read.data ?? null;
  useDocumentTitle(session ? `${session.courseName} · Projector` : 'Projector view');

  return (
    <div className="fixed inset-0 z-40 flex flex-col overflow-auto bg-white text-slate-900">
      <ProjectorBar scheduleId={session?.scheduleId ?? null} session={session && !session.closed ? session : null} />
      {sessionId && read.isPending ? (
        <div role="status" aria-label="Loading session" className="flex flex-1 items-center justify-center">
          <Spinner className="size-10 text-blue-700" />
        </div>
      ) : session?.closed ? (
        <Ended closing={session.closed} session={session} />
      ) : session ? (
        <ProjectedSession session={session} />
      ) : (
        <Ended
          text={
            read.isError && !/^(403|404): /.test(read.error.message)
              ? 'The session could not be loaded. Reload the page to try again.'
              : 'This session does not exist.'
          }
        />
      )}
    </div>
  );
}

function ProjectorBar({ scheduleId, session }: { scheduleId: number | null; session: QrSessionAnswer | null }) {
  const [full, setFull] = useState(() => document.fullscreenElement != null);
  useEffect(() => {
    const onChange = () => setFull(document.fullscreenElement != null);
    document.addEventListener('fullscreenchange', onChange);
    return () => document.removeEventListener('fullscreenchange', onChange);
  }, []);
  const toggle = () => {
    if (document.fullscreenElement) void document.exitFullscreen();
    else void document.documentElement.requestFullscreen?.().catch(() => {});
  };
  return (
    <div className="flex items-center justify-between gap-2 px-4 py-3 sm:px-6">
      <Link to={scheduleId ? `/attendance?schedule=${scheduleId}` : '/attendance'} className={buttonClasses('ghost', 'sm')}>
        <ArrowLeft aria-hidden="true" className="size-4" />
        Back to Take Attendance
      </Link>
      <div className="flex items-center gap-2">
        {session ? <ExtendWhenClosing session={session} /> : null}
        <button type="button" onClick={toggle} className={buttonClasses('ghost', 'sm')}>
          {full ? <Minimize aria-hidden="true" className="size-4" /> : <Maximize aria-hidden="true" className="size-4" />}
          {full ? 'Exit full screen' : 'Full screen'}
        </button>
      </div>
    </div>
  );
}

/** In the session's last minutes, the instructor's Extend, with the bar's other controls. */
function ExtendWhenClosing({ session }: { session: QrSessionAnswer }) {
  const countdown = useSessionCountdown(session);
  return countdown.expiring ? <ExtendButton session={session} size="sm" /> : null;
}

function ProjectedSession({ session }: { session: QrSessionAnswer }) {
  const queryClient = useQueryClient();
  const countdown = useSessionCountdown(session);
  const image = useQrImage(countdown.expired ? null : session.sessionId);
  const gone = image.isError && isGone(image.error);
  // Closed on the server (ended elsewhere), or our countdown ran out: ask the server how it closed
  // (or whether another screen extended it meanwhile).
  useEffect(() => {
    if (gone || countdown.expired) void queryClient.invalidateQueries({ queryKey: sessionKey(session.sessionId) });
  }, [gone, countdown.expired, queryClient, session.sessionId]);
  if (countdown.expired || gone) return <Ended closing={countdown.expired ? 'expired' : 'ended'} session={session} />;
  const data = image.data;

  // Sized from the viewport for the back of the room (docs/projector-readability.md): the QR takes
  // the height left under the bar (4rem), 994 px at 1920 × 1080, so its modules are at least 2 cm
  // on a 2 m wide image; the code's digits are 5 cm or more. A 1280 × 720 image keeps the shares.
  return (
    <div className="flex flex-1 flex-col items-center justify-center gap-[3vmin] px-6 pb-[2vmin] lg:flex-row lg:gap-[5vmin]">
      {/* Phones cannot open a localhost address: say so here too, as the session panel does. Laid
          over a corner, so the sizes worked out for the back of the room stay as they are. */}
      {data?.loopback ? (
        <div className="fixed right-4 bottom-4 z-50 w-[min(28rem,calc(100vw-2rem))] shadow-lg" data-testid="projector-loopback">
          <LoopbackWarning host={new URL(data.attendanceUrl).hostname} networkUrls={data.networkUrls} />
        </div>
      ) : null}
      <div className="flex size-[min(100vh_-_4rem_-_2vmin,90vw)] shrink-0 items-center justify-center bg-white lg:size-[min(100vh_-_4rem_-_2vmin,52vw)]">
        {data ? (
          <ProjectorQr text={data.attendanceUrl} label={`QR code to check in to ${session.courseName}`} className="size-full" />
        ) : (
          <Spinner className="size-12 text-blue-700" />
        )}
      </div>
      <div className="flex min-w-0 flex-col items-center text-center lg:max-w-[56rem] lg:flex-1 lg:items-start lg:text-left">
        <p className="text-[3vmin] font-semibold tracking-wide text-blue-700 uppercase">{EN.projectorScan}</p>
        <p lang="es" className="text-[2.2vmin] font-semibold tracking-wide text-blue-700/80 uppercase">
          {ES.projectorScan}
        </p>
        <h1 className="mt-[1vmin] text-[5vmin] leading-tight font-bold">{session.courseName}</h1>
        <p className="mt-[0.5vmin] text-[3vmin] text-slate-600">
          {session.courseCode}
          {session.roomNumber ? ` · Room ${session.roomNumber}` : ''} · {formatClockRange(session.startTime, session.endTime)}
        </p>
        <div className={countdown.expiring ? 'mt-[3vmin]' : 'mt-[4vmin]'}>
          <p className="text-[3.2vmin] font-medium text-slate-700" id="projector-code">
            {EN.projectorCantScanBefore} <span className="font-bold text-slate-900">{codeEntryAddress(data?.attendanceUrl)}</span> {EN.projectorCantScanAfter}
          </p>
          <p lang="es" className="text-[2.4vmin] text-slate-600">
            {ES.projectorCantScanBefore} <span className="font-semibold text-slate-800">{codeEntryAddress(data?.attendanceUrl)}</span>{' '}
            {ES.projectorCantScanAfter}
          </p>
          <p
            aria-labelledby="projector-code"
            className="mt-[1vmin] font-mono text-[min(12vmin,7vw)] leading-none font-bold tracking-[0.12em] whitespace-nowrap tabular-nums"
          >
            {data ? spacedCode(data.shortCode) : '––– –––'}
          </p>
        </div>
        {/* In the last minutes the warning joins them: the spacing gives it room, all on one screen. */}
        <div className={cn('flex flex-wrap items-center justify-center gap-[2vmin] lg:justify-start', countdown.expiring ? 'mt-[2.5vmin]' : 'mt-[4vmin]')}>
          <StatusLabel expired={false} className="text-[2.4vmin]" />
          <p
            role="timer"
            aria-label="Time left"
            className={cn('font-mono text-[5vmin] font-bold tabular-nums', countdown.expiring ? 'text-amber-700' : 'text-slate-900')}
          >
            {countdown.text}
          </p>
          <CheckedInCount session={session} />
        </div>
        {countdown.expiring ? <ProjectorClosingWarning session={session} /> : null}
        <p className={cn('text-[2.4vmin] text-slate-600', countdown.expiring ? 'mt-[1.5vmin]' : 'mt-[2vmin]')}>{EN.projectorCodeChanges}</p>
        <p lang="es" className="text-[2vmin] text-slate-600">
          {ES.projectorCodeChanges}
        </p>
      </div>
    </div>
  );
}

/**
 * "7 of 64 checked in": the meeting's roster, read as the session panel's roster reads it (polled
 * while the session is live), counting those who attended (present, late, or checked in and out).
 */
function CheckedInCount({ session }: { session: QrSessionAnswer }) {
  const roster = useRoster(session.scheduleId, session.sessionDate, true);
  const rows = roster.data;
  if (!rows) return null;
  const checkedIn = rows.filter((r) => r.status != null && isAttendedStatus(r.status)).length;
  return (
    <p className="text-[3vmin] font-semibold text-slate-900" data-testid="projector-count">
      <span className="tabular-nums">{formatCount(checkedIn)}</span> of <span className="tabular-nums">{formatCount(rows.length)}</span> checked in
    </p>
  );
}

const ENDED_TEXT: Record<SessionClosing, { title: string; text: (s: QrSessionAnswer) => string }> = {
  ended: { title: 'Session Ended', text: () => 'The instructor ended this session: students can no longer check in or out with it.' },
  expired: { title: 'Session Expired', text: (s) => `This session closed at ${formatLocalTime(s.expiresAt)}. Start a new session to take attendance again.` },
};

function Ended({ text, session, closing }: { text?: string; session?: QrSessionAnswer; closing?: SessionClosing }) {
  const said = session && closing ? ENDED_TEXT[closing] : null;
  return (
    <div className="flex flex-1 flex-col items-center justify-center px-6 text-center">
      <TimerOff aria-hidden="true" className="size-16 text-slate-400" />
      {session ? <p className="mt-6 text-2xl font-semibold text-slate-700">{session.courseName}</p> : null}
      <h1 className="mt-2 text-4xl font-bold">{said?.title ?? 'No Active QR Session'}</h1>
      <p className="mt-3 text-lg text-slate-600">{said && session ? said.text(session) : text}</p>
    </div>
  );
}
