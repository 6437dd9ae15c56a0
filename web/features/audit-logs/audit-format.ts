import type { AuditEntry } from '../../../common/audit-logs.ts';
import type { BadgeTone } from '../../components/ui/badge.tsx';

const timestampFormat = new Intl.DateTimeFormat(undefined, {
  year: 'numeric',
  month: 'short',
  day: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
  second: '2-digit',
});

const datePart = new Intl.DateTimeFormat(undefined, { year: 'numeric', month: 'short', day: 'numeric' });
const timePart = new Intl.DateTimeFormat(undefined, { hour: 'numeric', minute: '2-digit', second: '2-digit' });

/** The table cell's two lines: date, then time of day. */
export function timestampParts(iso: string): { date: string; time: string } {
  const t = Date.parse(iso);
  return Number.isNaN(t) ? { date: iso, time: '' } : { date: datePart.format(t), time: timePart.format(t) };
}

export function formatTimestamp(iso: string): string {
  const t = Date.parse(iso);
  return Number.isNaN(t) ? iso : timestampFormat.format(t);
}

/** SPEC §2: an entry without a user was made by the system. */
export function userLabel(e: Pick<AuditEntry, 'userId' | 'userName'>): string {
  if (e.userId == null) return 'System';
  return e.userName ?? `User #${e.userId}`;
}

export const ACTION_TONES: Record<string, BadgeTone> = {
  Create: 'green',
  Update: 'blue',
  Delete: 'red',
  Upload: 'violet',
  Login: 'slate',
  Logout: 'slate',
  Export: 'amber',
  Purge: 'red',
};

/** A failed sign-in is a Login entry whose new values say so. */
export function isFailedLogin(e: Pick<AuditEntry, 'action' | 'newValues'>): boolean {
  return e.action === 'Login' && typeof e.newValues === 'object' && e.newValues !== null && (e.newValues as { outcome?: unknown }).outcome === 'failed';
}
