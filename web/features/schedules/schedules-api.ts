import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { rosterEntrySchema, rosterPreviewSchema, scheduleSchema, type ScheduleCreateInput, type ScheduleInput } from '../../../common/schedules.ts';
import { SCHEDULES_KEY } from '../../lib/shared-queries.ts';
import { apiParse, apiRequest } from '../../lib/api.ts';
import { useRefreshingMutation } from '../../lib/use-refreshing-mutation.ts';

/**
 * The Schedules screen's calls. The schedule list is lib/shared-queries.ts (the
 * take-attendance screen reads it too); every key here starts with its SCHEDULES_KEY, so one
 * invalidation refreshes the cards, their student counts and the rosters.
 */

export type RosterEntry = z.infer<typeof rosterEntrySchema>;

const rosterKey = (scheduleId: number) => [...SCHEDULES_KEY, scheduleId, 'roster'] as const;

const useScheduleMutation = <TVars, TResult>(fn: (vars: TVars) => Promise<TResult>) => useRefreshingMutation(fn, [SCHEDULES_KEY]);

/** POST /api/schedules: the roster starts as `initialRoster` says (the cohort when not said). */
export const useCreateSchedule = () => useScheduleMutation((input: ScheduleCreateInput) => apiParse(scheduleSchema, 'POST', '/api/schedules', input));

export type RosterPreviewQuery = { courseId: number; cohortNumber: number | null; cohortName: string | null };

/** GET /api/schedules/roster-preview: who each starting-roster choice brings, before the schedule exists. */
export function useRosterPreview(q: RosterPreviewQuery | null) {
  return useQuery({
    queryKey: [...SCHEDULES_KEY, 'roster-preview', q] as const,
    queryFn: () => {
      const params = new URLSearchParams({ courseId: String(q!.courseId) });
      if (q!.cohortNumber != null) params.set('cohortNumber', String(q!.cohortNumber));
      if (q!.cohortName) params.set('cohortName', q!.cohortName);
      return apiParse(rosterPreviewSchema, 'GET', `/api/schedules/roster-preview?${params}`);
    },
    enabled: q != null,
    placeholderData: (previous) => previous,
  });
}

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
