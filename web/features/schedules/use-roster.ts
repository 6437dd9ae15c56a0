import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { rosterEntrySchema } from '../../../common/schedules.ts';
import { apiJson, apiRequest } from '../../lib/api.ts';
import { SCHEDULES_KEY } from './use-schedules.ts';

export type RosterEntry = z.infer<typeof rosterEntrySchema>;

export const rosterKey = (scheduleId: number) => [SCHEDULES_KEY, scheduleId, 'roster'] as const;

/** GET /api/schedules/{id}/roster: the students expected at this class. */
export function useRoster(scheduleId: number) {
  return useQuery<RosterEntry[]>({ queryKey: rosterKey(scheduleId) });
}

/** Roster changes refresh the roster and the cards' student counts (both under /api/schedules). */
function useRosterMutation<TVars, TResult>(fn: (vars: TVars) => Promise<TResult>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [SCHEDULES_KEY] }),
  });
}

export const useAddToRoster = (scheduleId: number) =>
  useRosterMutation((studentIds: number[]) => apiJson<RosterEntry[]>('POST', `${SCHEDULES_KEY}/${scheduleId}/roster`, { studentIds }));

/** Removing a student keeps their attendance history. */
export const useRemoveFromRoster = (scheduleId: number) =>
  useRosterMutation((studentId: number) => apiRequest('DELETE', `${SCHEDULES_KEY}/${scheduleId}/roster/${studentId}`).then(() => undefined));
