import type { z } from 'zod';
import { bulkUploadResultSchema } from '../../../common/courses.ts';
import { ApiError, apiParse } from '../../lib/api.ts';
import { useCourseMutation } from './courses-api.ts';

// The bulk upload's calls, kept under this name for bulk-import-dialog.tsx and
// import-problems-table.tsx (another change rewrites them); the rest is in courses-api.ts.

/** One problem of a rejected import: the row a person sees in a spreadsheet (header = 1) and the column. */
export type ImportProblem = z.infer<typeof bulkUploadResultSchema>['errors'][number];

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
