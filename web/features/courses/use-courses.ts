import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Course, CourseInput } from '../../../common/courses.ts';
import { ApiError, apiJson, apiRequest } from '../../lib/api.ts';

export const COURSES_KEY = ['/api/courses'] as const;

/** GET /api/courses: the whole catalog (hundreds at most), searched and sorted in the browser. */
export function useCourses() {
  return useQuery<Course[]>({ queryKey: COURSES_KEY });
}

function useCourseMutation<TVars, TResult>(fn: (vars: TVars) => Promise<TResult>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    // Schedule cards show course names and codes too.
    onSuccess: () => Promise.all([queryClient.invalidateQueries({ queryKey: COURSES_KEY }), queryClient.invalidateQueries({ queryKey: ['/api/schedules'] })]),
  });
}

export const useCreateCourse = () => useCourseMutation((input: CourseInput) => apiJson<Course>('POST', '/api/courses', input));

export const useUpdateCourse = () =>
  useCourseMutation(({ id, input }: { id: number; input: CourseInput }) => apiJson<Course>('PUT', `/api/courses/${id}`, input));

export const useToggleCourseStatus = () => useCourseMutation((id: number) => apiJson<Course>('PATCH', `/api/courses/${id}/toggle-status`));

/** One problem of a rejected import: the row a person sees in a spreadsheet (header = 1) and the column. */
export type ImportProblem = { row: number; column: string; value?: string; message: string };
export type ImportResult = { imported: number; errors: ImportProblem[] };

/** POST /api/courses/bulk-upload (multipart field `file`): all rows or none. */
export const useBulkUploadCourses = () =>
  useCourseMutation(async (file: File): Promise<ImportResult> => {
    const body = new FormData();
    body.append('file', file);
    const res = await fetch('/api/courses/bulk-upload', { method: 'POST', body, credentials: 'include' });
    if (!res.ok) throw new ApiError(res.status, await res.text().catch(() => ''), res.statusText);
    return (await res.json()) as ImportResult;
  });

/** The row problems of a refused import (400 `{message, imported: 0, errors: [{row, column, …}]}`). */
export function importProblems(error: unknown): ImportProblem[] {
  if (!(error instanceof ApiError)) return [];
  try {
    const body = JSON.parse(error.bodyText) as { errors?: unknown };
    if (!Array.isArray(body.errors)) return [];
    return (body.errors as Partial<ImportProblem>[]).filter((e): e is ImportProblem => typeof e.row === 'number' && typeof e.message === 'string');
  } catch {
    return [];
  }
}

/** Today as YYYY-MM-DD in the browser's time zone, for the download's file name. */
function localDate(): string {
  const d = new Date();
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

/** GET /api/courses/export, saved as courses-export-{date}.csv (SPEC §9) through a temporary link. */
export function useExportCourses() {
  return useMutation({
    mutationFn: async () => {
      const res = await apiRequest('GET', '/api/courses/export');
      const url = URL.createObjectURL(await res.blob());
      try {
        const a = document.createElement('a');
        a.href = url;
        a.download = `courses-export-${localDate()}.csv`;
        document.body.append(a);
        a.click();
        a.remove();
      } finally {
        // Let the download start before the blob goes away.
        setTimeout(() => URL.revokeObjectURL(url), 1000);
      }
    },
  });
}
