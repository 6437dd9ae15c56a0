import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

/** Fresh modules per test: handleUnauthorized remembers that a redirect is already under way. */
async function load() {
  vi.resetModules();
  const toast = await import('./toast.ts');
  const { handleUnauthorized } = await import('./unauthorized.ts');
  return { toast, handleUnauthorized };
}

beforeEach(() => {
  vi.useFakeTimers();
  vi.stubGlobal('window', { location: { href: '/students' } });
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('handleUnauthorized (SPEC §8)', () => {
  it('shows the destructive Unauthorized toast, then goes to /api/login after 500 ms', async () => {
    const { toast, handleUnauthorized } = await load();
    const seen: unknown[] = [];
    toast.watchToasts((items) => seen.push(items));
    expect(handleUnauthorized(new Error('401: {"message":"Unauthorized","code":"UNAUTHORIZED"}'))).toBe(true);
    expect(seen.at(-1)).toMatchObject([{ title: 'Unauthorized', description: 'You are logged out. Logging in again...', variant: 'destructive', open: true }]);
    vi.advanceTimersByTime(499);
    expect(window.location.href).toBe('/students');
    vi.advanceTimersByTime(1);
    expect(window.location.href).toBe('/api/login');
  });

  it('ignores other errors, and several 401s at once give one toast', async () => {
    const { toast, handleUnauthorized } = await load();
    let notifications = 0;
    toast.watchToasts(() => (notifications += 1));
    expect(handleUnauthorized(new Error('500: Internal Server Error'))).toBe(false);
    expect(notifications).toBe(0);
    handleUnauthorized(new Error('401: Unauthorized'));
    handleUnauthorized(new Error('401: Unauthorized'));
    expect(notifications).toBe(1);
  });
});
