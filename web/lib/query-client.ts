import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { getQueryFn } from './api.ts';
import { handleUnauthorized } from './unauthorized.ts';

/** SPEC §7 defaults: data never goes stale, no focus refetch, no polling, no retries. */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    queryCache: new QueryCache({ onError: (error) => void handleUnauthorized(error) }),
    mutationCache: new MutationCache({ onError: (error) => void handleUnauthorized(error) }),
    defaultOptions: {
      queries: {
        queryFn: getQueryFn({ on401: 'throw' }),
        staleTime: Infinity,
        refetchOnWindowFocus: false,
        refetchInterval: false,
        retry: false,
      },
      mutations: { retry: false },
    },
  });
}
