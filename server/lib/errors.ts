/** The one error family. The error handler (plugins/error-handler.ts) turns these into responses. */
export type FieldError = { field: string; message: string };
/** A problem in an uploaded file: the row a person sees (header = 1) and the column. */
export type RowProblem = { row: number; column: string; value?: string; message: string };

export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly details?: { errors?: FieldError[] | RowProblem[]; [key: string]: unknown },
  ) {
    super(message);
  }
}

export const unauthorized = (message = 'Unauthorized') => new AppError(401, 'UNAUTHORIZED', message);
export const forbidden = (message = 'Forbidden: your role may not do this') => new AppError(403, 'FORBIDDEN', message);
export const notFound = (what: string) => new AppError(404, 'NOT_FOUND', `${what} not found`);
export const conflict = (message: string, field?: string) => new AppError(409, 'CONFLICT', message, field ? { errors: [{ field, message }] } : undefined);
export const badRequest = (message: string, errors?: FieldError[]) => new AppError(400, 'VALIDATION', message, errors ? { errors } : undefined);
