import { useQuery } from '@tanstack/react-query';
import type { Program } from '../../../common/programs.ts';

export const PROGRAMS_KEY = ['/api/programs'] as const;

/** GET /api/programs: the program choices of the student and course forms. */
export function usePrograms() {
  return useQuery<Program[]>({ queryKey: PROGRAMS_KEY });
}
