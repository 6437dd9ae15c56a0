import { useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';

/**
 * A mutation that, once it succeeds, refreshes every query under the given key prefixes (a
 * record screen's own list, plus what else shows the record, e.g. schedule cards).
 */
export function useRefreshingMutation<TVars, TResult>(fn: (vars: TVars) => Promise<TResult>, refresh: readonly QueryKey[]) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: () => Promise.all(refresh.map((queryKey) => queryClient.invalidateQueries({ queryKey }))),
  });
}
