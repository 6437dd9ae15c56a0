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
