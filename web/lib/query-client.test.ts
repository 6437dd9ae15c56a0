import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

beforeEach(() => {
  vi.resetModules();
  vi.useFakeTimers();
  vi.stubGlobal('window', { location: { href: '/users' } });
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => new Response('{"message":"Unauthorized","code":"UNAUTHORIZED"}', { status: 401, statusText: 'Unauthorized' })),
  );
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

/** A fresh client (modules are reset before each test) and the titles of the toasts it shows. */
async function clientWatchingToasts() {
  const { createQueryClient } = await import('./query-client.ts');
  const { watchToasts } = await import('./toast.ts');
  const titles: string[] = [];
  watchToasts((items) => titles.push(...items.map((t) => t.title)));
  return { client: createQueryClient(), titles };
}

describe('createQueryClient', () => {
  it('uses the SPEC §7 defaults', async () => {
    const { createQueryClient } = await import('./query-client.ts');
    const defaults = createQueryClient().getDefaultOptions();
    expect(defaults.queries).toMatchObject({ staleTime: Infinity, refetchOnWindowFocus: false, refetchInterval: false, retry: false });
    expect(defaults.mutations).toMatchObject({ retry: false });
  });

  it('sends a 401 from a query to the Unauthorized handling', async () => {
    const { client, titles } = await clientWatchingToasts();

    const { apiRequest } = await import('./api.ts');
    await expect(client.fetchQuery({ queryKey: ['/api/users'], queryFn: () => apiRequest('GET', '/api/users') })).rejects.toThrow(/^401: /);
    expect(titles).toEqual(['Unauthorized']);
    vi.advanceTimersByTime(500);
    expect(window.location.href).toBe('/api/login');
  });

  it('sends a 401 from a mutation to the Unauthorized handling', async () => {
    const { client, titles } = await clientWatchingToasts();

    const mutation = client.getMutationCache().build(client, {
      mutationFn: async () => {
        throw new Error('401: {"message":"Unauthorized"}');
      },
    });
    await expect(mutation.execute(undefined)).rejects.toThrow();
    expect(titles).toEqual(['Unauthorized']);
  });
});
