import { useMutation, useQueryClient } from '@tanstack/react-query';
import { studentSchema, type StudentInput } from '../../../common/students.ts';
import { SCHEDULES_KEY, STUDENTS_KEY } from '../../lib/shared-queries.ts';
import { apiParse, apiRequest } from '../../lib/api.ts';

/** The Students screen's changes; the list itself is lib/shared-queries.ts (the roster reads it too). */
function useStudentMutation<TVars, TResult>(fn: (vars: TVars) => Promise<TResult>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    // Rosters change too: a new enrolled student joins their program's schedules.
    onSuccess: () => Promise.all([queryClient.invalidateQueries({ queryKey: STUDENTS_KEY }), queryClient.invalidateQueries({ queryKey: SCHEDULES_KEY })]),
  });
}

export const useCreateStudent = () => useStudentMutation((input: StudentInput) => apiParse(studentSchema, 'POST', '/api/students', input));

export const useUpdateStudent = () =>
  useStudentMutation(({ id, input }: { id: number; input: StudentInput }) => apiParse(studentSchema, 'PUT', `/api/students/${id}`, input));

/** 204, or 409 when the student has attendance history (change the status instead). */
export const useDeleteStudent = () => useStudentMutation((id: number) => apiRequest('DELETE', `/api/students/${id}`).then(() => undefined));
