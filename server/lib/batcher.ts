/**
 * Group commit for requests: work items for the same key that arrive while that key's previous batch
 * is still running wait for it to finish and then run together, as one batch. A lone request runs at
 * once (no timer, no added latency); a rush of a hundred becomes a few statements instead of a
 * hundred. Every batch starts after all of its items arrived, so no item sees data older than its own
 * request. `run` answers one result per item, in order; if it throws, every item of the batch gets
 * that error.
 */
type KeyedBatcher<I, O> = { add: (key: string, item: I) => Promise<O> };

type Waiting<I, O> = { item: I; resolve: (o: O) => void; reject: (e: unknown) => void };

export function keyedBatcher<I, O>(run: (key: string, items: I[]) => Promise<O[]>, opts: { maxBatch: number }): KeyedBatcher<I, O> {
  // Keys with a batch running, and what has arrived for them since it started.
  const queues = new Map<string, Waiting<I, O>[]>();

  async function drain(key: string, batch: Waiting<I, O>[]): Promise<void> {
    try {
      const out = await run(
        key,
        batch.map((w) => w.item),
      );
      batch.forEach((w, i) => w.resolve(out[i]!));
    } catch (err) {
      for (const w of batch) w.reject(err);
    }
    const waiting = queues.get(key)!;
    if (waiting.length === 0) {
      queues.delete(key);
      return;
    }
    const next = waiting.splice(0, opts.maxBatch);
    void drain(key, next);
  }

  return {
    add(key, item) {
      return new Promise<O>((resolve, reject) => {
        const waiting = queues.get(key);
        if (waiting) {
          waiting.push({ item, resolve, reject });
          return;
        }
        queues.set(key, []);
        void drain(key, [{ item, resolve, reject }]);
      });
    },
  };
}
