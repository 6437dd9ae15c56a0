import type { BreakKind, BreakPunch } from '../../common/attendance.ts';
import { formatLocalTime } from '../lib/format.ts';

/** What a break is called on the roster and the student's history (decision 051). */
const BREAK_LABELS: Record<BreakKind, string> = { break: 'Break', lunch: 'Lunch', instructor: 'Class break' };

/** Every break of a record, compactly: "Break 10:02–10:15", "Lunch 12:00–" (not back yet). */
export function BreakPunchList({ breaks, label }: { breaks: readonly BreakPunch[]; label: string }) {
  return (
    <ul className="space-y-0.5 text-xs text-slate-700" aria-label={label}>
      {breaks.map((b) => (
        <li key={b.startedAt} className="tabular-nums whitespace-nowrap">
          {BREAK_LABELS[b.kind]} {formatLocalTime(b.startedAt)}–{b.endedAt ? formatLocalTime(b.endedAt) : <span className="sr-only">not back yet</span>}
        </li>
      ))}
    </ul>
  );
}
