import { describe, expect, it } from 'vitest';
import { sliceYielder } from './event-loop-turns.ts';
import { asHeavyWork, giveWay, interactiveInFlight, interactiveStarted } from './give-way.ts';

const busy = (ms: number) => {
  const until = performance.now() + ms;
  while (performance.now() < until);
};

describe('heavy work giving way', () => {
  it('does not wait when no request is being answered', () => {
    expect(interactiveInFlight()).toBe(0);
    expect(giveWay()).toBeUndefined();
  });

  it('waits while a request is answered and goes on as soon as it is done', async () => {
    const done = interactiveStarted();
    let resumed = false;
    const waiting = asHeavyWork(() => Promise.resolve(giveWay(10_000))).then(() => (resumed = true));
    await new Promise((r) => setTimeout(r, 20));
    expect(resumed).toBe(false);
    done();
    done(); // twice counts once
    await waiting;
    expect(resumed).toBe(true);
    expect(interactiveInFlight()).toBe(0);
  });

  it('waits at most its limit, however long the request takes', async () => {
    const done = interactiveStarted();
    const t0 = performance.now();
    await asHeavyWork(() => giveWay(30));
    expect(performance.now() - t0).toBeGreaterThanOrEqual(25);
    expect(performance.now() - t0).toBeLessThan(1_000);
    done();
  });

  it('slices of heavy work leave most of the loop to a request being answered', async () => {
    const done = interactiveStarted();
    const pause = sliceYielder(5);
    let work = 0;
    const t0 = performance.now();
    // 200 ms of heavy work in slices of 5 ms beside a request being answered: each slice is
    // followed by a pause of up to 10 ms, so the work takes about three times its own length.
    await asHeavyWork(async () => {
      while (work < 200) {
        busy(1);
        work++;
        await pause();
      }
    });
    const took = performance.now() - t0;
    done();
    expect(took).toBeGreaterThan(450);
  });
});

describe('work someone waits for', () => {
  it('never waits: only heavy work gives way', async () => {
    const done = interactiveStarted();
    // One student's ledger for their own page runs the same sliced code: it must not wait for itself.
    expect(giveWay(30)).toBeUndefined();
    const t0 = performance.now();
    await asHeavyWork(() => giveWay(30));
    expect(performance.now() - t0).toBeGreaterThanOrEqual(25);
    done();
  });
});
