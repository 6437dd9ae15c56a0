import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Student, StudentInput } from '../../../common/students.ts';
import { TOTAL_COUNT_HEADER } from '../../../common/validation.ts';
import { apiJson, apiRequest } from '../../lib/api.ts';

export const STUDENTS_KEY = '/api/students';

export type StudentListParams = {
  search?: string;
  sort?: string;
  order?: 'asc' | 'desc';
  page?: number;
  pageSize?: number;
};

export type StudentPage = { items: Student[]; total: number };

/** GET /api/students with server-side search, sort and paging; X-Total-Count carries the total. */
export async function fetchStudents(params: StudentListParams): Promise<StudentPage> {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== '') query.set(key, String(value));
  }
  const res = await apiRequest('GET', `${STUDENTS_KEY}?${query.toString()}`);
  const items = (await res.json()) as Student[];
  const total = Number(res.headers.get(TOTAL_COUNT_HEADER) ?? items.length);
  return { items, total };
}

export function useStudents(params: StudentListParams) {
  return useQuery({
    queryKey: [STUDENTS_KEY, params],
    queryFn: () => fetchStudents(params),
    // Keep the current page on screen while the next one loads (no flash of an empty table).
    placeholderData: keepPreviousData,
  });
}

function useStudentMutation<TVars, TResult>(fn: (vars: TVars) => Promise<TResult>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    // Rosters change too: a new enrolled student joins their program's schedules.
    onSuccess: () => Promise.all([queryClient.invalidateQueries({ queryKey: [STUDENTS_KEY] }), queryClient.invalidateQueries({ queryKey: ['/api/schedules'] })]),
  });
}

export const useCreateStudent = () => useStudentMutation((input: StudentInput) => apiJson<Student>('POST', STUDENTS_KEY, input));

export const useUpdateStudent = () =>
  useStudentMutation(({ id, input }: { id: number; input: StudentInput }) => apiJson<Student>('PUT', `${STUDENTS_KEY}/${id}`, input));

/** 204, or 409 when the student has attendance history (change the status instead). */
export const useDeleteStudent = () => useStudentMutation((id: number) => apiRequest('DELETE', `${STUDENTS_KEY}/${id}`).then(() => undefined));
