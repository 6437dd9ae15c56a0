// Heavy work gives way to requests someone stands waiting for. A compliance read or an export
// computes for hundreds of milliseconds in slices (event-loop-turns.ts); between slices, while a
// student's check-in or a page's request is being answered, it waits a little longer, so that on a
// busy morning the report takes longer rather than the queue at the classroom door. Only heavy work
// waits (a heavy route's handler, a background job: asHeavyWork); the same code serving a request
// someone waits for (one student's ledger) never waits for itself or its neighbours.
import { AsyncLocalStorage } from 'node:async_hooks';

/** The longest one pause lasts: heavy work keeps at least a third of the thread (slices of 5 ms), however busy. */
const GIVE_WAY_MAX_MS = 10;

let inFlight = 0;
const waiting = new Set<() => void>();
const heavyWork = new AsyncLocalStorage<true>();

/** Runs `work` as heavy work: its slices and statements give way to requests being answered. */
export function asHeavyWork<T>(work: () => T): T {
  return heavyWork.run(true, work);
}

/** An answer is being prepared for someone (plugins/heavy-reads.ts counts every route but the heavy ones); call the answer when it is done (once is enough). */
export function interactiveStarted(): () => void {
  inFlight++;
  let done = false;
  return () => {
    if (done) return;
    done = true;
    if (--inFlight > 0) return;
    for (const resume of waiting) resume();
    waiting.clear();
  };
}

/** Requests being answered now (for tests). */
export const interactiveInFlight = () => inFlight;

/** In heavy work, waits while requests are being answered, at most `maxMs`; otherwise returns at once. */
export function giveWay(maxMs = GIVE_WAY_MAX_MS): Promise<void> | void {
  if (inFlight === 0 || !heavyWork.getStore()) return;
  return new Promise<void>((resolve) => {
    const resume = () => {
      clearTimeout(timer);
      waiting.delete(resume);
      resolve();
    };
    const timer = setTimeout(resume, maxMs);
    waiting.add(resume);
  });
}
