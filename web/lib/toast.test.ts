import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

async function load() {
  vi.resetModules();
  return import('./toast.ts');
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('toast store (SPEC §9)', () => {
  it('keeps one toast at a time, the newest', async () => {
    const t = await load();
    let last: readonly { title: string }[] = [];
    t.watchToasts((items) => (last = items));
    t.toast({ title: 'First' });
    t.toast({ title: 'Second', variant: 'destructive' });
    expect(last.map((x) => x.title)).toEqual(['Second']);
  });

  it('closes a dismissed toast at once and drops it after the removal delay', async () => {
    const t = await load();
    let last: readonly { open: boolean }[] = [];
    t.watchToasts((items) => (last = items));
    const shown = t.toast({ title: 'Saved' });
    shown.dismiss();
    expect(last).toMatchObject([{ open: false }]);
    vi.advanceTimersByTime(1_000_000);
    expect(last).toEqual([]);
  });
});
