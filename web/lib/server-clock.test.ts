import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

beforeEach(() => vi.resetModules());
afterEach(() => vi.useRealTimers());

const answer = (date: string) => new Response('{}', { headers: { date } });

describe('server clock', () => {
  it('stays at zero offset while the local clock agrees with the answers', async () => {
    const { noteServerDate, serverOffset } = await import('./server-clock.ts');
    const sentAt = Date.parse('2026-03-02T09:00:00.200Z');
    noteServerDate(answer('Mon, 02 Mar 2026 09:00:00 GMT'), sentAt, sentAt + 300);
    expect(serverOffset()).toBe(0);
  });

  it('follows a server two minutes ahead, from a Date header or a precise reading', async () => {
    const { noteServerDate, noteServerReading, serverOffset } = await import('./server-clock.ts');
    const sentAt = Date.parse('2026-03-02T09:00:00.000Z');
    noteServerDate(answer('Mon, 02 Mar 2026 09:02:00 GMT'), sentAt, sentAt + 100);
    expect(Math.abs(serverOffset() - 120_000)).toBeLessThanOrEqual(1000);
    noteServerReading(sentAt + 120_050, 1, sentAt, sentAt + 100);
    expect(Math.abs(serverOffset() - 120_000)).toBeLessThanOrEqual(100);
  });

  it('is fed by every API answer', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('{}', { headers: { date: new Date(Date.now() + 600_000).toUTCString() } })),
    );
    const { apiRequest } = await import('./api.ts');
    const { serverOffset } = await import('./server-clock.ts');
    await apiRequest('GET', '/api/x');
    vi.unstubAllGlobals();
    expect(Math.abs(serverOffset() - 600_000)).toBeLessThanOrEqual(1500);
  });
});
