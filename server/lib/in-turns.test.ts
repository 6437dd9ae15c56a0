import { describe, expect, it } from 'vitest';
import { inTurns } from './in-turns.ts';

describe('inTurns', () => {
  it('answers every result in order with never more than the limit in flight', async () => {
    let inFlight = 0;
    let most = 0;
    const task = (value: number, ms: number) => async () => {
      most = Math.max(most, ++inFlight);
      await new Promise((r) => setTimeout(r, ms));
      inFlight--;
      return value;
    };
    const out = await inTurns(2, [task(1, 15), task(2, 5), task(3, 1), task(4, 10), task(5, 1)]);
    expect(out).toEqual([1, 2, 3, 4, 5]);
    expect(most).toBe(2);
  });

  it('rejects with the first failure', async () => {
    await expect(inTurns(3, [async () => 1, async () => Promise.reject(new Error('no')), async () => 3])).rejects.toThrow('no');
  });
});
