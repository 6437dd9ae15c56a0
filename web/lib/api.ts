import type { QueryFunction } from '@tanstack/react-query';
import { noteServerDate } from './server-clock.ts';

/**
 * The one fetch client (SPEC §7): credentials always included, a JSON content type only when a
 * body is sent, and any non-ok answer thrown as an Error whose message is
 * `${status}: ${body text or status text}` — the Unauthorized check (SPEC §8) reads that text.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly bodyText: string,
    statusText: string,
  ) {
    super(`${status}: ${bodyText || statusText}`);
    this.name = 'ApiError';
  }
}

async function throwIfNotOk(res: Response): Promise<void> {
  if (res.ok) return;
  const text = await res.text().catch(() => '');
  throw new ApiError(res.status, text, res.statusText);
}

export async function apiRequest(method: string, url: string, body?: unknown): Promise<Response> {
  const sentAt = Date.now();
  const res = await fetch(url, {
    method,
    headers: body !== undefined ? { 'Content-Type': 'application/json' } : {},
    body: body !== undefined ? JSON.stringify(body) : undefined,
    credentials: 'include',
  });
  // Every answer's Date header sharpens the server-clock estimate the countdowns use.
  noteServerDate(res, sentAt, Date.now());
  await throwIfNotOk(res);
  return res;
}

/** apiRequest plus JSON parsing, for callers that want the answer's body. */
export async function apiJson<T>(method: string, url: string, body?: unknown): Promise<T> {
  const res = await apiRequest(method, url, body);
  return (await res.json()) as T;
}

type UnauthorizedBehavior = 'throw' | 'returnNull';

/** Default query function: GET the query key joined as a path; 401 throws or yields null. */
export function getQueryFn<T>(options: { on401: UnauthorizedBehavior }): QueryFunction<T | null> {
  return async ({ queryKey }) => {
    const res = await fetch(queryKey.join('/'), { credentials: 'include' });
    if (options.on401 === 'returnNull' && res.status === 401) return null;
    await throwIfNotOk(res);
    return (await res.json()) as T;
  };
}

export function isUnauthorizedError(error: unknown): boolean {
  return error instanceof Error && /^401: .*Unauthorized/.test(error.message);
}

export type FieldErrors = Record<string, string>;

/** The server's `{message, errors:[{field, message}]}` error body, when it is one. */
export function readErrorBody(error: unknown): { message: string | null; fieldErrors: FieldErrors } {
  const fieldErrors: FieldErrors = {};
  if (!(error instanceof ApiError)) return { message: null, fieldErrors };
  try {
    const body = JSON.parse(error.bodyText) as { message?: unknown; errors?: unknown };
    if (Array.isArray(body.errors)) {
      for (const e of body.errors as { field?: unknown; message?: unknown }[]) {
        if (typeof e.field === 'string' && typeof e.message === 'string' && !(e.field in fieldErrors)) {
          fieldErrors[e.field] = e.message;
        }
      }
    }
    return { message: typeof body.message === 'string' ? body.message : null, fieldErrors };
  } catch {
    return { message: error.bodyText || null, fieldErrors };
  }
}
