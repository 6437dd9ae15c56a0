import type pg from 'pg';
import type { Db } from '../server/db/client.ts';

/** Every statement sent to the pool, with its time: to say which query is slow, not only that one is. */
export type Statement = { text: string; values: unknown[]; ms: number };
export function instrument(db: Db): { take: () => Statement[] } {
  const pool = db.$client as pg.Pool & { query: (...args: unknown[]) => Promise<unknown> };
  const original = pool.query.bind(pool) as (...args: unknown[]) => Promise<unknown>;
  let log: Statement[] = [];
  pool.query = (async (...args: unknown[]) => {
    const first = args[0] as string | { text: string; values?: unknown[] };
    const text = typeof first === 'string' ? first : first.text;
    const values = (typeof first === 'string' ? undefined : first.values) ?? (Array.isArray(args[1]) ? (args[1] as unknown[]) : []);
    const t0 = performance.now();
    try {
      return await original(...args);
    } finally {
      log.push({ text, values, ms: performance.now() - t0 });
    }
  }) as typeof pool.query;
  return {
    take: () => {
      const out = log;
      log = [];
      return out;
    },
  };
}

/** Statements by their text (shortened), with their times added up and how many were sent. */
export type StatementTally = Map<string, { ms: number; calls: number }>;

export function tally(into: StatementTally, taken: Statement[]): void {
  for (const st of taken) {
    const key = st.text.replace(/\s+/g, ' ').slice(0, 160);
    const seen = into.get(key) ?? { ms: 0, calls: 0 };
    into.set(key, { ms: seen.ms + st.ms, calls: seen.calls + 1 });
  }
}

/** The slowest statements of a tally, for saying which query a slow read waits on. */
export function printSlowest(name: string, tallied: StatementTally, rounds: number, top = 8): void {
  console.log(`  ${name}: its slowest statements, time added up over ${rounds} rounds`);
  for (const [text, t] of [...tallied].sort((a, b) => b[1].ms - a[1].ms).slice(0, top)) console.log(`    ${t.ms.toFixed(1)} ms, ${t.calls}×  ${text}`);
}
