import type { LedgerDay } from '../../common/hours.ts';
import { TIME_CLOCK_RULE_TEXTS } from '../../common/time-clock.ts';

/**
 * The ledger's time-clock lines (decision 050) as the screens show them: each step's
 * name and the sentence that explains it, and which lines a set of days or totals makes worth
 * showing. Shared by the student page and the Hours view; the papers (time card, export, monthly
 * report) always print every line.
 */

type TimeClockKey = 'rawMinutes' | 'roundedMinutes' | 'deductedMinutes' | 'cappedMinutes' | 'pendingExceptionMinutes' | 'autoCheckOutMinutes';
/** `short`: the word a narrow table cell uses, named in the explanation beside it. */
type TimeClockLine = { key: TimeClockKey; label: string; short: string; description: string };
/** A day's or a total's figures: attended = rounded − deducted − capped. */
type TimeClockFigures = Pick<LedgerDay, TimeClockKey | 'attendedMinutes'>;

const TIME_CLOCK_LINES: readonly TimeClockLine[] = [
  { key: 'rawMinutes', label: 'Punched', short: 'punched', description: 'The punches as recorded, inside the class times.' },
  { key: 'roundedMinutes', label: 'Rounded', short: 'rounded', description: 'After the grace minutes, rounding and the missed-punch rule of the program.' },
  { key: 'deductedMinutes', label: 'Meal deduction', short: 'meal', description: TIME_CLOCK_RULE_TEXTS.mealDeduction },
  { key: 'cappedMinutes', label: 'Over the cap', short: 'over cap', description: 'Over the daily or weekly cap: kept and shown, not counted.' },
  { key: 'pendingExceptionMinutes', label: 'Pending an exception', short: 'pending', description: TIME_CLOCK_RULE_TEXTS.missingCheckOut.no_credit },
  {
    key: 'autoCheckOutMinutes',
    label: 'Auto check-out',
    short: 'auto out',
    description: `${TIME_CLOCK_RULE_TEXTS.missingCheckOut.auto_check_out_flagged} These minutes are part of the attended ones.`,
  },
];

/** The rules changed something: a punch counted otherwise than recorded, a deduction, a cap, a missing check-out. */
export function timeClockChanged(f: TimeClockFigures): boolean {
  return f.rawMinutes !== f.roundedMinutes || f.deductedMinutes > 0 || f.cappedMinutes > 0 || f.pendingExceptionMinutes > 0 || f.autoCheckOutMinutes > 0;
}

/**
 * The lines to show for these rows (days or students' totals): none when the rules changed
 * nothing; else Punched and Rounded, from which the rest is counted, and each other line that is
 * not zero somewhere.
 */
export function timeClockLinesShown(rows: readonly TimeClockFigures[]): TimeClockLine[] {
  if (!rows.some(timeClockChanged)) return [];
  return TIME_CLOCK_LINES.filter((l) => l.key === 'rawMinutes' || l.key === 'roundedMinutes' || rows.some((r) => r[l.key] > 0));
}

/** The rows' figures added up. */
export function sumTimeClock(rows: readonly TimeClockFigures[]): TimeClockFigures {
  const total: TimeClockFigures = {
    rawMinutes: 0,
    roundedMinutes: 0,
    deductedMinutes: 0,
    cappedMinutes: 0,
    pendingExceptionMinutes: 0,
    autoCheckOutMinutes: 0,
    attendedMinutes: 0,
  };
  for (const r of rows) for (const k of Object.keys(total) as (keyof TimeClockFigures)[]) total[k] += r[k];
  return total;
}
