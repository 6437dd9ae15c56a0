import { describe, expect, it } from 'vitest';
import { sliceYielder } from './event-loop-turns.ts';

const busy = (ms: number) => {
  const until = performance.now() + ms;
  while (performance.now() < until);
};

describe('sliceYielder', () => {
  it('lets a timer run between slices of a long computation', async () => {
    const pause = sliceYielder(5);
    let ticks = 0;
    const timer = setInterval(() => ticks++, 0);
    for (let i = 0; i < 40; i++) {
      busy(1);
      await pause();
    }
    clearInterval(timer);
    // 40 ms of work in slices of 5 ms: the timer ran between them.
    expect(ticks).toBeGreaterThanOrEqual(4);
  });

  it('does not yield while the slice lasts', () => {
    const pause = sliceYielder(1_000);
    expect(pause()).toBeUndefined();
  });
});
