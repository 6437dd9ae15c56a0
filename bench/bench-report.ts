// What the benchmarks print and sample beside their timings: the event loop's stalls and aligned tables.
import os from 'node:os';

export const loadavg = () => Array.from(os.loadavg(), (l) => l.toFixed(2)).join(' ');
export const since = (t0: number) => `${((performance.now() - t0) / 1000).toFixed(0)} s`;
export const pass = (ok: boolean) => (ok ? 'PASS' : 'FAIL');
export const n = (v: number) => v.toLocaleString('en-US');

// The event loop's longest stall while it runs: a 10 ms timer, and by how much its ticks came late
// (monitorEventLoopDelay at 10 ms resolution sees the same maximum); the last gap counted at stop.
export function stallSampler(everyMs = 10): { stop: () => number } {
  let [last, worst] = [performance.now(), 0];
  const tick = () => {
    [worst, last] = [Math.max(worst, performance.now() - last - everyMs), performance.now()];
    return worst;
  };
  const timer = setInterval(tick, everyMs);
  return {
    stop: () => {
      clearInterval(timer);
      return Math.max(0, tick());
    },
  };
}

export function printTable(head: string[], rows: string[][]): void {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  console.log(line(head));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const r of rows) console.log(line(r));
}
