import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { programPolicySchema, type ProgramPolicyInput } from '../../../common/program-policy.ts';
import { programSavedSchema, type programInputSchema } from '../../../common/programs.ts';
import { timeClockImpactSchema, timeClockPolicySchema, timeClockPresetSchema, timeClockSavedSchema, type TimeClockInput } from '../../../common/time-clock.ts';
import { apiParse } from '../../lib/api.ts';
import { COURSES_KEY, HOURS_KEY, PROGRAMS_KEY } from '../../lib/shared-queries.ts';
import { useRefreshingMutation } from '../../lib/use-refreshing-mutation.ts';

/** The Programs screen's calls; the program list itself is lib/shared-queries.ts (forms pick programs too). */

type ProgramInput = z.output<typeof programInputSchema>;

// Course rows show their program's name.
const useProgramMutation = <TVars, TResult>(fn: (vars: TVars) => Promise<TResult>) => useRefreshingMutation(fn, [PROGRAMS_KEY, COURSES_KEY]);

export const useCreateProgram = () => useProgramMutation((input: ProgramInput) => apiParse(programSavedSchema, 'POST', '/api/programs', input));

export const useUpdateProgram = () =>
  useProgramMutation(({ id, input }: { id: number; input: ProgramInput }) => apiParse(programSavedSchema, 'PUT', `/api/programs/${id}`, input));

const policyKey = (programId: number) => [...PROGRAMS_KEY, programId, 'policy'] as const;

/** GET /api/programs/{id}/policy: the effective clock-hour policy and the payment periods it gives. */
export function useProgramPolicy(programId: number) {
  return useQuery({ queryKey: policyKey(programId), queryFn: () => apiParse(programPolicySchema, 'GET', `/api/programs/${programId}/policy`) });
}

/**
 * PUT /api/programs/{id}/policy; its answer (the new effective policy) replaces the cached one. Its
 * programHours are the program's hours (decision 040): the program list is refreshed too.
 */
export function useSaveProgramPolicy(programId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: ProgramPolicyInput) => apiParse(programPolicySchema, 'PUT', `/api/programs/${programId}/policy`, input),
    onSuccess: (saved) => {
      queryClient.setQueryData(policyKey(programId), saved);
      // In the background: the dialog answers the save at once.
      void queryClient.invalidateQueries({ queryKey: PROGRAMS_KEY, exact: true });
      // The program's students' hours are recomputed in the background (the notice on the page).
      void queryClient.invalidateQueries({ queryKey: HOURS_KEY });
    },
  });
}

// ---- Time-clock rules (decision 050) ----

const timeClockKey = (programId: number) => [...PROGRAMS_KEY, programId, 'time-clock'] as const;

/** GET /api/programs/{id}/time-clock: the rules in force today, every version, and the school's today. */
export function useTimeClock(programId: number) {
  return useQuery({ queryKey: timeClockKey(programId), queryFn: () => apiParse(timeClockPolicySchema, 'GET', `/api/programs/${programId}/time-clock`) });
}

/** GET /api/time-clock/presets: named starting points; the same for every program. */
export function useTimeClockPresets() {
  return useQuery({
    queryKey: ['/api/time-clock/presets'],
    queryFn: () => apiParse(z.array(timeClockPresetSchema), 'GET', '/api/time-clock/presets'),
    staleTime: Infinity,
  });
}

/** How many students' days a version from this date would recompute (asked only for a date before today). */
export function useTimeClockImpact(programId: number, effectiveFrom: string | null) {
  return useQuery({
    queryKey: [...timeClockKey(programId), 'impact', effectiveFrom],
    queryFn: () => apiParse(timeClockImpactSchema, 'GET', `/api/programs/${programId}/time-clock/impact?effectiveFrom=${effectiveFrom}`),
    enabled: effectiveFrom != null,
  });
}

/** PUT /api/programs/{id}/time-clock; its answer replaces the cached policy. Hours read afterwards are recomputed by the server. */
export function useSaveTimeClock(programId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: TimeClockInput) => apiParse(timeClockSavedSchema, 'PUT', `/api/programs/${programId}/time-clock`, input),
    onSuccess: ({ recomputedStudents: _n, ...saved }) => {
      queryClient.setQueryData(timeClockKey(programId), saved);
      void queryClient.invalidateQueries({ queryKey: [...timeClockKey(programId), 'impact'] });
      void queryClient.invalidateQueries({ queryKey: HOURS_KEY });
    },
  });
}
