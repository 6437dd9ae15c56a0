import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { handleUnauthorized } from './unauthorized.ts';

/**
 * SPEC §7 defaults: data never goes stale, no focus refetch, no polling, no retries. No default
 * query function: every query names its call in its feature's API file (parsed with common/).
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    queryCache: new QueryCache({ onError: (error) => void handleUnauthorized(error) }),
    mutationCache: new MutationCache({ onError: (error) => void handleUnauthorized(error) }),
    defaultOptions: {
      queries: {
        staleTime: Infinity,
        refetchOnWindowFocus: false,
        refetchInterval: false,
        retry: false,
      },
      mutations: { retry: false },
    },
  });
}
