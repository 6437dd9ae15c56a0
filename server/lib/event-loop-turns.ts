// Long computations in slices. A compliance read walks thousands of ledgers on the one thread that
// also answers check-ins; without a pause a student at the door waits behind all of them.
import { setImmediate as nextTurn } from 'node:timers/promises';
import { giveWay } from './give-way.ts';

/** How long one slice of work may hold the event loop before it lets waiting I/O through. */
const SLICE_MS = 5;

/**
 * A function to call between units of work: it returns at once while the current slice is under
 * `sliceMs`, and otherwise waits one event-loop turn (after pending I/O), a little longer while
 * requests are being answered (give-way.ts), and starts a new slice.
 */
export function sliceYielder(sliceMs = SLICE_MS): () => Promise<void> | void {
  let sliceStart = performance.now();
  return () => {
    if (performance.now() - sliceStart < sliceMs) return;
    return nextTurn()
      .then(() => giveWay())
      .then(() => {
        sliceStart = performance.now();
      });
  };
}
