import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { rosterEntrySchema, scheduleSchema, type ScheduleInput } from '../../../common/schedules.ts';
import { SCHEDULES_KEY } from '../../lib/shared-queries.ts';
import { apiParse, apiRequest } from '../../lib/api.ts';
import { useRefreshingMutation } from '../../lib/use-refreshing-mutation.ts';

/**
 * The Schedules screen's calls. The schedule list is lib/shared-queries.ts (the
 * take-attendance screen reads it too); every key here starts with its SCHEDULES_KEY, so one
 * invalidation refreshes the cards, their student counts and the rosters.
 */

export type RosterEntry = z.infer<typeof rosterEntrySchema>;

export const rosterKey = (scheduleId: number) => [...SCHEDULES_KEY, scheduleId, 'roster'] as const;

const useScheduleMutation = <TVars, TResult>(fn: (vars: TVars) => Promise<TResult>) => useRefreshingMutation(fn, [SCHEDULES_KEY]);

/** POST /api/schedules: the roster starts with the enrolled students of the course's program. */
export const useCreateSchedule = () => useScheduleMutation((input: ScheduleInput) => apiParse(scheduleSchema, 'POST', '/api/schedules', input));

export const useUpdateSchedule = () =>
  useScheduleMutation(({ id, input }: { id: number; input: ScheduleInput }) => apiParse(scheduleSchema, 'PUT', `/api/schedules/${id}`, input));

/** GET /api/schedules/{id}/roster: the students expected at this class. */
export function useRoster(scheduleId: number) {
  return useQuery({ queryKey: rosterKey(scheduleId), queryFn: () => apiParse(z.array(rosterEntrySchema), 'GET', `/api/schedules/${scheduleId}/roster`) });
}

export const useAddToRoster = (scheduleId: number) =>
  useScheduleMutation((studentIds: number[]) => apiParse(z.array(rosterEntrySchema), 'POST', `/api/schedules/${scheduleId}/roster`, { studentIds }));

/** Removing a student keeps their attendance history. */
export const useRemoveFromRoster = (scheduleId: number) =>
  useScheduleMutation((studentId: number) => apiRequest('DELETE', `/api/schedules/${scheduleId}/roster/${studentId}`).then(() => undefined));
