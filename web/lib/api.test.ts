import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { ApiError, apiParse, apiParseOrNullOn401, apiRequest, isUnauthorizedError, readErrorBody } from './api.ts';

function answer(status: number, body: string, statusText = '') {
  return vi.fn(async () => new Response(body || null, { status, statusText }));
}

afterEach(() => vi.unstubAllGlobals());

describe('apiRequest (SPEC §7)', () => {
  it('sends credentials always and a JSON content type only with a body', async () => {
    const fetch = answer(200, '{}');
    vi.stubGlobal('fetch', fetch);
    await apiRequest('GET', '/api/x');
    await apiRequest('POST', '/api/x', { a: 1 });
    const calls = fetch.mock.calls as unknown as [string, RequestInit][];
    expect(calls[0]![1]).toMatchObject({ method: 'GET', credentials: 'include', headers: {} });
    expect(calls[0]![1].body).toBeUndefined();
    expect(calls[1]![1]).toMatchObject({ credentials: 'include', headers: { 'Content-Type': 'application/json' }, body: '{"a":1}' });
  });

  it('turns a non-ok answer into "{status}: {body}", or the status text when the body is empty', async () => {
    vi.stubGlobal('fetch', answer(409, '{"message":"Taken"}', 'Conflict'));
    await expect(apiRequest('POST', '/api/x', {})).rejects.toThrow('409: {"message":"Taken"}');
    vi.stubGlobal('fetch', answer(503, '', 'Service Unavailable'));
    await expect(apiRequest('GET', '/api/x')).rejects.toThrow(/^503: Service Unavailable$/);
  });
});

describe('apiParse', () => {
  const setupStatus = z.object({ needsSetup: z.boolean() });

  it('returns null on 401 when asked to, and throws otherwise', async () => {
    vi.stubGlobal('fetch', answer(401, '{"message":"Unauthorized"}', 'Unauthorized'));
    await expect(apiParseOrNullOn401(setupStatus, '/api/auth/user')).resolves.toBeNull();
    await expect(apiParse(setupStatus, 'GET', '/api/auth/user')).rejects.toThrow(/^401: /);
  });

  it('parses the JSON body of an ok answer', async () => {
    vi.stubGlobal('fetch', answer(200, '{"needsSetup":true}'));
    await expect(apiParse(setupStatus, 'GET', '/api/setup/status')).resolves.toEqual({ needsSetup: true });
  });

  it('refuses an answer that breaks the contract', async () => {
    vi.stubGlobal('fetch', answer(200, '{"needsSetup":"yes"}'));
    await expect(apiParse(setupStatus, 'GET', '/api/setup/status')).rejects.toThrow();
  });

  it('loads a contract given as a loader beside the request, and holds the answer to it just the same', async () => {
    const fetch = answer(200, '{"needsSetup":"yes"}');
    vi.stubGlobal('fetch', fetch);
    let loaded = false;
    const load = async () => {
      // The request is already on its way while the schema loads.
      expect(fetch).toHaveBeenCalledTimes(1);
      loaded = true;
      return setupStatus;
    };
    await expect(apiParse(load, 'GET', '/api/setup/status')).rejects.toThrow();
    expect(loaded).toBe(true);
    vi.stubGlobal('fetch', answer(401, '{"message":"Unauthorized"}', 'Unauthorized'));
    await expect(apiParseOrNullOn401(load, '/api/auth/user')).resolves.toBeNull();
  });
});

describe('error helpers', () => {
  it('recognises Unauthorized errors by their text (SPEC §8)', () => {
    expect(isUnauthorizedError(new Error('401: {"message":"Unauthorized"}'))).toBe(true);
    expect(isUnauthorizedError(new Error('401: {"message":"Invalid e-mail or password"}'))).toBe(false);
    expect(isUnauthorizedError(new Error('403: Unauthorized'))).toBe(false);
    expect(isUnauthorizedError('401: Unauthorized')).toBe(false);
  });

  it('reads the message and field errors of a validation answer', () => {
    const err = new ApiError(400, JSON.stringify({ message: 'Validation failed', errors: [{ field: 'email', message: 'Bad' }] }), 'Bad Request');
    expect(readErrorBody(err)).toEqual({ message: 'Validation failed', fieldErrors: { email: 'Bad' } });
    expect(readErrorBody(new ApiError(502, '<html>', 'Bad Gateway'))).toEqual({ message: '<html>', fieldErrors: {} });
    expect(readErrorBody(new Error('x'))).toEqual({ message: null, fieldErrors: {} });
  });
});
