import type { QrSession } from '../../../common/attendance.ts';
import { CLOSING_WARNING_MINUTES } from '../../../common/qr-sessions.ts';
import { formatCountdown } from '../../lib/format.ts';
import { useServerNow } from '../../lib/server-clock.ts';

// The server calls a session 'expiring' in its last five minutes; the countdown turns amber then,
// and the projector and the session panel warn and offer Extend (docs/decisions/042).
const EXPIRING_MS = CLOSING_WARNING_MINUTES * 60_000;

/** SPEC §4: mm:ss to expiresAt on the server's clock, refreshed every second; 'Expired' at zero. */
export function useSessionCountdown(session: Pick<QrSession, 'expiresAt'> | null) {
  const now = useServerNow();
  const remaining = session ? Date.parse(session.expiresAt) - now : 0;
  const expired = remaining <= 0;
  return {
    remaining,
    expired,
    expiring: !expired && remaining <= EXPIRING_MS,
    text: formatCountdown(remaining),
    label: expired ? 'Expired' : 'Active',
  } as const;
}
