import { studentSchema, type StudentInput } from '../../../common/students.ts';
import { SCHEDULES_KEY, STUDENTS_KEY } from '../../lib/shared-queries.ts';
import { apiParse, apiRequest } from '../../lib/api.ts';
import { useRefreshingMutation } from '../../lib/use-refreshing-mutation.ts';

/** The Students screen's changes; the list itself is lib/shared-queries.ts (the roster reads it too). */
function useStudentMutation<TVars, TResult>(fn: (vars: TVars) => Promise<TResult>) {
  // Rosters change too: a new enrolled student joins their program's schedules.
  return useRefreshingMutation(fn, [STUDENTS_KEY, SCHEDULES_KEY]);
}

export const useCreateStudent = () => useStudentMutation((input: StudentInput) => apiParse(studentSchema, 'POST', '/api/students', input));

export const useUpdateStudent = () =>
  useStudentMutation(({ id, input }: { id: number; input: StudentInput }) => apiParse(studentSchema, 'PUT', `/api/students/${id}`, input));

/** 204, or 409 when the student has attendance history (change the status instead). */
export const useDeleteStudent = () => useStudentMutation((id: number) => apiRequest('DELETE', `/api/students/${id}`).then(() => undefined));
