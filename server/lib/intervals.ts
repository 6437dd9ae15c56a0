// Intervals of time as [from, to] in ms since the epoch: their union, their length, one less
// another. The class-time rules (attendance/rules.ts) and the time-clock rules (hours/time-clock.ts)
// both measure with these.

/** [from, to] in ms since the epoch. */
export type Interval = [number, number];

/**
 * The intervals less the cuts (each a [from, to] that is not class time: a scheduled break, an
 * instructor-led break). Both lists may be in any order; the answer is in order.
 */
export function without(intervals: readonly Interval[], cuts: readonly Interval[]): Interval[] {
  if (cuts.length === 0) return intervals as Interval[];
  const sortedCuts = [...cuts].sort((a, b) => a[0] - b[0]);
  const out: Interval[] = [];
  for (const [a, b] of intervals) {
    let from = a;
    for (const [c, d] of sortedCuts) {
      if (d <= from || c >= b) continue;
      if (c > from) out.push([from, c]);
      from = Math.max(from, d);
      if (from >= b) break;
    }
    if (from < b) out.push([from, b]);
  }
  return out.sort((x, y) => x[0] - y[0]);
}

/**
 * Walk the union of intervals in order: `stretch` is called with each continuous stretch's length
 * in ms (intervals that overlap or touch are one stretch). Answers the union's total length.
 */
export function stretches(intervals: Interval[], stretch?: (ms: number) => void): number {
  if (intervals.length === 0) return 0;
  const sorted = intervals.length === 1 ? intervals : [...intervals].sort((a, b) => a[0] - b[0]);
  let total = 0;
  let [from, to] = sorted[0]!;
  for (let i = 1; i < sorted.length; i++) {
    const [a, b] = sorted[i]!;
    if (a > to) {
      total += to - from;
      stretch?.(to - from);
      [from, to] = [a, b];
    } else if (b > to) to = b;
  }
  stretch?.(to - from);
  return total + (to - from);
}

/** Total length in ms of the union of intervals. */
export function unionMs(intervals: Interval[]): number {
  return stretches(intervals);
}

/** Milliseconds of [from, to) covered by the intervals, each instant counted once. */
export function coveredMs(from: number, to: number, intervals: readonly (readonly [number, number])[]): number {
  const inside: Interval[] = [];
  for (const [a, b] of intervals) if (Math.min(b, to) > Math.max(a, from)) inside.push([Math.max(a, from), Math.min(b, to)]);
  return unionMs(inside);
}
