import type { FastifyRequest } from 'fastify';

/**
 * A form post sent by one of this site's own pages. Browsers say where a request comes from in
 * Sec-Fetch-Site; those too old to send it send Origin, compared with the host the request reached.
 * A cross-site form could otherwise sign a person's browser into someone else's account.
 */
export function isSameOriginPost(req: FastifyRequest): boolean {
  const site = req.headers['sec-fetch-site'];
  if (typeof site === 'string') return site === 'same-origin';
  const origin = req.headers.origin;
  if (typeof origin !== 'string' || origin === 'null') return false;
  try {
    const from = new URL(origin);
    // Read with the origin's scheme, so an explicit default port (host:443) compares equal.
    return new URL(`${from.protocol}//${req.host}`).host === from.host;
  } catch {
    return false;
  }
}
