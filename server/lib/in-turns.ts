// Many independent reads, a few at a time. A compliance read that sent all of its statements at once
// would hold most of the pool's connections, and the check-ins arriving meanwhile would queue for one;
// each statement waits its turn behind the requests being answered (give-way.ts).
import { giveWay } from './give-way.ts';

type Results<T extends readonly (() => Promise<unknown>)[]> = { -readonly [K in keyof T]: Awaited<ReturnType<T[K]>> };

/** Runs the tasks with at most `limit` in flight, in order; answers their results in order (the first failure rejects). */
export async function inTurns<const T extends readonly (() => Promise<unknown>)[]>(limit: number, tasks: T): Promise<Results<T>> {
  const results: unknown[] = new Array(tasks.length);
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const i = next++;
      await giveWay();
      results[i] = await tasks[i]!();
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, worker));
  return results as Results<T>;
}
