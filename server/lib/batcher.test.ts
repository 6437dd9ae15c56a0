import { describe, expect, it } from 'vitest';
import { keyedBatcher } from './batcher.ts';

describe('keyedBatcher', () => {
  it('runs a lone item at once, and items arriving meanwhile as one later batch, each with its own answer', async () => {
    const batches: number[][] = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const b = keyedBatcher<number, number>(
      async (_, items) => {
        batches.push(items);
        if (batches.length === 1) await gate;
        return items.map((i) => i * 10);
      },
      { maxBatch: 3 },
    );
    const first = b.add('k', 1);
    const rest = [2, 3, 4, 5].map((i) => b.add('k', i));
    const other = b.add('other key', 9);
    expect(batches).toEqual([[1], [9]]);
    release();
    expect(await Promise.all([first, ...rest, other])).toEqual([10, 20, 30, 40, 50, 90]);
    expect(batches).toEqual([[1], [9], [2, 3, 4], [5]]);
  });

  it('gives every item of a failed batch the error, and the next batch runs', async () => {
    const b = keyedBatcher<number, number>(
      async (_, items) => {
        if (items.includes(2)) throw new Error('boom');
        return items;
      },
      { maxBatch: 10 },
    );
    const results = await Promise.allSettled([b.add('k', 1), b.add('k', 2), b.add('k', 3)]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'rejected']);
    expect(await b.add('k', 4)).toBe(4);
  });
});
