import { useQuery } from '@tanstack/react-query';
import type { TodayClasses } from '../../common/schedules.ts';
import { lazyContracts, apiParse } from './api.ts';

// Today's classes are read by the instructor's dashboard and by Take Attendance (features do not
// import each other). The schema loads beside the first answer (decision 025): the dashboard is
// where an instructor lands.
const contract = lazyContracts(() => import('../../common/schedules.ts'));

/** Under the schedules prefix: a change to a schedule refreshes it too. */
export const TODAYS_CLASSES_KEY = ['/api/schedules', 'today'] as const;

/** GET /api/schedules/today: the meetings of today (school time), with their open sessions; read again every minute. */
export function useTodaysClasses() {
  return useQuery<TodayClasses>({
    queryKey: TODAYS_CLASSES_KEY,
    queryFn: () => apiParse(contract('todayClassesSchema'), 'GET', '/api/schedules/today'),
    refetchInterval: 60_000,
  });
}

/** Where Start Session on a Today card leads: Take Attendance with the class chosen, starting at once. */
export const startSessionPath = (scheduleId: number): string => `/attendance?schedule=${scheduleId}&start=1`;
export const sessionPath = (scheduleId: number): string => `/attendance?schedule=${scheduleId}`;
