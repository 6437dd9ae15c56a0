import { LEGACY_TIME_CLOCK, type TimeClockRules } from '../../../common/time-clock.ts';
import { stretches, unionMs, without, type Interval } from '../../lib/intervals.ts';

export { unionMs, without, type Interval } from '../../lib/intervals.ts';

/**
 * The time-clock rules (COMPLIANCE.md "Time-clock rules"; decision 050) as pure functions
 * of punches and a class window: the one place they live. The ledger calls them per meeting, then
 * per day, then per week. A meeting takes a list of punch pairs, so several punches a day (lunch out
 * and in, breaks) need no new rule: the gaps between them are the breaks.
 */

/** One check-in and its check-out (null: the student never checked out). */
type Punch = { in: number; out: number | null };

/** A version of a program's rules: from its date (null: from the beginning) until the next one's. */
export type TimeClockVersionRules = TimeClockRules & { effectiveFrom: string | null };

const MINUTE = 60_000;
const minutesOf = (ms: number) => Math.floor(ms / MINUTE);

/**
 * The rules in force on a school-local date: the latest version dated on or before it. `versions`
 * are in date order, a null date first. Before every version (and without any), Muster's behaviour
 * before rules existed counts: nothing changes for a ledger nobody gave rules.
 */
export function rulesOn(versions: readonly TimeClockVersionRules[] | undefined, date: string): TimeClockRules {
  let rules: TimeClockRules = LEGACY_TIME_CLOCK;
  if (!versions) return rules;
  for (const v of versions) {
    if (v.effectiveFrom != null && v.effectiveFrom > date) break;
    rules = v;
  }
  return rules;
}

/**
 * A punch moved to the rounding interval's marks, counted from the class start (for a class that
 * starts on the hour, the clock's own quarter hours). Both punches move the same way: `down` is the
 * previous mark for a check-in and a check-out alike, as time clocks describe it.
 */
function rounded(t: number, classStart: number, rules: TimeClockRules): number {
  if (rules.rounding === 'none') return t;
  const step = rules.roundingMinutes * MINUTE;
  const k = (t - classStart) / step;
  const n = rules.rounding === 'nearest' ? Math.round(k) : rules.rounding === 'down' ? Math.floor(k) : Math.ceil(k);
  return classStart + n * step;
}

/** A check-in before the start, or within the grace minutes after it, counts from the start. */
function checkInAt(t: number, classStart: number, rules: TimeClockRules): number {
  return t <= classStart + rules.graceMinutes * MINUTE ? classStart : rounded(t, classStart, rules);
}

type MeetingTime = {
  /** The punches as recorded, inside the class; a punch without a check-out has no raw stretch. */
  raw: Interval[];
  /** What the rules credit: rounded, inside the class, under the missed-punch policy. */
  credited: Interval[];
  /** no_credit: what a meeting with a missing check-out would have earned, waiting for an exception. */
  pendingExceptionMinutes: number;
  /** auto_check_out_flagged: minutes credited up to the class end for a missing check-out, for review. */
  autoCheckOutMinutes: number;
};

/**
 * A meeting's punches under the rules, within the class [start, end], less its breaks (`cuts`: not
 * class time, so neither scheduled nor credited).
 */
export function meetingTime(punches: readonly Punch[], start: number, end: number, rules: TimeClockRules, cuts: readonly Interval[] = []): MeetingTime {
  const raw: Interval[] = [];
  const credited: Interval[] = [];
  let open = false;
  let autoMs = 0;
  for (const p of punches) {
    if (p.out != null) {
      const from = Math.max(p.in, start);
      const to = Math.min(p.out, end);
      if (to > from) raw.push([from, to]);
    } else open = true;
    // A missing check-out closes at the class end (never later); no_credit then withholds the meeting below.
    const from = Math.max(checkInAt(p.in, start, rules), start);
    const to = Math.min(p.out == null ? end : rounded(p.out, start, rules), end);
    if (to <= from) continue;
    credited.push([from, to]);
    if (p.out == null) autoMs += to - from;
  }
  const rawInClass = without(raw, cuts);
  const creditedInClass = without(credited, cuts);
  if (open && rules.missingCheckOut === 'no_credit') {
    return { raw: rawInClass, credited: [], pendingExceptionMinutes: minutesOf(unionMs(creditedInClass)), autoCheckOutMinutes: 0 };
  }
  if (open && rules.missingCheckOut === 'auto_check_out_flagged' && cuts.length > 0) {
    // The stretch credited for the missing check-out, less the breaks inside it.
    const last = punches[punches.length - 1];
    const from = last && last.out == null ? Math.max(checkInAt(last.in, start, rules), start) : end;
    autoMs = unionMs(without(from < end ? [[from, end]] : [], cuts));
  }
  return {
    raw: rawInClass,
    credited: creditedInClass,
    pendingExceptionMinutes: 0,
    autoCheckOutMinutes: rules.missingCheckOut === 'auto_check_out_flagged' ? minutesOf(autoMs) : 0,
  };
}

/**
 * A day's credited intervals: their minutes, and the meal deduction: each continuous stretch longer
 * than afterMinutes (no break punch in it) loses the meal minutes.
 */
export function dayTime(credited: Interval[], rules: TimeClockRules): { roundedMinutes: number; deductedMinutes: number } {
  const meal = rules.mealDeduction;
  let deductedMinutes = 0;
  const roundedMinutes = minutesOf(
    stretches(
      credited,
      meal
        ? (ms) => {
            if (ms > meal.afterMinutes * MINUTE) deductedMinutes += Math.min(meal.minutes, minutesOf(ms));
          }
        : undefined,
    ),
  );
  return { roundedMinutes, deductedMinutes: Math.min(deductedMinutes, roundedMinutes) };
}

/**
 * The daily and weekly caps: of a day's minutes, how many count given the minutes already counted
 * that week (Sunday to Saturday), and how many are over a cap (kept and shown, never dropped).
 */
export function capped(minutes: number, countedThisWeek: number, rules: TimeClockRules): { counted: number; capped: number } {
  let counted = minutes;
  if (rules.dailyMaxMinutes != null && counted > rules.dailyMaxMinutes) counted = rules.dailyMaxMinutes;
  if (rules.weeklyMaxMinutes != null) counted = Math.min(counted, Math.max(0, rules.weeklyMaxMinutes - countedThisWeek));
  return { counted, capped: minutes - counted };
}
