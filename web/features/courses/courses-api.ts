import { useMutation } from '@tanstack/react-query';
import type { z } from 'zod';
import { bulkUploadResultSchema, courseSavedSchema, courseSchema, type CourseInput } from '../../../common/courses.ts';
import { COURSES_KEY, SCHEDULES_KEY } from '../../lib/shared-queries.ts';
import { ApiError, apiParse } from '../../lib/api.ts';
import { downloadFile, localDate } from '../../lib/download.ts';
import { useRefreshingMutation } from '../../lib/use-refreshing-mutation.ts';

/** The Courses screen's changes; the catalog is lib/shared-queries.ts (the schedule form reads it too). */
function useCourseMutation<TVars, TResult>(fn: (vars: TVars) => Promise<TResult>) {
  // Schedule cards show course names and codes too.
  return useRefreshingMutation(fn, [COURSES_KEY, SCHEDULES_KEY]);
}

export const useCreateCourse = () => useCourseMutation((input: CourseInput) => apiParse(courseSavedSchema, 'POST', '/api/courses', input));

export const useUpdateCourse = () =>
  useCourseMutation(({ id, input }: { id: number; input: CourseInput }) => apiParse(courseSavedSchema, 'PUT', `/api/courses/${id}`, input));

export const useToggleCourseStatus = () => useCourseMutation((id: number) => apiParse(courseSchema, 'PATCH', `/api/courses/${id}/toggle-status`));

/** GET /api/courses/export, saved as courses-export-{date}.csv (SPEC §9). */
export function useExportCourses() {
  return useMutation({
    mutationFn: async () => {
      const name = `courses-export-${localDate()}.csv`;
      await downloadFile('/api/courses/export', { fallbackName: name, name });
    },
  });
}

/** One problem of a rejected import: the row a person sees in a spreadsheet (header = 1) and the column. */
type ImportProblem = z.infer<typeof bulkUploadResultSchema>['errors'][number];

/** POST /api/courses/bulk-upload (multipart field `file`): all rows or none. */
export const useBulkUploadCourses = () =>
  useCourseMutation((file: File) => {
    const body = new FormData();
    body.append('file', file);
    return apiParse(bulkUploadResultSchema, 'POST', '/api/courses/bulk-upload', body);
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
