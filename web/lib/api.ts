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
  // A FormData body (file uploads) goes as multipart, with the boundary the browser sets.
  const json = body !== undefined && !(body instanceof FormData);
  const res = await fetch(url, {
    method,
    headers: json ? { 'Content-Type': 'application/json' } : {},
    body: json ? JSON.stringify(body) : (body as FormData | undefined),
    credentials: 'include',
  });
  // Every answer's Date header sharpens the server-clock estimate the countdowns use.
  noteServerDate(res, sentAt, Date.now());
  await throwIfNotOk(res);
  return res;
}

/** A contract schema from common/ (any zod schema): typed structurally, so this file needs no zod. */
export type Contract<T> = { parse: (data: unknown) => T };
/**
 * A contract, or a function that loads one: what the app shell and the sign-in page use, so that zod
 * and the schemas arrive alongside their first answer instead of before the first draw (decision 025).
 */
type ContractSource<T> = Contract<T> | (() => Promise<Contract<T>>);

/**
 * A feature's schemas module, loaded on first use: `const contract = lazyContracts(() => import('./x-contracts.ts'))`,
 * then `contract('fooSchema')` is a loader for apiParse or a form (decision 025).
 */
export function lazyContracts<M extends object>(load: () => Promise<M>) {
  return <K extends keyof M>(name: K) =>
    async (): Promise<M[K]> =>
      (await load())[name];
}

/**
 * The one way the admin screens read an answer: apiRequest, then the JSON parsed with the shared
 * contract (common/), so a field the server renamed fails loudly here, not somewhere in a screen.
 */
export async function apiParse<T>(contract: ContractSource<T>, method: string, url: string, body?: unknown): Promise<T> {
  const [res, loaded] = await Promise.all([apiRequest(method, url, body), typeof contract === 'function' ? contract() : contract]);
  return loaded.parse(await res.json());
}

/** A GET where 401 means "nobody is signed in" (SPEC §7 GET /api/auth/user): null, not an error. */
export async function apiParseOrNullOn401<T>(contract: ContractSource<T>, url: string): Promise<T | null> {
  try {
    return await apiParse(contract, 'GET', url);
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return null;
    throw error;
  }
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
