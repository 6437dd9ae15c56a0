import { AlarmClock, TimerReset } from 'lucide-react';
import type { QrSession } from '../../../common/attendance.ts';
import { EXTEND_STEP_MINUTES } from '../../../common/qr-sessions.ts';
import { Button, type ButtonSize } from '../../components/ui/button.tsx';
import { cn } from '../../lib/cn.ts';
import { formatLocalTime } from '../../lib/format.ts';
import { useExtendSession } from './session-api.ts';

// Before a session closes (docs/decisions/042): the projector tells the room when, in English and
// Spanish as its other texts; the instructor gets Extend there and on the session panel.

/** What the room reads in the session's last minutes. */
const closingTexts = (time: string) => ({
  en: `Check-in and check-out close at ${time}.`,
  es: `El registro de entrada y salida cierra a las ${time}.`,
});

/** Extend: EXTEND_STEP_MINUTES more, for an open session. */
export function ExtendButton({
  session,
  size = 'md',
  className,
}: {
  session: Pick<QrSession, 'sessionId' | 'courseName'>;
  size?: ButtonSize;
  className?: string;
}) {
  const extend = useExtendSession();
  return (
    <Button
      variant="secondary"
      size={size}
      icon={TimerReset}
      onClick={() => extend.mutate(session)}
      disabled={extend.isPending}
      className={cn('disabled:opacity-60', className)}
    >
      {extend.isPending ? 'Extending…' : `Extend ${EXTEND_STEP_MINUTES} minutes`}
    </Button>
  );
}

/** On the projector: when the session closes, for the whole room (the Extend button is in the bar). */
export function ProjectorClosingWarning({ session }: { session: Pick<QrSession, 'expiresAt'> }) {
  const texts = closingTexts(formatLocalTime(session.expiresAt) ?? '');
  return (
    <div
      role="alert"
      className="mt-[1.5vmin] flex items-center gap-[1.5vmin] rounded-xl bg-amber-100 px-[2vmin] py-[0.8vmin] text-amber-950 ring-2 ring-amber-500"
    >
      <AlarmClock aria-hidden="true" className="size-[3.6vmin] shrink-0" />
      <div>
        <p className="text-[2.7vmin] leading-tight font-bold">{texts.en}</p>
        <p lang="es" className="text-[2vmin] leading-tight font-medium">
          {texts.es}
        </p>
      </div>
    </div>
  );
}

/** On the session panel of Take Attendance: when the session closes, and Extend. */
export function PanelClosingWarning({ session }: { session: Pick<QrSession, 'sessionId' | 'courseName' | 'expiresAt'> }) {
  return (
    <div
      role="alert"
      className="flex flex-wrap items-center justify-between gap-3 rounded-lg bg-amber-50 px-4 py-3 text-sm text-amber-950 ring-1 ring-amber-300 ring-inset"
    >
      <p className="flex items-center gap-2 font-medium">
        <AlarmClock aria-hidden="true" className="size-4 shrink-0" />
        This session closes at {formatLocalTime(session.expiresAt)}: students can check in and out until then.
      </p>
      <ExtendButton session={session} size="sm" />
    </div>
  );
}
