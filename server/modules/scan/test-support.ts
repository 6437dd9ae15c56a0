import type { LightMyRequestResponse } from 'fastify';
import type { TestApp } from '../../test/helpers.ts';

// A phone's browser on the scan pages, for the tests of this module: it keeps the cookies the server
// gives and sends them back, and its forms post as a browser without script posts them.

export const SAME_ORIGIN = { host: 'muster.school.edu', origin: 'http://muster.school.edu' };

/**
 * A phone's browser: its address and the cookies the server gave it, sent back on every request.
 * `app` is read at each request (a browser may be made before the test app exists).
 */
export function scanBrowser(app: () => TestApp, ip: string, headers: Record<string, string> = {}) {
  const jar: Record<string, string> = {};
  const keep = (res: LightMyRequestResponse) => {
    for (const c of res.cookies as { name: string; value: string }[]) jar[c.name] = c.value;
    return res;
  };
  // A header given as undefined is left out (a browser that sends no Origin).
  const withHeaders = (more: Record<string, string | undefined>) =>
    Object.fromEntries(Object.entries({ ...SAME_ORIGIN, ...headers, ...more }).filter((h): h is [string, string] => h[1] !== undefined));
  return {
    jar,
    get: async (url: string) => keep(await app().app.inject({ url, remoteAddress: ip, cookies: jar, headers: withHeaders({}) })),
    post: async (url: string, form: Record<string, string>, more: Record<string, string | undefined> = {}) =>
      keep(
        await app().app.inject({
          method: 'POST',
          url,
          remoteAddress: ip,
          cookies: jar,
          headers: withHeaders({ 'content-type': 'application/x-www-form-urlencoded', ...more }),
          payload: new URLSearchParams(form).toString(),
        }),
      ),
  };
}
