import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { closureSchema } from '../../../common/calendar.ts';
import { apiParse, apiRequest } from '../../lib/api.ts';
import { useRefreshingMutation } from '../../lib/use-refreshing-mutation.ts';

type ClosureInput = { startDate: string; endDate: string; name: string; programId: number | null };

const CLOSURES_KEY = ['/api/calendar/closures'] as const;

/** GET /api/calendar/closures: every closure (a school has tens), for the month view and the list. */
export function useClosures() {
  return useQuery({ queryKey: CLOSURES_KEY, queryFn: () => apiParse(z.array(closureSchema), 'GET', '/api/calendar/closures') });
}

export const useCreateClosure = () =>
  useRefreshingMutation((input: ClosureInput) => apiParse(closureSchema, 'POST', '/api/calendar/closures', input), [CLOSURES_KEY]);

export const useDeleteClosure = () =>
  useRefreshingMutation((id: number) => apiRequest('DELETE', `/api/calendar/closures/${id}`).then(() => undefined), [CLOSURES_KEY]);
