import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Schedule, ScheduleInput } from '../../../common/schedules.ts';
import { apiJson } from '../../lib/api.ts';

export const SCHEDULES_KEY = '/api/schedules';

/** GET /api/schedules?search= (server-side search over course, instructor, room and ids). */
export function useSchedules(search: string) {
  return useQuery({
    queryKey: [SCHEDULES_KEY, { search }],
    queryFn: () => apiJson<Schedule[]>('GET', search ? `${SCHEDULES_KEY}?${new URLSearchParams({ search }).toString()}` : SCHEDULES_KEY),
    placeholderData: keepPreviousData,
  });
}

function useScheduleMutation<TVars, TResult>(fn: (vars: TVars) => Promise<TResult>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [SCHEDULES_KEY] }),
  });
}

/** POST /api/schedules: the roster starts with the enrolled students of the course's program. */
export const useCreateSchedule = () => useScheduleMutation((input: ScheduleInput) => apiJson<Schedule>('POST', SCHEDULES_KEY, input));

export const useUpdateSchedule = () =>
  useScheduleMutation(({ id, input }: { id: number; input: ScheduleInput }) => apiJson<Schedule>('PUT', `${SCHEDULES_KEY}/${id}`, input));
