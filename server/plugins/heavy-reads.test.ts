import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { AppError } from '../lib/errors.ts';
import { interactiveInFlight } from '../lib/give-way.ts';
import { createHeavyReadGate, registerHeavyReads } from './heavy-reads.ts';

const settled = () => new Promise((r) => setImmediate(r));
const code = (p: Promise<unknown>) =>
  p.then(
    () => 'ok',
    (e: unknown) => (e instanceof AppError ? e.statusCode : 'error'),
  );

describe('the heavy-read gate', () => {
  it("runs a user's reads two at a time, queues a few, refuses the rest; the process runs a bounded number", async () => {
    const gate = createHeavyReadGate({ perUser: 2, perUserWaiting: 1, perInstance: 3, queue: 1 });
    const a1 = await gate.enter('a');
    const a2 = await gate.enter('a');
    let a3Started = false;
    const a3 = gate.enter('a').then((release) => {
      a3Started = true;
      return release;
    });
    expect(await code(gate.enter('a'))).toBe(429); // two running, one waiting: the fourth is refused
    const b1 = await gate.enter('b'); // the process's third turn
    let c1Started = false;
    const c1 = gate.enter('c').then((release) => {
      c1Started = true;
      return release;
    });
    await settled();
    expect(await code(gate.enter('d'))).toBe(503); // three running, one waiting in the process queue
    await settled();
    expect([a3Started, c1Started]).toEqual([false, false]);
    a1();
    a1(); // releasing twice gives back one turn
    await settled();
    // a1's process turn went to the first waiting (c1); a3 now has a user turn and waits for the process.
    expect(c1Started).toBe(true);
    expect(a3Started).toBe(false);
    b1();
    await settled();
    expect(a3Started).toBe(true);
    for (const release of [a2, await a3, await c1]) release();
    expect(gate.load()).toEqual({ running: 0, waiting: 0 });
  });
});

describe('requests heavy work gives way to', () => {
  it('counts every route but the heavy ones while its answer is prepared, and stops counting once it is sent', async () => {
    const app = Fastify();
    registerHeavyReads(app);
    let release: () => void = () => {};
    const held = () => new Promise<void>((r) => (release = r));
    const seen: number[] = [];
    app.get('/light', async () => {
      seen.push(interactiveInFlight());
      await held();
      return { ok: true };
    });
    app.get('/heavy', { config: { heavy: true } }, async () => {
      seen.push(interactiveInFlight());
      await held();
      return { ok: true };
    });
    await app.ready();
    for (const url of ['/light', '/heavy']) {
      const answer = app.inject({ url });
      await new Promise((r) => setTimeout(r, 20));
      release();
      expect((await answer).statusCode).toBe(200);
      expect(interactiveInFlight()).toBe(0);
    }
    expect(seen).toEqual([1, 0]);
    await app.close();
  });
});
