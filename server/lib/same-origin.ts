import type { FastifyRequest } from 'fastify';

/**
 * A request sent by one of this site's own pages, or, with `typedAddress`, opened from an address
 * the person typed or bookmarked. Browsers say where a request comes from in Sec-Fetch-Site; those
 * too old to send it send Origin or Referer, compared with the host the request reached. A link, an
 * image or a form on another site is neither: it cannot sign a browser out, or into someone else's account.
 */
export function cameFromThisSite(req: FastifyRequest, opts: { typedAddress?: boolean } = {}): boolean {
  const site = req.headers['sec-fetch-site'];
  if (typeof site === 'string') return site === 'same-origin' || (opts.typedAddress === true && site === 'none');
  const from = req.headers.origin ?? req.headers.referer;
  return typeof from === 'string' && from !== 'null' && isThisHost(from, req.headers.host);
}

/** Whether an Origin or Referer names the host the request reached (an explicit default port, host:443, compares equal). */
export function isThisHost(address: string, host: string | undefined): boolean {
  try {
    const from = new URL(address);
    return host != null && new URL(`${from.protocol}//${host}`).host === from.host;
  } catch {
    return false;
  }
}
