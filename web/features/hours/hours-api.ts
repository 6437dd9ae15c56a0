import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { hoursSummaryRowSchema, type HOURS_SORT_KEYS } from '../../../common/hours.ts';
import { apiParsePage } from '../../lib/api-page.ts';
import { HOURS_KEY } from '../../lib/shared-queries.ts';

export type HoursSortKey = (typeof HOURS_SORT_KEYS)[number];

type HoursListParams = {
  programId?: number | undefined;
  asOf?: string | undefined;
  search?: string | undefined;
  sort: HoursSortKey;
  order: 'asc' | 'desc';
  page: number;
  pageSize: number;
};

/** GET /api/hours: one ledger summary row per student, filtered, sorted and paged by the server (X-Total-Count). */
export function useHoursSummary(params: HoursListParams) {
  return useQuery({
    queryKey: [...HOURS_KEY, params],
    queryFn: () => {
      const query = new URLSearchParams();
      for (const [key, value] of Object.entries(params)) if (value !== undefined && value !== '') query.set(key, String(value));
      return apiParsePage(z.array(hoursSummaryRowSchema), `/api/hours?${query.toString()}`);
    },
    // The current page stays on screen while the next one loads.
    placeholderData: keepPreviousData,
  });
}
